// syntax-rules (R7RS §4.3.2): matching patterns and instantiating templates with renaming.
//
// Complete: literals, `_`, ellipsis after any subpattern with tail patterns
// after it (also in dotted and vector patterns), nested ellipses at any depth,
// several ellipses in a row in templates, `(... ...)` escapes, and a custom
// ellipsis identifier. Template symbols become Aliases (see syntax.ts).

import { Pair, NIL, arrayToList } from "../values/pair.js";
import { Sym } from "../values/symbol.js";
import { equal } from "../values/equal.js";
import type { SourceLoc } from "../values/loc.js";
import { Alias, isIdentifier, symOf, sameBinding, syntaxError, type Env, type Identifier, type Transformer } from "./syntax.js";

/** The matches of a pattern variable under an ellipsis (one entry per repetition). */
class Repeat {
  constructor(readonly items: any[]) {}
}

interface Rule {
  readonly pattern: any;
  readonly template: any;
}

export class SyntaxRules implements Transformer {
  private readonly literals: Identifier[];
  private readonly varsIn = new WeakMap<object, Identifier[]>();

  constructor(
    readonly name: string,
    private readonly ellipsis: Identifier | null,
    literals: Identifier[],
    private readonly rules: Rule[],
    private readonly env: Env,
  ) {
    this.literals = literals;
  }

  /** Parses `(syntax-rules [ellipsis] (literal ...) (pattern template) ...)` defined in `env`. */
  static parse(spec: Pair, env: Env, name: string, loc: SourceLoc | undefined): SyntaxRules {
    let rest = spec.cdr;
    let ellipsis: Identifier | null = null;
    if (rest instanceof Pair && isIdentifier(rest.car)) {
      ellipsis = rest.car;
      rest = rest.cdr;
    }
    if (!(rest instanceof Pair)) syntaxError("syntax-rules: expected a list of literals", spec, loc, "syntax-rules");
    const literals: Identifier[] = [];
    for (let l = rest.car; l !== NIL; l = l.cdr) {
      if (!(l instanceof Pair) || !isIdentifier(l.car)) syntaxError("syntax-rules: literals must be identifiers", spec, loc, "syntax-rules");
      literals.push(l.car);
    }
    const rules: Rule[] = [];
    for (let r = rest.cdr; r !== NIL; r = r.cdr) {
      if (!(r instanceof Pair)) syntaxError("syntax-rules: malformed rule list", spec, loc, "syntax-rules");
      const rule = r.car;
      if (!(rule instanceof Pair) || !(rule.cdr instanceof Pair) || rule.cdr.cdr !== NIL || !(rule.car instanceof Pair))
        syntaxError("syntax-rules: each rule must be (pattern template) with a list pattern", rule, loc, "syntax-rules");
      rules.push({ pattern: rule.car, template: rule.cdr.car });
    }
    return new SyntaxRules(name, ellipsis, literals, rules, env);
  }

  /** R7RS §4.3.2: an ellipsis identifier that is also a literal is matched (and inserted) as a literal. */
  private isEllipsis(x: any): boolean {
    if (!isIdentifier(x)) return false;
    if (this.isLiteral(x)) return false;
    if (this.ellipsis !== null) return x === this.ellipsis || symOf(x) === symOf(this.ellipsis);
    return symOf(x).name === "...";
  }
  /**
   * Whether a pattern identifier is one of the literals: the same identifier
   * (bound-identifier=?), not merely the same name, so a pattern variable a
   * macro's template substituted into this syntax-rules is never taken for a
   * literal that the template itself introduced.
   */
  private isLiteral(x: Identifier): boolean {
    return this.literals.includes(x);
  }
  private isUnderscore(x: Identifier): boolean {
    return symOf(x).name === "_" && !this.isLiteral(x);
  }

  expand(form: Pair, useEnv: Env, loc: SourceLoc | undefined): any {
    for (const rule of this.rules) {
      const b = new Map<Identifier, any>();
      // The keyword position of the pattern is ignored.
      if (this.match((rule.pattern as Pair).cdr, form.cdr, b, useEnv)) {
        return this.instantiate(rule.template, b, new Map(), true, loc);
      }
    }
    return syntaxError(`no rule of macro '${this.name}' matches`, form, loc, this.name);
  }

  // ---- matching ----------------------------------------------------------------------------

  private match(p: any, x: any, b: Map<Identifier, any>, useEnv: Env): boolean {
    if (isIdentifier(p)) {
      if (this.isLiteral(p)) return isIdentifier(x) && sameBinding(x, useEnv, p, this.env);
      if (this.isUnderscore(p)) return true;
      b.set(p, x);
      return true;
    }
    if (p instanceof Pair) {
      if (p.cdr instanceof Pair && this.isEllipsis(p.cdr.car)) return this.matchEllipsis(p.car, p.cdr.cdr, x, b, useEnv);
      return x instanceof Pair && this.match(p.car, x.car, b, useEnv) && this.match(p.cdr, x.cdr, b, useEnv);
    }
    if (Array.isArray(p)) return Array.isArray(x) && this.match(arrayToList(p), arrayToList(x), b, useEnv);
    if (p === NIL) return x === NIL;
    return !isIdentifier(x) && equal(p, x);
  }

  /** `sub <ellipsis> . after` against x. */
  private matchEllipsis(sub: any, after: any, x: any, b: Map<Identifier, any>, useEnv: Env): boolean {
    let minAfter = 0;
    let tailPat = after;
    while (tailPat instanceof Pair) {
      minAfter++;
      tailPat = tailPat.cdr;
    }
    const items: any[] = [];
    let xt = x;
    while (xt instanceof Pair) {
      items.push(xt.car);
      xt = xt.cdr;
    }
    // With a proper tail pattern the input must be a proper list.
    if (tailPat === NIL && xt !== NIL) return false;
    const n = items.length - minAfter;
    if (n < 0) return false;
    const vars = this.patternVars(sub);
    const reps: any[][] = vars.map(() => []);
    for (let i = 0; i < n; i++) {
      const bi = new Map<Identifier, any>();
      if (!this.match(sub, items[i], bi, useEnv)) return false;
      vars.forEach((v, j) => (reps[j] as any[]).push(bi.get(v)));
    }
    vars.forEach((v, j) => b.set(v, new Repeat(reps[j] as any[])));
    // The elements after the ellipsis, then the tail.
    let rest: any = x;
    for (let i = 0; i < n; i++) rest = (rest as Pair).cdr;
    return this.match(after, rest, b, useEnv);
  }

  /** Pattern variables of a (sub)pattern, in order. */
  private patternVars(p: any): Identifier[] {
    if (p !== null && typeof p === "object") {
      const cached = this.varsIn.get(p);
      if (cached) return cached;
    }
    const out: Identifier[] = [];
    const walk = (q: any) => {
      if (isIdentifier(q)) {
        if (!this.isLiteral(q) && !this.isUnderscore(q) && !this.isEllipsis(q)) out.push(q);
      } else if (q instanceof Pair) {
        walk(q.car);
        walk(q.cdr);
      } else if (Array.isArray(q)) q.forEach(walk);
    };
    walk(p);
    if (p !== null && typeof p === "object") this.varsIn.set(p, out);
    return out;
  }

  // ---- templates ---------------------------------------------------------------------------

  private instantiate(t: any, b: Map<Identifier, any>, renames: Map<Identifier, Alias>, ell: boolean, loc: SourceLoc | undefined): any {
    if (isIdentifier(t)) {
      if (b.has(t)) {
        const v = b.get(t);
        if (v instanceof Repeat) syntaxError(`macro '${this.name}': pattern variable used without enough ellipses`, t, loc, this.name);
        return v;
      }
      let a = renames.get(t);
      if (a === undefined) {
        a = new Alias(t, this.env);
        renames.set(t, a);
      }
      return a;
    }
    if (t instanceof Pair) {
      if (ell && this.isEllipsis(t.car)) {
        // (... template): the template with ellipses taken literally.
        if (!(t.cdr instanceof Pair) || t.cdr.cdr !== NIL) syntaxError(`macro '${this.name}': malformed (... template) escape`, t, loc, this.name);
        return this.instantiate(t.cdr.car, b, renames, false, loc);
      }
      if (ell && t.cdr instanceof Pair && this.isEllipsis(t.cdr.car)) {
        let k = 0;
        let rest: any = t.cdr;
        while (rest instanceof Pair && this.isEllipsis(rest.car)) {
          k++;
          rest = rest.cdr;
        }
        const items = this.repeat(t.car, k, b, renames, loc);
        return arrayToList(items, this.instantiate(rest, b, renames, ell, loc));
      }
      // Build the spine iteratively so long templates cannot exhaust the JS stack.
      const heads: any[] = [];
      let cur: any = t;
      while (cur instanceof Pair && !(ell && cur.cdr instanceof Pair && this.isEllipsis(cur.cdr.car)) && !(ell && this.isEllipsis(cur.car))) {
        heads.push(this.instantiate(cur.car, b, renames, ell, loc));
        cur = cur.cdr;
      }
      return arrayToList(heads, cur === NIL ? NIL : this.instantiate(cur, b, renames, ell, loc));
    }
    if (Array.isArray(t)) {
      const l = this.instantiate(arrayToList(t), b, renames, ell, loc);
      const out: any[] = [];
      for (let x = l; x instanceof Pair; x = x.cdr) out.push(x.car);
      return out;
    }
    return t;
  }

  /** Instantiates `sub` followed by k ellipses: one result per repetition, flattened k levels. */
  private repeat(sub: any, k: number, b: Map<Identifier, any>, renames: Map<Identifier, Alias>, loc: SourceLoc | undefined): any[] {
    const controlling = this.templateVars(sub).filter((v) => b.get(v) instanceof Repeat);
    if (controlling.length === 0) syntaxError(`macro '${this.name}': no pattern variable with an ellipsis in this template`, sub, loc, this.name);
    const len = (b.get(controlling[0] as Identifier) as Repeat).items.length;
    for (const v of controlling) {
      if ((b.get(v) as Repeat).items.length !== len)
        syntaxError(`macro '${this.name}': pattern variables under one ellipsis matched different lengths`, sub, loc, this.name);
    }
    const out: any[] = [];
    for (let i = 0; i < len; i++) {
      const bi = new Map(b);
      for (const v of controlling) bi.set(v, (b.get(v) as Repeat).items[i]);
      if (k > 1) out.push(...this.repeat(sub, k - 1, bi, renames, loc));
      else out.push(this.instantiate(sub, bi, renames, true, loc));
    }
    return out;
  }

  /** Identifiers of a template that may be pattern variables (cached per template node). */
  private templateVars(t: any): Identifier[] {
    if (t !== null && typeof t === "object" && !(t instanceof Sym) && !(t instanceof Alias)) {
      const cached = this.varsIn.get(t);
      if (cached) return cached;
      const out = new Set<Identifier>();
      const walk = (q: any) => {
        if (isIdentifier(q)) out.add(q);
        else if (q instanceof Pair) {
          walk(q.car);
          walk(q.cdr);
        } else if (Array.isArray(q)) q.forEach(walk);
      };
      walk(t);
      const arr = [...out];
      this.varsIn.set(t, arr);
      return arr;
    }
    return isIdentifier(t) ? [t] : [];
  }
}
