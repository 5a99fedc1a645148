// Symbols and keywords: interning per interpreter, immutable names, uninterned generated symbols.
import test from "ava";
import {
  SymbolTable,
  Sym,
  Keyword,
  MString,
  NIL,
  char,
} from "../../../interpreter/api.js";
import { call, raised, ctx } from "../../helpers/prim.js";

const sym = (s: string) => ctx.symbols.intern(s);
const s = (x: string) => new MString(x);

test("symbol? and symbol=?", (t) => {
  t.true(call("symbol?", sym("kumquat")));
  t.false(call("symbol?", s("kumquat")));
  t.false(call("symbol?", NIL));
  t.false(call("symbol?", true));
  t.false(call("symbol?", ctx.symbols.keyword("k")));
  t.true(call("symbol?", ctx.symbols.gensym()));
  t.true(call("symbol=?", sym("q"), sym("q"), sym("q")));
  t.false(call("symbol=?", sym("q"), sym("r")));
  t.false(call("symbol=?", sym("q"), sym("q"), sym("r")));
  t.regex(raised(() => call("symbol=?", sym("q"), s("q"))).message, /^bad argument #2 to 'symbol=\?' \(symbol expected/);
  t.is(raised(() => call("symbol=?", sym("q"), sym("q"), 1)).kind, "type");
});

test("symbol->string gives the name as an immutable string", (t) => {
  const name = call("symbol->string", sym("MixedCase"));
  t.true(name instanceof MString);
  t.is(name.toString(), "MixedCase");
  t.true(name.immutable);
  t.is(call("symbol->string", sym("")).toString(), "");
  t.is(call("symbol->string", sym("λ😀")).length, 2);
  t.is(raised(() => call("symbol->string", s("x"))).kind, "type");
});

test("string->symbol interns in the calling interpreter's table", (t) => {
  t.is(call("string->symbol", s("HeLLo")), sym("HeLLo"));
  t.not(call("string->symbol", s("hello")), sym("Hello"));
  t.is(call("string->symbol", s("with space")).name, "with space");
  t.is(call("string->symbol", s("")), sym(""));
  t.is(call("string->symbol", MString.fromCodePoints([0x61, 0x62])), sym("ab"));
  // Another interpreter's table gives another symbol.
  t.not(call("string->symbol", s("abc")), new SymbolTable().intern("abc"));
  t.is(raised(() => call("string->symbol", sym("a"))).kind, "type");
});

test("a symbol's name does not follow later mutation of the string it came from", (t) => {
  const str = s("zzz");
  const x = call("string->symbol", str);
  str.set(0, 0x61);
  t.is(call("symbol->string", x).toString(), "zzz");
  t.is(call("string->symbol", call("symbol->string", sym("round-trip"))), sym("round-trip"));
});

test("keywords: keyword?, string->keyword, keyword->string", (t) => {
  const k = call("string->keyword", s("name"));
  t.true(k instanceof Keyword);
  t.is(k, ctx.symbols.keyword("name"));
  t.is(call("string->keyword", s("name")), k);
  t.true(call("keyword?", k));
  t.false(call("keyword?", sym("name")));
  t.false(call("symbol?", k));
  const name = call("keyword->string", k);
  t.is(name.toString(), "name");
  t.true(name.immutable);
  t.is(raised(() => call("keyword->string", sym("name"))).kind, "type");
});

test("generate-symbol makes fresh uninterned symbols", (t) => {
  const a = call("generate-symbol");
  const b = call("generate-symbol");
  t.true(a instanceof Sym);
  t.true(a.uninterned);
  t.not(a, b);
  t.not(call("string->symbol", call("symbol->string", a)), a);
  t.true(call("generate-symbol", s("tmp")).name.startsWith("tmp"));
  t.true(call("generate-symbol", sym("loop")).name.startsWith("loop"));
  t.is(raised(() => call("generate-symbol", char(97))).kind, "type");
});
