// Symbols (R7RS §6.5) and keywords, interned in the calling interpreter's own table.

import { type ProcSpec, T, Sym, Keyword, MString, argError, spend, COST } from "../../interpreter/api.js";

/** symbol?, symbol=?, symbol->string, string->symbol, the keyword procedures and generate-symbol. */
export const symbolPrimitives: ProcSpec[] = [
  {
    name: "symbol?",
    params: ["obj"],
    doc: "True when obj is a symbol.",
    impl: (x: any) => x instanceof Sym,
  },
  {
    name: "symbol=?",
    params: ["symbol1", "symbol2", "symbol ..."],
    types: [T.symbol, T.symbol, T.symbol],
    doc: "True when all the arguments, which must be symbols, are the same symbol.",
    impl(a: Sym, b: Sym, rest: Sym[]) {
      if (a !== b) return false;
      for (const x of rest) if (x !== a) return false;
      return true;
    },
  },
  {
    name: "symbol->string",
    params: ["symbol"],
    types: [T.symbol],
    // Immutable, as R7RS allows: the name is shared with the symbol, not copied.
    doc: "The name of symbol, as an immutable string (string-copy it to modify it).",
    impl: (s: Sym) => new MString(s.name, true),
  },
  {
    name: "string->symbol",
    params: ["string"],
    types: [T.string],
    doc: "The symbol whose name is string: the same (eq?) symbol for equal strings. Any string is allowed, even \"\" or \"with space\".",
    impl(s: MString) {
      spend(s.length * COST.charNs);
      return this.symbols.intern(s.toString());
    },
  },
  {
    name: "keyword?",
    params: ["obj"],
    doc: "True when obj is a keyword: #:name anywhere, or :name in code where nothing binds :name (quoted, ':name is a symbol).",
    impl: (x: any) => x instanceof Keyword,
  },
  {
    name: "string->keyword",
    params: ["string"],
    types: [T.string],
    doc: "The keyword whose name is string (without the #: prefix): the same (eq?) keyword for equal strings.",
    impl(s: MString) {
      spend(s.length * COST.charNs);
      return this.symbols.keyword(s.toString());
    },
  },
  {
    name: "keyword->string",
    params: ["keyword"],
    types: [T.keyword],
    doc: "The name of keyword without the #: prefix, as an immutable string.",
    impl: (k: Keyword) => new MString(k.name, true),
  },
  {
    name: "generate-symbol",
    params: ["[prefix]"],
    doc:
      "A fresh uninterned symbol, different from every other symbol, even one read or made by string->symbol " +
      "with the same name. Its name starts with prefix (a string or symbol, default \"g\").",
    impl(prefix?: any) {
      if (prefix === undefined) return this.symbols.gensym();
      if (prefix instanceof MString) return this.symbols.gensym(prefix.toString());
      if (prefix instanceof Sym) return this.symbols.gensym(prefix.name);
      return argError("generate-symbol", 1, "string or symbol", prefix);
    },
  },
];
