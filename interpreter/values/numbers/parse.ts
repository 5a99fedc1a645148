// Number syntax (R7RS §7.1.1) → numbers: what the reader and string->number share.
// (Placeholder: the reader work replaces it; the signature is the contract.)

import type { SNumber } from "./repr.js";

/**
 * Parses the whole of `text` as a number in `radix` (2, 8, 10 or 16; prefixes in
 * the text override it). Returns false when the text is not a number. Never throws.
 */
export function parseNumber(text: string, radix = 10): SNumber | false {
  if (radix === 10 && /^[+-]?\d+$/.test(text)) {
    const n = Number(text);
    return Number.isSafeInteger(n) ? n : BigInt(text);
  }
  return false;
}
