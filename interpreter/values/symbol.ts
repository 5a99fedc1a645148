// Symbols and keywords, interned per interpreter (each instance owns its table).

/** A Scheme symbol. Interned symbols are unique per SymbolTable; compare with `===`. */
export class Sym {
  readonly name: string;
  /** True for symbols made by the expander or `gensym`: never returned by the table. */
  readonly uninterned: boolean;
  constructor(name: string, uninterned = false) {
    this.name = name;
    this.uninterned = uninterned;
  }
  toString(): string {
    return this.name;
  }
}

/** A keyword, `#:name` or `:name` in source: self-evaluating, interned like symbols. */
export class Keyword {
  readonly name: string;
  constructor(name: string) {
    this.name = name;
  }
  toString(): string {
    return "#:" + this.name;
  }
}

/** One interpreter's symbol and keyword table. */
export class SymbolTable {
  private readonly syms = new Map<string, Sym>();
  private readonly kws = new Map<string, Keyword>();
  private gensymCounter = 0;

  intern(name: string): Sym {
    let s = this.syms.get(name);
    if (s === undefined) {
      s = new Sym(name);
      this.syms.set(name, s);
    }
    return s;
  }

  keyword(name: string): Keyword {
    let k = this.kws.get(name);
    if (k === undefined) {
      k = new Keyword(name);
      this.kws.set(name, k);
    }
    return k;
  }

  /** A fresh uninterned symbol whose printed name starts with `prefix`. */
  gensym(prefix = "g"): Sym {
    return new Sym(`${prefix}${++this.gensymCounter}`, true);
  }
}
