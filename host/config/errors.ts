// A configuration error: what is wrong, in which file, at which line and key.

/** The stable codes of configuration errors. */
export type ConfigErrorCode =
  | "CONFIG_SYNTAX" // not TOML
  | "CONFIG_INVALID" // unknown keys, wrong types, missing keys, bad values (problems lists each)
  | "CONFIG_UNREADABLE" // the file exists but cannot be read, or NODWYN_CONFIG names a missing file
  | "CONFIG_NO_MODEL" // no model is configured, or none chosen
  | "CONFIG_UNKNOWN_MODEL" // --model or NODWYN_MODEL names no [models] entry
  | "CONFIG_SCRIPT"; // scripted:FILE names a script that cannot be read or is wrong

/** One problem of a file, with its place. */
export interface ConfigProblem {
  readonly line: number;
  readonly col: number;
  /** The key as TOML writes it (servers.local.url). */
  readonly key: string;
  readonly message: string;
}

/** Every configuration error; the message is whole (each line `file:line:col: …`) and says what to do. */
export class ConfigError extends Error {
  constructor(
    readonly code: ConfigErrorCode,
    message: string,
    /** The configuration file, when the error is about one. */
    readonly file?: string,
    /** Each problem found (CONFIG_INVALID, CONFIG_SYNTAX), in the file's order. */
    readonly problems: readonly ConfigProblem[] = [],
  ) {
    super(message);
    this.name = "ConfigError";
  }

  /** The first problem's line, when there is one. */
  get line(): number | undefined {
    return this.problems[0]?.line;
  }

  /** The first problem's key, when there is one. */
  get key(): string | undefined {
    return this.problems[0]?.key;
  }
}
