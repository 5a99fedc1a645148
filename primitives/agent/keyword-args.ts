// Keyword arguments of agent and strategy procedures, `(recall-log :match "x" :limit 5)`: the one place that knows how `:name` reads.
//
// The reader reads `:name` as an identifier (ADR 0033): in code, a `:name`
// that nothing binds evaluates to the keyword `#:name`; in quoted data or
// JSON-built lists it stays a symbol. Both are taken here, so
// `(recall-log :match "x")` and `(apply recall-log '(:match "x"))` agree.
// Values are checked by ArgType.

import { Keyword, Sym, arrayToList, hostError, type ArgType, type Ctx } from "../../interpreter/api.js";

/** The option's name when x is a keyword (`:match`, `#:match`, or a symbol spelt `:match`), else null. */
export function keywordName(x: unknown): string | null {
  if (x instanceof Keyword) return x.name;
  if (x instanceof Sym && x.name.length > 1 && x.name.startsWith(":")) return x.name.slice(1);
  return null;
}

/** The keyword `:name` as a value (for results written as property lists). */
export function keywordValue(ctx: Ctx, name: string): Keyword {
  return ctx.symbols.keyword(name);
}

/** A property list `(:a 1 :b 2)` from pairs, in order (undefined values left out). */
export function plist(ctx: Ctx, entries: readonly (readonly [string, unknown])[]): unknown {
  const out: unknown[] = [];
  for (const [k, v] of entries) if (v !== undefined) out.push(keywordValue(ctx, k), v);
  return arrayToList(out as any[]);
}

/**
 * Keyword options `:name value …`: each name one of `allowed`, once, with a
 * value of its type. Errors say which option and what the options are.
 */
export function keywordOptions(args: readonly unknown[], who: string, allowed: { readonly [name: string]: ArgType }): Map<string, unknown> {
  const out = new Map<string, unknown>();
  const names = Object.keys(allowed)
    .map((k) => `:${k}`)
    .join(", ");
  for (let i = 0; i < args.length; i += 2) {
    const k = args[i];
    const name = keywordName(k);
    if (name === null) hostError("bad-option", `${who}: expected a keyword option (${names}), got a value where the option's name should be`, [k], who);
    const type = allowed[name];
    if (type === undefined) hostError("bad-option", `${who}: unknown option :${name} (the options are ${names})`, [k], who);
    if (i + 1 >= args.length) hostError("bad-option", `${who}: the option :${name} has no value`, [k], who);
    const v = args[i + 1];
    if (!type.test(v)) hostError("bad-option", `${who}: the option :${name} takes a ${type.name}`, [v], who);
    if (out.has(name)) hostError("bad-option", `${who}: the option :${name} is given twice`, [k], who);
    out.set(name, v);
  }
  return out;
}
