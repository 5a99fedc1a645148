// Numbers → text (number->string and the printer).
// (Placeholder: the reader/printer work replaces it; the signature is the contract.)

import type { SNumber } from "./repr.js";
import { Flonum, Ratnum } from "./repr.js";

/** The external representation of `n` in `radix` (2, 8, 10 or 16). */
export function numberToString(n: SNumber, radix = 10): string {
  if (n instanceof Flonum) return String(n.v);
  if (n instanceof Ratnum) return `${n.num.toString(radix)}/${n.den.toString(radix)}`;
  return n.toString(radix);
}
