// The Scheme side of project checkers: a verdict returned by a `register-check` procedure, and the info it receives.
//
// register-check itself needs the evaluator (the session wraps the Scheme
// procedure so that it runs with a step budget); these helpers are the two
// conversions it needs, kept beside the other agent primitives so the verdict
// forms are defined once (docs/guides/checkers.md documents them).

import { MString, Pair, Sym, NIL, writeShort, type Ctx } from "../../interpreter/api.js";
import type { CheckerFn, CheckerInfo, CheckerVerdict } from "../../host/guard/index.js";
import { jsonToScheme } from "./json-value.js";

/**
 * A checker's Scheme value as a verdict:
 *   'allow                 → "allow"
 *   'ask / '(ask "why")    → ask the person (or leave the file out when no one can answer)
 *   'deny / '(deny "why")  → deny, with the reason shown to the model
 * Anything else denies, naming the value: a checker fails closed.
 */
export function verdictFromScheme(v: any, checker: string): CheckerVerdict {
  if (v instanceof Sym) {
    if (v.name === "allow") return "allow";
    if (v.name === "ask") return "ask";
    if (v.name === "deny") return { deny: true, reason: `denied by checker ${checker}` };
  }
  if (v instanceof Pair && v.car instanceof Sym && v.cdr instanceof Pair && v.cdr.cdr === NIL && v.cdr.car instanceof MString) {
    const reason = v.cdr.car.toString();
    if (v.car.name === "deny") return { deny: true, reason };
    if (v.car.name === "ask") return { ask: true, reason };
  }
  return { deny: true, reason: `checker ${checker} returned ${writeShort(v)}, which is not a verdict (allow, ask, deny, (ask "why") or (deny "why"))` };
}

/** The info alist a checker receives: ((size . n) (mtime . ms) (kind . "file") (path . p) (absolute-path . a) (actor . who)). */
export function checkerInfoToScheme(ctx: Ctx, info: CheckerInfo): any {
  return jsonToScheme(ctx, {
    size: info.size,
    mtime: Math.floor(info.mtimeMs),
    kind: info.kind,
    path: info.relPath,
    "absolute-path": info.absPath,
    actor: info.actor,
  });
}

/**
 * Wraps a Scheme checker for the guard. `call` applies the Scheme procedure to
 * (path info) — run by the session with the checker's step budget — and
 * rejects when it raises or exceeds the budget, which the guard turns into a
 * denial.
 */
export function schemeChecker(ctx: Ctx, name: string, call: (path: MString, info: any) => Promise<any> | any): CheckerFn {
  return async (path, info) => verdictFromScheme(await call(new MString(path), checkerInfoToScheme(ctx, info)), name);
}
