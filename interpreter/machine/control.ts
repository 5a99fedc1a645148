// The primitives that reach into the machine: values, apply, continuations, raise, the
// dynamic environment, parameters and records. The Scheme half (dynamic-wind,
// with-exception-handler, guard, parameterize …) is stdlib/nodwyn/prelude.scm.

import { Procedure, procName } from "../values/procedure.js";
import { Pair, NIL, listToArray, arrayToList } from "../values/pair.js";
import { makeValues, UNSPECIFIED, valuesToArray } from "../values/misc.js";
import { Condition } from "../values/condition.js";
import { MString } from "../values/string.js";
import { Sym } from "../values/symbol.js";
import { Record, RecordType } from "../values/record.js";
import { T, type ProcSpec } from "../procspec.js";
import { argError, makeCondition, raiseError, SchemeError } from "../errors.js";
import { writeShort } from "../printer/printer.js";
import type { Frame } from "./frames.js";
import { Dyn, GuardMark, Winder, ROOT_DYN, type ParamBinding } from "./dyn.js";
import { arityError, guardResume, type Runtime } from "./runtime.js";

const dynT = { name: "dynamic environment", test: (x: any) => x instanceof Dyn };
const winderT = { name: "winder", test: (x: any) => x instanceof Winder };
const rtdT = { name: "record type", test: (x: any) => x instanceof RecordType };

/**
 * Parameter objects: procedures whose value is looked up in the dynamic
 * environment. Called with no argument they return it (R7RS); called with one
 * they store it, converted, in the current binding (SRFI 39 — R7RS leaves
 * that call an error, so R7RS programs cannot tell).
 */
export interface ParamData {
  readonly cell: [any];
  readonly converter: Procedure | false;
}

export function makeParameter(rt: Runtime, value: any, converter: Procedure | false): Procedure {
  const data: ParamData = { cell: [value], converter };
  const lookup = function (this: Procedure): any {
    for (let b: ParamBinding | null = rt.dyn.params; b !== null; b = b.next) if (b.param === this) return b.cell[0];
    return (this.data as ParamData).cell[0];
  };
  const assign = function (this: Procedure, v: any): any {
    // The converter is Scheme: the prelude's %parameter-assign! calls it and stores the result.
    if (converter !== false && rt.assignProc !== null) return rt.tc2(rt.assignProc, this, v);
    storeParameter(rt, this, v);
    return UNSPECIFIED;
  };
  const bad = function (this: Procedure): never {
    return arityError(this, 2);
  };
  const bad3 = function (this: Procedure): never {
    return arityError(this, 3);
  };
  const fN = function (this: Procedure, args: any[]): any {
    return args.length === 0 ? lookup.call(this) : args.length === 1 ? assign.call(this, args[0]) : arityError(this, args.length);
  };
  return new Procedure({ f0: lookup, f1: assign, f2: bad, f3: bad3, fN }, null, { name: "parameter", minArgs: 0, maxArgs: 1, kind: "parameter" }, data);
}

/** Stores v in parameter p's binding in the running dynamic environment (its innermost parameterize, or its global cell). */
function storeParameter(rt: Runtime, p: Procedure, v: any): void {
  for (let b: ParamBinding | null = rt.dyn.params; b !== null; b = b.next) {
    if (b.param === p) {
      b.cell[0] = v;
      return;
    }
  }
  (p.data as ParamData).cell[0] = v;
}

/** The current value of parameter `p` (a parameter object) in the running dynamic environment. */
export function parameterValue(rt: Runtime, p: Procedure): any {
  for (let b: ParamBinding | null = rt.dyn.params; b !== null; b = b.next) if (b.param === p) return b.cell[0];
  return (p.data as ParamData).cell[0];
}

function isParameter(x: any): x is Procedure {
  return x instanceof Procedure && x.info.kind === "parameter";
}

function conditionOf(x: any): Condition | null {
  return x instanceof Condition ? x : null;
}

export function controlPrimitives(rt: Runtime): ProcSpec[] {
  return [
    {
      name: "values",
      params: ["obj ..."],
      doc: "Returns its arguments as multiple values.",
      impl: (objs: any[]) => makeValues(objs),
    },
    {
      name: "apply",
      // R7RS §6.10: (apply proc arg1 ... args): the list of arguments is required.
      params: ["proc", "arg", "arg ..."],
      types: [T.procedure, null, null],
      doc: "Calls proc with the args followed by the elements of the last argument, which must be a list (and must be there). A tail call.",
      impl: (proc: Procedure, first: any, rest: any[]) => {
        if (rest.length === 0) {
          const spread = listToArray(first);
          if (spread === null) argError("apply", 2, "list", first);
          return rt.tcN(proc, spread as any[]);
        }
        const last = rest[rest.length - 1];
        const spread = listToArray(last);
        if (spread === null) argError("apply", rest.length + 2, "list", last);
        const args = [first, ...rest.slice(0, -1)].concat(spread as any[]);
        return rt.tcN(proc, args);
      },
    },
    {
      name: "call-with-current-continuation",
      params: ["proc"],
      types: [T.procedure],
      doc: "Calls proc with the current continuation, a procedure that returns its arguments to the continuation of this call, any number of times.",
      impl: (proc: Procedure) => rt.capture(proc),
    },
    {
      name: "call/cc",
      params: ["proc"],
      types: [T.procedure],
      doc: "The same as call-with-current-continuation.",
      impl: (proc: Procedure) => rt.capture(proc),
    },
    {
      name: "%reinstate",
      params: ["k", "values"],
      doc: "Internal: continues with continuation k (after its dynamic-wind transitions ran).",
      impl: (k: Procedure, v: any) => rt.reinstate(k, v),
    },
    {
      name: "raise",
      params: ["obj"],
      doc: "Raises obj as an exception: the current handler is called with it; if the handler returns, a secondary exception is raised.",
      impl: (obj: any) => rt.raise(obj, false),
    },
    {
      name: "raise-continuable",
      params: ["obj"],
      doc: "Raises obj; the value the handler returns becomes the value of raise-continuable.",
      impl: (obj: any) => rt.raise(obj, true),
    },
    {
      name: "error",
      params: ["message", "obj ..."],
      doc: "Raises an error object with the message (a string) and the irritants.",
      impl: (message: any, irritants: any[]) => {
        const text = message instanceof MString ? message.toString() : writeShort(message);
        const c = new Condition("user", text, irritants, undefined);
        if (!(message instanceof MString)) c.payload = message;
        return rt.raise(c, false);
      },
    },
    {
      name: "error-object?",
      params: ["obj"],
      doc: "True when obj is an error object (what error and failing built-in procedures raise).",
      impl: (x: any) => x instanceof Condition,
    },
    {
      name: "error-object-message",
      params: ["error-object"],
      doc: "The message of an error object, a string.",
      impl: (x: any) => (conditionOf(x) ? new MString((x as Condition).message) : argError("error-object-message", 1, "error object", x)),
    },
    {
      name: "error-object-irritants",
      params: ["error-object"],
      doc: "The irritants of an error object, a list.",
      impl: (x: any) => (conditionOf(x) ? arrayToList((x as Condition).irritants) : argError("error-object-irritants", 1, "error object", x)),
    },
    {
      name: "file-error?",
      params: ["obj"],
      doc: "True when obj is the error raised for a file that could not be opened, read, written or deleted.",
      impl: (x: any) => x instanceof Condition && x.kind === "file",
    },
    {
      name: "read-error?",
      params: ["obj"],
      doc: "True when obj is the error raised by read (or the reader) on malformed input.",
      impl: (x: any) => x instanceof Condition && x.kind === "read",
    },
    {
      name: "condition-kind",
      params: ["error-object"],
      doc: "The kind of an error object as a symbol: read, syntax, unbound, type, arity, range, file, host, limit or user.",
      impl(x: any) {
        if (!(x instanceof Condition)) argError("condition-kind", 1, "error object", x);
        return this.symbols.intern(x.kind);
      },
    },
    {
      name: "procedure?",
      params: ["obj"],
      doc: "True when obj is a procedure.",
      impl: (x: any) => x instanceof Procedure,
    },
    // ---- the dynamic environment (used by the prelude) ----
    { name: "%dyn", params: [], doc: "Internal: the current dynamic environment.", impl: () => rt.dyn },
    {
      name: "%set-dyn!",
      params: ["dyn"],
      types: [dynT],
      doc: "Internal: makes dyn the current dynamic environment.",
      impl: (d: Dyn) => {
        rt.dyn = d;
        return UNSPECIFIED;
      },
    },
    {
      name: "%dyn-push-winder",
      params: ["dyn", "before", "after"],
      types: [dynT, T.procedure, T.procedure],
      doc: "Internal: dyn with a dynamic-wind entry added.",
      impl: (d: Dyn, before: Procedure, after: Procedure) => d.withWinder(before, after),
    },
    {
      name: "%dyn-push-handler",
      params: ["dyn", "handler"],
      types: [dynT, T.procedure],
      doc: "Internal: dyn with an exception handler installed.",
      impl: (d: Dyn, h: Procedure) => d.withHandler(h),
    },
    {
      name: "%dyn-push-params",
      params: ["dyn", "params", "values"],
      types: [dynT, T.list, T.list],
      doc: "Internal: dyn with parameters bound to (already converted) values.",
      impl: (d: Dyn, ps: any, vs: any) => d.withParams(listToArray(ps) ?? [], listToArray(vs) ?? []),
    },
    {
      name: "%k-dyn",
      params: ["k"],
      doc: "Internal: the dynamic environment of a continuation.",
      impl: (k: any) => (k instanceof Procedure && k.info.kind === "continuation" ? k.data.dyn : argError("%k-dyn", 1, "continuation", k)),
    },
    {
      name: "%guard-continuation",
      params: ["tag", "k", "dyn"],
      doc: "Internal: the continuation of the guard activation holding tag, found in continuation k's frames, with dynamic environment dyn (or #f).",
      impl: (tag: any, k: any, d: any) => {
        if (!(k instanceof Procedure && k.info.kind === "continuation")) return argError("%guard-continuation", 2, "continuation", k);
        for (let f = (k.data as { k: Frame | null }).k; f !== null; f = f.next) {
          if (f.fn === guardResume && (f.vals as GuardMark).tag === tag) return rt.makeContinuation(f, d);
        }
        return false;
      },
    },
    {
      name: "%guard-call",
      params: ["body", "tag", "clauses", "handler"],
      types: [T.procedure, T.any, T.procedure, T.procedure],
      doc: "Internal: calls body with the guard's handler and mark installed, catching the guard's own escape (ADR 0045).",
      impl: (body: Procedure, tag: any, clauses: Procedure, handler: Procedure) => rt.guardCall(body, tag, clauses, handler),
    },
    {
      name: "%guard-escape",
      params: ["mark", "value"],
      doc: "Internal: leaves for the guard of mark with value, a clause's result (ADR 0045).",
      impl: (mark: any, v: any) => {
        if (!(mark instanceof GuardMark)) return argError("%guard-escape", 1, "guard mark", mark);
        return rt.escape(mark, v);
      },
    },
    {
      name: "%guard-outer",
      params: ["mark"],
      doc: "Internal: the dynamic environment of a guard (its clauses run in it).",
      impl: (mark: any) => (mark instanceof GuardMark ? mark.outer : argError("%guard-outer", 1, "guard mark", mark)),
    },
    {
      name: "%guard-clauses",
      params: ["mark"],
      doc: "Internal: a guard's clauses, as (lambda (condition reraise) ...).",
      impl: (mark: any) => (mark instanceof GuardMark ? mark.clauses : argError("%guard-clauses", 1, "guard mark", mark)),
    },
    {
      name: "%handler-returned",
      params: ["obj"],
      doc: "Internal: the secondary error of a handler that returned from a non-continuable raise of obj.",
      impl: (obj: any) => {
        throw new SchemeError(makeCondition("user", "exception handler returned from a non-continuable raise", [obj]));
      },
    },
    { name: "%root-dyn", params: [], doc: "Internal: the outermost dynamic environment.", impl: () => rootOf(rt.dyn) },
    {
      name: "%dyn-winders",
      params: ["dyn"],
      types: [dynT],
      doc: "Internal: the innermost winder of dyn, or #f.",
      impl: (d: Dyn) => d.winders ?? false,
    },
    {
      name: "%winder-parent",
      params: ["winder"],
      types: [winderT],
      doc: "Internal.",
      impl: (w: Winder) => w.parent ?? false,
    },
    { name: "%winder-outer", params: ["winder"], types: [winderT], doc: "Internal.", impl: (w: Winder) => w.outer },
    { name: "%winder-before", params: ["winder"], types: [winderT], doc: "Internal.", impl: (w: Winder) => w.before },
    { name: "%winder-after", params: ["winder"], types: [winderT], doc: "Internal.", impl: (w: Winder) => w.after },
    {
      name: "%winder-common",
      params: ["a", "b"],
      doc: "Internal: the innermost winder shared by the chains a and b (#f for none).",
      impl: (a: Winder | false, b: Winder | false) => {
        let x = a || null;
        let y = b || null;
        if (x === null || y === null) return false;
        while (x !== null && y !== null && x.depth > y.depth) x = x.parent;
        while (x !== null && y !== null && y.depth > x.depth) y = y.parent;
        while (x !== y && x !== null && y !== null) {
          x = x.parent;
          y = y.parent;
        }
        return x ?? false;
      },
    },
    {
      name: "%winder-path",
      params: ["to", "common"],
      doc: "Internal: the winders from just inside common down to to, outermost first.",
      impl: (to: Winder | false, common: Winder | false) => {
        const out: Winder[] = [];
        for (let w = to || null; w !== null && w !== (common || null); w = w.parent) out.push(w);
        return arrayToList(out.reverse());
      },
    },
    // ---- parameters ----
    {
      name: "%make-parameter",
      params: ["value", "converter"],
      doc: "Internal: a parameter object with its initial (converted) value and converter (or #f).",
      impl: (v: any, conv: any) => makeParameter(rt, v, conv instanceof Procedure ? conv : false),
    },
    {
      name: "%parameter-store!",
      params: ["param", "value"],
      doc: "Internal: stores value (already converted) in the parameter's current binding.",
      impl: (p: any, v: any) => (isParameter(p) ? (storeParameter(rt, p, v), UNSPECIFIED) : argError("%parameter-store!", 1, "parameter object", p)),
    },
    {
      name: "%parameter-converter",
      params: ["param"],
      doc: "Internal: the converter of a parameter object, or #f.",
      impl: (p: any) => (isParameter(p) ? (p.data as ParamData).converter : argError("parameterize", 1, "parameter object", p)),
    },
    // ---- records ----
    {
      name: "%make-record-type",
      params: ["name", "fields"],
      types: [T.symbol, T.list],
      doc: "Internal: a record type descriptor.",
      impl: (name: Sym, fields: any) => new RecordType(name.name, (listToArray(fields) ?? []).map((f: Sym) => f.name)),
    },
    {
      name: "%record-constructor",
      params: ["rtd", "indices", "name"],
      types: [rtdT, T.list, T.symbol],
      doc: "Internal: the constructor of a record type taking the fields at indices.",
      impl: (rtd: RecordType, idx: any, name: Sym) => recordConstructor(rtd, listToArray(idx) as number[], name.name),
    },
    {
      name: "%record-predicate",
      params: ["rtd", "name"],
      types: [rtdT, T.symbol],
      doc: "Internal: the predicate of a record type.",
      impl: (rtd: RecordType, name: Sym) => fixedProc(name.name, 1, (x: any) => x instanceof Record && x.rtd === rtd),
    },
    {
      name: "%record-accessor",
      params: ["rtd", "index", "name"],
      types: [rtdT, T.index, T.symbol],
      doc: "Internal: the accessor of a record field.",
      impl: (rtd: RecordType, i: number, name: Sym) =>
        fixedProc(name.name, 1, (x: any) => (x instanceof Record && x.rtd === rtd ? x.f[i] : argError(name.name, 1, rtd.name, x))),
    },
    {
      name: "%record-modifier",
      params: ["rtd", "index", "name"],
      types: [rtdT, T.index, T.symbol],
      doc: "Internal: the modifier of a record field.",
      impl: (rtd: RecordType, i: number, name: Sym) =>
        fixedProc(name.name, 2, (x: any, v: any) => {
          if (!(x instanceof Record && x.rtd === rtd)) argError(name.name, 1, rtd.name, x);
          x.f[i] = v;
          return UNSPECIFIED;
        }),
    },
    {
      name: "%values->list",
      params: ["values"],
      doc: "Internal: the values of a MultipleValues as a list.",
      impl: (v: any) => arrayToList(valuesToArray(v)),
    },
    {
      name: "%procedure-name",
      params: ["proc"],
      types: [T.procedure],
      doc: "Internal: a procedure's name, for messages.",
      impl: (p: Procedure) => new MString(procName(p)),
    },
  ];
}

function rootOf(_d: Dyn): Dyn {
  return ROOT_DYN;
}

/** A procedure of exactly n ≤ 2 arguments around a JS function (records' procedures). */
function fixedProc(name: string, n: 1 | 2, fn: (...a: any[]) => any): Procedure {
  const e = {
    f0: function (this: Procedure) {
      return arityError(this, 0);
    },
    f1:
      n === 1
        ? function (a: any) {
            return fn(a);
          }
        : function (this: Procedure) {
            return arityError(this, 1);
          },
    f2:
      n === 2
        ? function (a: any, b: any) {
            return fn(a, b);
          }
        : function (this: Procedure) {
            return arityError(this, 2);
          },
    f3: function (this: Procedure) {
      return arityError(this, 3);
    },
    fN: function (this: Procedure, args: any[]) {
      if (args.length !== n) arityError(this, args.length);
      return fn(...args);
    },
  };
  return new Procedure(e, null, { name, minArgs: n, maxArgs: n, kind: "primitive" });
}

function recordConstructor(rtd: RecordType, idx: number[], name: string): Procedure {
  const nf = rtd.fields.length;
  const make = (args: any[]): Record => {
    const f = new Array(nf).fill(false);
    for (let i = 0; i < idx.length; i++) f[idx[i] as number] = args[i];
    return new Record(rtd, f);
  };
  const n = idx.length;
  const arity = function (this: Procedure, k: number): never {
    return arityError(this, k);
  };
  return new Procedure(
    {
      f0() {
        return n === 0 ? make([]) : arity.call(this, 0);
      },
      f1(a) {
        return n === 1 ? make([a]) : arity.call(this, 1);
      },
      f2(a, b) {
        return n === 2 ? make([a, b]) : arity.call(this, 2);
      },
      f3(a, b, c) {
        return n === 3 ? make([a, b, c]) : arity.call(this, 3);
      },
      fN(args) {
        return args.length === n ? make(args) : arity.call(this, args.length);
      },
    },
    null,
    { name, minArgs: n, maxArgs: n, kind: "primitive" },
  );
}

export { SchemeError, makeCondition, raiseError, Pair, NIL };
