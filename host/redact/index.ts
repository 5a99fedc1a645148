// The redactor's public entry: secret shapes replaced in text and JSON, and host-registered secret values.

export {
  Redactor,
  RedactError,
  HOST_SECRET_RULE,
  MIN_SECRET_LENGTH,
  MAX_DEPTH,
  SCREEN_MAX_COUNT,
  screenSource,
  type RedactionReport,
  type Redaction,
  type RedactorOptions,
} from "./redactor.js";
export { secretNameKind, secretValue, environmentSecrets, nameWords } from "./names.js";
export {
  DEFAULT_RULES,
  placeholder,
  entropy,
  looksGenerated,
  isPlaceholder,
  credentialLike,
  type RedactRule,
} from "./rules.js";
