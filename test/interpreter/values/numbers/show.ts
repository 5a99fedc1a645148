// Test helpers for numbers: a tag that shows exactness and value, and catching Scheme conditions.
import { Compnum, Flonum, Ratnum, flo, isFlonum } from "../../../../interpreter/values/numbers/repr.js";
import { SchemeError } from "../../../../interpreter/errors.js";
import type { Condition } from "../../../../interpreter/values/condition.js";

/** "fix:3", "big:…", "rat:1/3", "flo:-0", "cpx:(fix:0 fix:2)" …: equal tags mean same kind and same value. */
export function show(x: unknown): string {
  // A non-integral flonum is a bare JS number (ADR 0046); it shows as a boxed one does.
  if (typeof x === "number" && !Number.isInteger(x)) return `flo:${String(x)}`;
  if (typeof x === "number") return Object.is(x, -0) ? "fix:-0 (never allowed)" : `fix:${x}`;
  if (typeof x === "bigint") return `big:${x}`;
  if (x instanceof Ratnum) return `rat:${x.num}/${x.den}`;
  if (x instanceof Flonum) return Number.isInteger(x.v) ? `flo:${Object.is(x.v, -0) ? "-0" : String(x.v)}` : `flo-boxed-non-integral:${x.v} (never allowed)`;
  if (x instanceof Compnum) return `cpx:(${show(x.re)} ${show(x.im)})`;
  if (Array.isArray(x)) return `[${x.map(show).join(" ")}]`;
  return `other:${String(x)}`;
}

/** A ratnum literal (the caller gives it in lowest terms, den > 1). */
export function rat(num: bigint | number, den: bigint | number): Ratnum {
  return new Ratnum(BigInt(num), BigInt(den));
}

export { flo };

/** The condition `fn` raises, or undefined when it returns normally. */
export function raised(fn: () => unknown): Condition | undefined {
  try {
    fn();
  } catch (e) {
    if (e instanceof SchemeError) return e.condition;
    throw e;
  }
  return undefined;
}

/**
 * True when x is in canonical form: a safe integer that is not −0, a bigint outside the safe range,
 * a bare non-integral double, or a boxed integral one (ADR 0046).
 */
export function canonical(x: unknown): boolean {
  if (typeof x === "number") return (Number.isSafeInteger(x) && !Object.is(x, -0)) || !Number.isInteger(x);
  if (typeof x === "bigint") return x > BigInt(Number.MAX_SAFE_INTEGER) || x < BigInt(Number.MIN_SAFE_INTEGER);
  if (x instanceof Ratnum) return x.den > 1n;
  if (x instanceof Compnum) {
    // Both parts canonical reals of one exactness, and never an exact 0 imaginary part.
    if (x.re instanceof Compnum || x.im instanceof Compnum || !canonical(x.re) || !canonical(x.im)) return false;
    return x.im !== 0 && isFlonum(x.re) === isFlonum(x.im);
  }
  return x instanceof Flonum && Number.isInteger(x.v);
}
