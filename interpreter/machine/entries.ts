// The five entries (f0 … f3, fN) of procedures: compiled lambdas and primitives from tables.
//
// A wrong argument count lands in a stub that raises the arity error, so call
// sites never check counts themselves. Primitive entries also check argument
// types from the table, so an implementation only ever sees valid arguments.

import { Procedure, type Entries, type ProcInfo } from "../values/procedure.js";
import { arrayToList, NIL } from "../values/pair.js";
import { UNSPECIFIED } from "../values/misc.js";
import { argError } from "../errors.js";
import { specArity, type ProcSpec, type ArgType } from "../procspec.js";
import type { Ctx } from "../ctx.js";
import { arityError, type Runtime } from "./runtime.js";

function stub0(this: Procedure): never {
  return arityError(this, 0);
}
function stub1(this: Procedure): never {
  return arityError(this, 1);
}
function stub2(this: Procedure): never {
  return arityError(this, 2);
}
function stub3(this: Procedure): never {
  return arityError(this, 3);
}

/**
 * Entries for a compiled lambda whose code takes `nreq` required arguments and,
 * when `rest`, one more: the list of the remaining arguments.
 */
export function lambdaEntries(code: (...a: any[]) => any, nreq: number, rest: boolean): Entries {
  if (!rest) {
    const fN = function (this: Procedure, args: any[]): any {
      if (args.length !== nreq) arityError(this, args.length);
      return code.apply(this, args);
    };
    return {
      f0: nreq === 0 ? (code as any) : stub0,
      f1: nreq === 1 ? (code as any) : stub1,
      f2: nreq === 2 ? (code as any) : stub2,
      f3: nreq === 3 ? (code as any) : stub3,
      fN,
    };
  }
  const fN = function (this: Procedure, args: any[]): any {
    if (args.length < nreq) arityError(this, args.length);
    const a = args.slice(0, nreq);
    a.push(arrayToList(args, NIL, nreq));
    return code.apply(this, a);
  };
  return {
    f0:
      nreq === 0
        ? function (this: Procedure) {
            return code.call(this, NIL);
          }
        : stub0,
    f1:
      nreq <= 1
        ? function (this: Procedure, a: any) {
            return fN.call(this, [a]);
          }
        : stub1,
    f2:
      nreq <= 2
        ? function (this: Procedure, a: any, b: any) {
            return fN.call(this, [a, b]);
          }
        : stub2,
    f3:
      nreq <= 3
        ? function (this: Procedure, a: any, b: any, c: any) {
            return fN.call(this, [a, b, c]);
          }
        : stub3,
    fN,
  };
}

function checker(spec: ProcSpec): (args: any[]) => void {
  const types = spec.types;
  if (!types || types.every((t) => t === null || t === undefined)) return () => {};
  const { max, rest } = specArity(spec.params);
  const fixed = rest ? spec.params.length - 1 : max;
  const restType = rest ? (types[spec.params.length - 1] ?? null) : null;
  return (args) => {
    for (let i = 0; i < args.length; i++) {
      const t: ArgType | null | undefined = i < fixed ? types[i] : restType;
      if (t && args[i] !== undefined && !t.test(args[i])) argError(spec.name, i + 1, t.name, args[i]);
    }
  };
}

/** A Procedure for a table entry, bound to its interpreter's context and runtime. */
export function makePrimitive(spec: ProcSpec, ctx: Ctx, rt: Runtime): Procedure {
  const { min, max, rest } = specArity(spec.params);
  const impl = spec.impl;
  const check = checker(spec);
  const fixed = rest ? spec.params.length - 1 : max;
  const info: ProcInfo = { name: spec.name, minArgs: min, maxArgs: max, kind: "primitive", doc: spec.doc };
  const isAsync = spec.async === true;

  // General path: any count, optionals padded with undefined, the rest as one array.
  const general = function (this: Procedure, args: any[]): any {
    const n = args.length;
    if (n < min || (max >= 0 && n > max)) arityError(this, n);
    check(args);
    let r: any;
    if (rest) {
      const a = args.slice(0, fixed);
      while (a.length < fixed) a.push(undefined);
      a.push(args.slice(fixed));
      r = impl.apply(ctx, a);
    } else {
      r = n === max ? impl.apply(ctx, args) : impl.apply(ctx, args.concat(new Array(max - n).fill(undefined)));
    }
    if (isAsync) return rt.suspend(r as Promise<any>);
    return r === undefined ? UNSPECIFIED : r;
  };

  // Entries without an argument array for up to three arguments: the count is
  // known, so only the matching checks run and impl gets the arguments directly
  // (missing optional parameters are undefined).
  const name = spec.name;
  const typeAt = (i: number): ArgType | null =>
    (i < fixed ? spec.types?.[i] : rest ? spec.types?.[spec.params.length - 1] : undefined) ?? null;
  const t0 = typeAt(0);
  const t1 = typeAt(1);
  const t2 = typeAt(2);
  const accepts = (n: number) => n >= min && (max < 0 || n <= max);
  const finish = (r: any): any => (isAsync ? rt.suspend(r as Promise<any>) : r === undefined ? UNSPECIFIED : r);
  const e: Entries = {
    f0() {
      return general.call(this, []);
    },
    f1(a) {
      return general.call(this, [a]);
    },
    f2(a, b) {
      return general.call(this, [a, b]);
    },
    f3(a, b, c) {
      return general.call(this, [a, b, c]);
    },
    fN: general,
  };
  if (!rest) {
    if (accepts(0)) e.f0 = () => finish(impl.call(ctx));
    if (accepts(1))
      e.f1 = (a) => {
        if (t0 !== null && !t0.test(a)) argError(name, 1, t0.name, a);
        return finish(impl.call(ctx, a));
      };
    if (accepts(2))
      e.f2 = (a, b) => {
        if (t0 !== null && !t0.test(a)) argError(name, 1, t0.name, a);
        if (t1 !== null && !t1.test(b)) argError(name, 2, t1.name, b);
        return finish(impl.call(ctx, a, b));
      };
    if (accepts(3))
      e.f3 = (a, b, c) => {
        if (t0 !== null && !t0.test(a)) argError(name, 1, t0.name, a);
        if (t1 !== null && !t1.test(b)) argError(name, 2, t1.name, b);
        if (t2 !== null && !t2.test(c)) argError(name, 3, t2.name, c);
        return finish(impl.call(ctx, a, b, c));
      };
  }
  else if (fixed <= 2 && min === fixed) {
    // A rest parameter after at most two required ones (char=?, string-append …):
    // only the rest array is built.
    if (fixed === 0) {
      e.f0 = () => finish(impl.call(ctx, []));
      e.f1 = (a) => {
        if (t0 !== null && !t0.test(a)) argError(name, 1, t0.name, a);
        return finish(impl.call(ctx, [a]));
      };
      e.f2 = (a, b) => {
        if (t0 !== null && !t0.test(a)) argError(name, 1, t0.name, a);
        if (t1 !== null && !t1.test(b)) argError(name, 2, t1.name, b);
        return finish(impl.call(ctx, [a, b]));
      };
    } else if (fixed === 1) {
      e.f1 = (a) => {
        if (t0 !== null && !t0.test(a)) argError(name, 1, t0.name, a);
        return finish(impl.call(ctx, a, []));
      };
      e.f2 = (a, b) => {
        if (t0 !== null && !t0.test(a)) argError(name, 1, t0.name, a);
        if (t1 !== null && !t1.test(b)) argError(name, 2, t1.name, b);
        return finish(impl.call(ctx, a, [b]));
      };
    } else {
      e.f2 = (a, b) => {
        if (t0 !== null && !t0.test(a)) argError(name, 1, t0.name, a);
        if (t1 !== null && !t1.test(b)) argError(name, 2, t1.name, b);
        return finish(impl.call(ctx, a, b, []));
      };
      e.f3 = (a, b, c) => {
        if (t0 !== null && !t0.test(a)) argError(name, 1, t0.name, a);
        if (t1 !== null && !t1.test(b)) argError(name, 2, t1.name, b);
        if (t2 !== null && !t2.test(c)) argError(name, 3, t2.name, c);
        return finish(impl.call(ctx, a, b, [c]));
      };
    }
  }
  return new Procedure(e, null, info, spec);
}
