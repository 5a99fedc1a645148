// Plain JSON-like JS values to Scheme values and back, in SRFI 180's JSON mapping.
//
// Objects are association lists with symbol keys (the empty object is '()),
// arrays are vectors, strings are strings, numbers are exact integers when
// they are safe integers and flonums otherwise, true/false are #t/#f and null
// is the symbol `null`. Results of agent primitives are built this way so that
// they convert to JSON for the model unambiguously. (srfi 180)'s reader and
// writer (primitives/srfi/json.ts) make and take the same values, and this
// module takes its rule for numbers from there: a result of json-read is a
// valid tool result and the other way round.

import { Flonum, flo, MString, NIL, Pair, Sym, arrayToList, type Ctx } from "../../interpreter/api.js";
import { jsonNumberProblem } from "../srfi/json.js";

/** Nesting deeper than this is an error (the converters recurse; tool results are shallow). */
export const MAX_JSON_DEPTH = 256;

/** Converts a JSON-like JS value (undefined object fields are left out). Throws TypeError on anything else. */
export function jsonToScheme(ctx: Ctx, v: unknown, depth = 0): any {
  if (depth > MAX_JSON_DEPTH) throw new TypeError(`JSON value nested deeper than ${MAX_JSON_DEPTH}`);
  switch (typeof v) {
    case "string":
      return new MString(v);
    case "boolean":
      return v;
    case "number":
      if (Number.isSafeInteger(v) && !Object.is(v, -0)) return v;
      if (!Number.isFinite(v)) throw new TypeError(`not a JSON number: ${v}`);
      return flo(v);
    case "bigint":
      return v;
    case "object": {
      if (v === null) return ctx.symbols.intern("null");
      if (Array.isArray(v)) return v.map((x) => jsonToScheme(ctx, x, depth + 1));
      const pairs: Pair[] = [];
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
        if (x === undefined) continue;
        pairs.push(new Pair(ctx.symbols.intern(k), jsonToScheme(ctx, x, depth + 1)));
      }
      return arrayToList(pairs);
    }
    default:
      throw new TypeError(`not a JSON value: ${typeof v}`);
  }
}

/** Converts a Scheme value in the SRFI 180 mapping back to plain JS. Throws TypeError on anything else. */
export function schemeToJson(v: any, depth = 0): unknown {
  if (depth > MAX_JSON_DEPTH) throw new TypeError(`JSON value nested deeper than ${MAX_JSON_DEPTH}`);
  if (v instanceof MString) return v.toString();
  if (typeof v === "boolean") return v;
  if (typeof v === "number") {
    if (Number.isFinite(v)) return v; // a fixnum, or a non-integral flonum (bare, ADR 0046)
    throw new TypeError(`not a JSON value: ${jsonNumberProblem(v)}`);
  }
  if (typeof v === "bigint") return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString();
  if (v instanceof Flonum) {
    const problem = jsonNumberProblem(v);
    if (problem !== null) throw new TypeError(`not a JSON value: ${problem}`);
    return v.v;
  }
  if (v instanceof Sym && v.name === "null") return null;
  if (Array.isArray(v)) return v.map((x) => schemeToJson(x, depth + 1));
  if (v === NIL) return {};
  if (v instanceof Pair) {
    const o: Record<string, unknown> = {};
    let p: any = v;
    let n = 0;
    while (p instanceof Pair) {
      const e = p.car;
      if (!(e instanceof Pair) || !(e.car instanceof Sym)) throw new TypeError("not a JSON object: an element is not a (symbol . value) pair");
      // An own property whatever the name: `o["__proto__"] = …` would set the object's prototype instead (issue 11, T1).
      Object.defineProperty(o, e.car.name, { value: schemeToJson(e.cdr, depth + 1), enumerable: true, writable: true, configurable: true });
      p = p.cdr;
      if (++n > 1e7) throw new TypeError("not a JSON object: too long or circular");
    }
    if (p !== NIL) throw new TypeError("not a JSON object: an improper list");
    return o;
  }
  throw new TypeError(`not a JSON value: ${String(v)}`);
}
