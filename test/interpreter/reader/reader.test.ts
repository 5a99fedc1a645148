// The reader on every lexical form of R7RS §2/§7.1, its read errors and locations, and large inputs.
import test from "ava";
import { Reader, locationOf } from "../../../interpreter/reader/reader.js";
import { SchemeError } from "../../../interpreter/errors.js";
import { Pair, NIL, list, cons } from "../../../interpreter/values/pair.js";
import { Sym, Keyword, SymbolTable } from "../../../interpreter/values/symbol.js";
import { char, Char } from "../../../interpreter/values/char.js";
import { MString } from "../../../interpreter/values/string.js";
import { EOF } from "../../../interpreter/values/misc.js";
import { Compnum, Ratnum, flo, floValue, isFlonum } from "../../../interpreter/values/numbers/repr.js";
import { readOne, readAll, readFailure, reader, sameDatum } from "./datum-helpers.js";

const S = new SymbolTable();
const sym = (name: string): Sym => S.intern(name);
const str = (s: string): MString => new MString(s);
const read1 = (text: string): any => readOne(text, S);

test("symbols are interned in the given table and case-sensitive", (t) => {
  t.is(read1("hello"), sym("hello"));
  t.not(read1("Hello"), read1("hello"));
  t.is(read1("abc"), read1("|abc|"));
});

test("peculiar and extended identifiers read as symbols", (t) => {
  const names = ["+", "-", "...", "->x", "+a", "-b", "<=?", "!$%&*/:<=>?^_~", "a.b", "x->y", ".foo", "..", "+.a", "λx", "λ", "a:b", "1+", "-1+", "1abc", "a#b"];
  for (const n of names) t.is(read1(n), sym(n), n);
});

test("|symbols| with escapes, spaces and bars", (t) => {
  t.is(read1("|hello world|"), sym("hello world"));
  t.is(read1("||"), sym(""));
  t.is(read1("|a\\x41;b|"), sym("aAb"));
  t.is(read1("|a\\|b|"), sym("a|b"));
  t.is(read1("|a\\tb|"), sym("a\tb"));
  t.is(read1("|two\nlines|"), sym("two\nlines"));
  // A bar ends the preceding atom: `abc|def|` is two symbols.
  t.deepEqual(readAll("abc|def|", S), [sym("abc"), sym("def")]);
});

test("keywords: #:name is a keyword; :name, `:` and `::x` are symbols (R7RS identifiers, ADR 0033)", (t) => {
  t.is(read1("#:limit"), S.keyword("limit"));
  t.true(read1("#:match") instanceof Keyword);
  t.is(read1(":limit"), sym(":limit"));
  t.is(read1(":optional"), sym(":optional"));
  t.is(read1(":"), sym(":"));
  t.is(read1("::"), sym("::"));
  t.is(read1("::x"), sym("::x"));
  t.is(read1("a:"), sym("a:"));
});

test("booleans in all spellings", (t) => {
  t.deepEqual(readAll("#t #true #f #false #T #FALSE", S), [true, true, false, false, true, false]);
});

test("numbers: prefixes, rationals, decimals, infinities", (t) => {
  const got = readAll("#x1F #b101 #o17 #d10 #xff #e1.5 #e1e3 #e1.2e-1 .5 -0.5 +5 -7 1/2 -3/6 1e2 #X1f #B-101 #x#e10 #e#x10", S);
  const want = [31, 5, 15, 10, 255, new Ratnum(3n, 2n), 1000, new Ratnum(3n, 25n), flo(0.5), flo(-0.5), 5, -7, new Ratnum(1n, 2n), new Ratnum(-1n, 2n), flo(100), 31, -5, 16, 16];
  t.true(sameDatum(got, want));
  const inexact = read1("#i3/4");
  t.true(isFlonum(inexact) && floValue(inexact) === 0.75);
  const inf = readAll("+inf.0 -inf.0 +nan.0", S) as number[];
  t.is(inf[0], Infinity);
  t.is(inf[1], -Infinity);
  t.true(Number.isNaN(inf[2]));
  t.is(read1("123456789012345678901234567890"), 123456789012345678901234567890n);
  t.is(read1("-12.5e1").v, -125);
});

test("text that is not a number is a symbol: 1+ - 1/0 1.2.3 i 1i +ii 1@", (t) => {
  for (const n of ["1+", "-", "1/0", "1.2.3", "12a", "+inf.1", "i", "1i", "+ii", "1@", "1+2", "+i+"]) t.is(read1(n), sym(n), n);
});

test("+i, -i and 1+2i are complex numbers, not symbols", (t) => {
  for (const [text, re, im] of [["+i", 0, 1], ["-i", 0, -1], ["1+2i", 1, 2], ["-3/4-i", new Ratnum(-3n, 4n), -1]] as const) {
    const z = read1(text);
    t.true(z instanceof Compnum, text);
    t.true(sameDatum([z.re, z.im], [re, im]), text);
  }
});

test("characters: single, hex, every R7RS name, delimiters right after #\\", (t) => {
  t.is(read1("#\\a"), char(97));
  t.is(read1("#\\A"), char(65));
  t.is(read1("#\\x41"), char(0x41));
  t.is(read1("#\\x"), char(120));
  t.is(read1("#\\X"), char(88));
  t.is(read1("#\\x3bb"), char(955));
  t.is(read1("#\\λ"), char(955));
  t.is(read1("#\\😀"), char(0x1f600));
  t.is(read1("#\\x20"), char(32));
  t.is(read1("#\\xa"), char(10)); // hex wins over the letter
  const names: [string, number][] = [["alarm", 7], ["backspace", 8], ["delete", 127], ["escape", 27], ["newline", 10], ["null", 0], ["return", 13], ["space", 32], ["tab", 9]];
  for (const [n, c] of names) t.is(read1("#\\" + n), char(c), n);
  t.is(read1("#\\("), char(40));
  t.is(read1("#\\)"), char(41));
  t.is(read1("#\\;"), char(59));
  t.is(read1('#\\"'), char(34));
  t.is(read1("#\\ "), char(32));
  t.deepEqual(readAll("(#\\a)", S)[0].car, char(97));
  t.true(sameDatum(read1("(#\\( #\\))"), list(char(40), char(41))));
});

test("strings: every escape and line continuations", (t) => {
  const s = (text: string): string => (read1(text) as MString).toString();
  t.is(s('"a\\tb"'), "a\tb");
  t.is(s('"\\a\\b\\t\\n\\r"'), "\x07\b\t\n\r");
  t.is(s('"\\"\\\\"'), '"\\');
  t.is(s('"a\\|b"'), "a|b");
  t.is(s('"\\x41;\\x3bb;"'), "Aλ");
  t.is(s('"\\x1F600;"'), "😀");
  t.is(s('"abc\\\n        def"'), "abcdef");
  t.is(s('"line1\\   \n   line2"'), "line1line2");
  t.is(s('"a\\\r\n\tb"'), "ab");
  t.is(s('"a\\ \t\r  b"'), "ab");
  t.is(s('"multi\nline"'), "multi\nline");
  t.is(s('"#| not a comment |#"'), "#| not a comment |#");
  t.is(s('"a;b"'), "a;b");
  t.is(s('""'), "");
});

test("string literals are immutable MStrings", (t) => {
  const v = read1('"abc"');
  t.true(v instanceof MString);
  t.true(v.immutable);
});

test("comments: line, nested block, datum comments (nestable)", (t) => {
  t.true(sameDatum(readAll("(+ 1 #| block |# 2)", S), [list(sym("+"), 1, 2)]));
  t.true(sameDatum(read1("(+ 1 #| outer #| nested |# still |# 2)"), list(sym("+"), 1, 2)));
  t.true(sameDatum(read1("(list 1 #;(this is skipped) 2)"), list(sym("list"), 1, 2)));
  t.true(sameDatum(read1("(list 1 #;  2 3)"), list(sym("list"), 1, 3)));
  t.true(sameDatum(read1("(list 1 2 #;3)"), list(sym("list"), 1, 2)));
  t.true(sameDatum(read1("(a ; comment )\n b)"), list(sym("a"), sym("b"))));
  t.is(read1("#;(a b) c"), sym("c"));
  t.is(read1("#| x #| y |# z |# w"), sym("w"));
  t.true(sameDatum(read1("(1 #;#;2 3 4)"), list(1, 4)));
  t.is(read1(";; comment\n  sym"), sym("sym"));
  t.is(read1("#;#;a b"), EOF);
  t.true(sameDatum(read1("(a . #;b c)"), cons(sym("a"), sym("c"))));
  t.true(sameDatum(read1("(a . b #;c)"), cons(sym("a"), sym("b"))));
  t.true(sameDatum(read1("#u8(1 #;2 3)"), Uint8Array.of(1, 3)));
  t.is(read1("#|a|##|b|#c"), sym("c"));
});

test("#!fold-case folds identifiers and character names until #!no-fold-case", (t) => {
  t.is(read1("#!fold-case ABC"), sym("abc"));
  t.is(read1("#!fold-case #!no-fold-case ABC"), sym("ABC"));
  const r = reader("#!fold-case (XY #\\A #\\SPACE |Q| #:KW :Kw \"S\") #!no-fold-case Z", {}, S);
  t.true(sameDatum(r.read(), list(sym("xy"), char(65), char(32), sym("Q"), S.keyword("kw"), sym(":kw"), str("S"))));
  t.true(r.foldCase);
  t.is(r.read(), sym("Z"));
  t.false(r.foldCase);
  t.is(read1("#!FOLD-CASE Straße"), sym("strasse"));
  t.is(read1("#!fold-case ΣΑΣ"), sym("σασ"));
  t.is(readOne("ABC", S, { foldCase: true }), sym("abc"));
});

test("quote abbreviations build lists with interned symbols", (t) => {
  t.true(sameDatum(read1("'x"), list(sym("quote"), sym("x"))));
  t.true(sameDatum(read1("`x"), list(sym("quasiquote"), sym("x"))));
  t.true(sameDatum(read1(",x"), list(sym("unquote"), sym("x"))));
  t.true(sameDatum(read1(",@x"), list(sym("unquote-splicing"), sym("x"))));
  t.true(sameDatum(read1("`(a ,b ,@c)"), list(sym("quasiquote"), list(sym("a"), list(sym("unquote"), sym("b")), list(sym("unquote-splicing"), sym("c"))))));
  t.true(sameDatum(read1("''a"), list(sym("quote"), list(sym("quote"), sym("a")))));
  t.is((read1("'x") as Pair).car, sym("quote"));
  t.true(sameDatum(readAll("a'b", S), [sym("a"), list(sym("quote"), sym("b"))]));
});

test("lists, dotted pairs, brackets, vectors and bytevectors", (t) => {
  t.is(read1("()"), NIL);
  t.true(sameDatum(read1("(a . (b . (c . ())))"), list(sym("a"), sym("b"), sym("c"))));
  t.true(sameDatum(read1("(a . b)"), cons(sym("a"), sym("b"))));
  t.true(sameDatum(read1("(a b . c)"), cons(sym("a"), cons(sym("b"), sym("c")))));
  t.true(sameDatum(read1("[a (b) [c]]"), list(sym("a"), list(sym("b")), list(sym("c")))));
  t.true(sameDatum(read1('#(1 #(2) "s" #\\c)'), [1, [2], str("s"), char(99)]));
  t.deepEqual(read1("#()"), []);
  const bv = read1("#u8(10 20 255 #xff 0)");
  t.true(bv instanceof Uint8Array);
  t.deepEqual([...bv], [10, 20, 255, 255, 0]);
  t.deepEqual([...read1("#u8()")], []);
});

test("datum labels build shared and cyclic structure", (t) => {
  const x = read1("#0=(a b . #0#)");
  t.is(x.car, sym("a"));
  t.is(x.cdr.car, sym("b"));
  t.is(x.cdr.cdr, x);
  const y = read1("(#1=(p q) #1# #1#)");
  t.is(y.car, y.cdr.car);
  t.is(y.cdr.car, y.cdr.cdr.car);
  t.true(sameDatum(read1("(#5=x #5#)"), list(sym("x"), sym("x"))));
  const v = read1("#1=#(x #1#)");
  t.is(v[1], v);
  const z = read1("#0=(a (b #0#) #(#0#) '#0#)");
  t.is(z.cdr.car.cdr.car, z);
  t.is(z.cdr.cdr.car[0], z);
  t.is(z.cdr.cdr.cdr.car.cdr.car, z);
  // A label inside a labelled datum, referenced from the outer one.
  const w = read1("#0=(#1=(#0#) #1#)");
  t.is(w.car, w.cdr.car);
  t.is(w.car.car, w);
  // Leading zeros name the same label.
  const u = read1("#007=(a . #7#)");
  t.is(u.cdr, u);
  // Labels are scoped to one datum: the next read may reuse the number.
  const r = reader("#0=(a) #0=(b)", {}, S);
  t.true(sameDatum(r.read(), list(sym("a"))));
  t.true(sameDatum(r.read(), list(sym("b"))));
});

test("a deep chain of labelled cycles is patched without recursion", (t) => {
  // #0=(#1=(#2=( ... #n# ...) #1#) #0#): 10,000 nested labels each referring to itself.
  const n = 10000;
  let text = "";
  for (let i = 0; i < n; i++) text += `#${i}=(`;
  for (let i = n - 1; i >= 0; i--) text += ` #${i}#)`;
  const x = read1(text);
  let p = x;
  let wrong = 0;
  for (let i = 0; i < n - 1; i++) {
    if (p.cdr.car !== p) wrong++;
    p = p.car;
  }
  t.is(wrong, 0);
});

test("read returns EOF at the end, after whitespace and comments", (t) => {
  t.is(read1(""), EOF);
  t.is(read1("   ; only a comment\n"), EOF);
  t.is(read1("#| block |#"), EOF);
  const r = reader("1 foo \"bar\" #\\z (x)", {}, S);
  const got = [r.read(), r.read(), r.read(), r.read(), r.read(), r.read()];
  t.true(sameDatum(got.slice(0, 5), [1, sym("foo"), str("bar"), char(122), list(sym("x"))]));
  t.is(got[5], EOF);
  t.is(r.read(), EOF);
});

test("offset is just after the last datum read, and `start` resumes there", (t) => {
  const text = "1 2 (a . b) c";
  const r = reader(text, {}, S);
  r.read();
  t.is(r.offset, 1);
  t.is(text[r.offset], " ");
  r.read();
  t.is(r.offset, 3);
  r.read();
  t.is(r.offset, 11);
  const r2 = reader(text, { start: 11 }, S);
  t.is(r2.read(), sym("c"));
  t.is(r2.offset, 13);
  t.is(r2.read(), EOF);
  t.is(r2.offset, 13);
  t.is(reader("abc)", {}, S).read(), sym("abc"));
});

test("a port-style loop of fresh Readers reads what readAll reads", (t) => {
  const items: string[] = [];
  for (let i = 0; i < 3000; i++) items.push(i % 7 === 0 ? `"s ${i} ; \\" )"` : i % 5 === 0 ? `#| c ${i} |# (x ${i} . y)` : `sym${i}`);
  const text = items.join(" \n");
  const all = readAll(text, S);
  const one: any[] = [];
  let off = 0;
  let fold = false;
  for (;;) {
    const r = new Reader(text, { symbols: S, start: off, foldCase: fold, locations: false });
    const d = r.read();
    if (d === EOF) break;
    one.push(d);
    off = r.offset;
    fold = r.foldCase;
  }
  t.is(one.length, 3000);
  t.true(sameDatum(one, all));
});

test("tokens longer than the lexing window read whole (strings, comments, symbols, lists)", (t) => {
  const long = "x".repeat(200000);
  const text = `a "${long} ) ; #|" #| ${long} (|# |${long}| ${long} (${"1 ".repeat(100000)}) z`;
  const got = readAll(text, S);
  t.is(got.length, 6);
  t.is(got[1].toString(), `${long} ) ; #|`);
  t.is(got[2], sym(long));
  t.is(got[3], sym(long));
  let n = 0;
  for (let p = got[4]; p instanceof Pair; p = p.cdr) n++;
  t.is(n, 100000);
  t.is(got[5], sym("z"));
});

test("a script's #! line is skipped", (t) => {
  t.deepEqual(readAll("#!/usr/bin/env nodwyn run\n(display 1)", S).length, 1);
  t.deepEqual(readAll("#! /bin/sh\nx", S), [sym("x")]);
});

test("source locations of lists and quote forms (not of vectors, which are not forms): 1-based line, column in code points", (t) => {
  const x = readOne("(define (f x)\n  (g #(1) 'y))", S);
  t.deepEqual(locationOf(x), { file: "t.scm", line: 1, col: 1 });
  t.deepEqual(locationOf(x.cdr.car), { file: "t.scm", line: 1, col: 9 });
  const body = x.cdr.cdr.car;
  t.deepEqual(locationOf(body), { file: "t.scm", line: 2, col: 3 });
  t.is(locationOf(body.cdr.car), undefined);
  t.deepEqual(locationOf(body.cdr.cdr.car), { file: "t.scm", line: 2, col: 11 });
  // Astral characters count as one column; CRLF and CR end lines.
  const y = readAll("😀 (a)\r\n(b)\r(c)", S);
  t.deepEqual(locationOf(y[1]), { file: "t.scm", line: 1, col: 3 });
  t.deepEqual(locationOf(y[2]), { file: "t.scm", line: 2, col: 1 });
  t.deepEqual(locationOf(y[3]), { file: "t.scm", line: 3, col: 1 });
  t.is(locationOf(readOne("(a)", S, { locations: false })), undefined);
  t.is(locationOf(sym("a")), undefined);
  t.is(locationOf(42), undefined);
});

test("locations stay right when Readers start at later offsets, across texts", (t) => {
  const a = "(x)\n  (y)\n    (z)";
  const b = "\n\n\n\n(w)";
  const at = (text: string, start: number) => locationOf(readOne(text, S, { start }));
  t.deepEqual(at(a, 4), { file: "t.scm", line: 2, col: 3 });
  t.deepEqual(at(a, 10), { file: "t.scm", line: 3, col: 5 });
  t.deepEqual(at(b, 0), { file: "t.scm", line: 5, col: 1 });
  t.deepEqual(at(a, 0), { file: "t.scm", line: 1, col: 1 });
  t.deepEqual(at(a, 10), { file: "t.scm", line: 3, col: 5 });
  t.deepEqual(at(a, 4), { file: "t.scm", line: 2, col: 3 });
});

const errors: [string, string, RegExp, boolean?][] = [
  // [input, line:col of the offending text, message, incomplete]
  [")", "1:1", /^unexpected '\)'$/],
  ["(a))", "1:4", /^unexpected '\)'$/],
  ["(1 2", "1:5", /^expected '\)' to close the list opened at 1:1, found end of input$/, true],
  ["(a\n  (b c)\n", "3:1", /list opened at 1:1/, true],
  ["  (a\n (b c", "2:6", /list opened at 2:2/, true],
  ["#(1 2", "1:6", /close the vector opened at 1:1/, true],
  ["#u8(1 2", "1:8", /close the bytevector opened at 1:1/, true],
  ["[1 2)", "1:5", /^expected '\]' to close the list opened at 1:1, found '\)'$/],
  ["(1 2]", "1:5", /^expected '\)' to close the list opened at 1:1, found '\]'$/],
  ["#(1 2]", "1:6", /vector opened at 1:1/],
  ["( . 1)", "1:3", /^expected a datum before '\.'$/],
  ["(1 . 2 3)", "1:8", /^expected '\)' after the datum that follows '\.' in the list opened at 1:1$/],
  ["(1 . 2 (3))", "1:8", /after the datum that follows '\.'/],
  ["(1 .)", "1:5", /^expected a datum after '\.', found '\)'$/],
  ["(1 . . 2)", "1:6", /second '\.'/],
  [". a", "1:1", /outside a list/],
  ["#(1 . 2)", "1:5", /not allowed in a vector/],
  ["#u8(300)", "1:5", /^expected an exact integer from 0 to 255 in the bytevector opened at 1:1, found '300'$/],
  ["#u8(-1)", "1:5", /found '-1'/],
  ["#u8(1.0)", "1:5", /found '1\.0'/],
  ["#u8(a)", "1:5", /found 'a'/],
  ['#u8("a")', "1:5", /found '"a"'/],
  ["#u8((1))", "1:5", /found '\('/],
  ['"abc', "1:1", /^unterminated string/, true],
  ['x "abc\\"', "1:3", /^unterminated string/, true],
  ["|abc", "1:1", /^unterminated \|symbol\|/, true],
  ["a #| b #| c |# d", "1:3", /^unterminated block comment/, true],
  ["#\\foo", "1:1", /^unknown character name '#\\foo'/],
  ["(#\\Space)", "1:2", /^unknown character name '#\\Space'/],
  ["#\\xD800", "1:1", /not a Unicode scalar value/],
  ["#\\x110000", "1:1", /not a Unicode scalar value/],
  ["#\\", "1:1", /expected a character after/, true],
  ['"a\\qb"', "1:3", /^unknown escape '\\q' in string$/],
  ['"ab\\x41"', "1:4", /expected \\x<hex digits>;/],
  ['"\\x;"', "1:2", /expected \\x<hex digits>;/],
  ['"\\xD800;"', "1:2", /not a Unicode scalar value/],
  ['"a\\ b"', "1:3", /line continuation/],
  ["|a\\qb|", "1:3", /^unknown escape '\\q' in \|symbol\|$/],
  ["#5#", "1:1", /^reference to undefined datum label #5#$/],
  ["(#0=a #0=b)", "1:7", /^datum label #0= defined twice$/],
  ["#0=#0#", "1:1", /refers only to itself/],
  ["#foo", "1:1", /^unknown syntax '#foo'$/],
  ["#", "1:1", /^unexpected '#'$/],
  ["#x1g", "1:1", /^bad number syntax '#x1g'$/],
  ["#e1.5/2", "1:1", /^bad number syntax/],
  ["#<procedure car>", "1:1", /has no readable form/],
  ["#u8 (1)", "1:1", /expected '\(' right after '#u8'/],
  ["{a}", "1:1", /^'\{' is reserved/],
  ["#!eof", "1:1", /^unknown directive '#!eof'/],
  ["#:", "1:1", /expected a keyword name/],
  ["'", "1:2", /^expected a datum after the quote \('\) at 1:1, found end of input$/, true],
  ["(a ')", "1:5", /^expected a datum after the quote \('\), found '\)'$/],
  ["(a #;)", "1:6", /after the datum comment \(#;\), found '\)'/],
  ["#;", "1:3", /after the datum comment/, true],
  ["#0=", "1:4", /after the datum label #0=/, true],
  ["(a ,@ . b)", "1:7", /after the unquote-splicing \(,@\), found '\.'/],
  ["(a\n  (b\n    \"x\\x41;\\xZZ;\"))", "3:12", /expected \\x<hex digits>;/],
  ["😀😀 )", "1:4", /^unexpected '\)'$/],
  ["a\r\n)", "2:1", /^unexpected '\)'$/],
];

for (const [input, where, message, incomplete] of errors) {
  test(`read error for ${JSON.stringify(input)} at ${where}`, (t) => {
    const f = readFailure(input);
    t.not(f, null);
    t.is(f!.kind, "read");
    t.is(f!.where, where);
    t.regex(f!.message, message);
    t.is(f!.code, incomplete ? "incomplete" : undefined);
  });
}

/** What `f` throws (SchemeError is not a JS Error, so t.throws does not apply). */
function thrown(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  return undefined;
}

test("read errors carry the file name and are SchemeErrors, never JS errors", (t) => {
  const e = thrown(() => new Reader("(a\n  b))", { symbols: S, file: "prog.scm" }).readAll());
  t.true(e instanceof SchemeError);
  const c = (e as SchemeError).condition;
  t.deepEqual(c.loc, { file: "prog.scm", line: 2, col: 5 });
  t.is(new Reader(")", { symbols: S }).offset, 0);
});

test("after a read error the reader moves past the offending text", (t) => {
  const r = reader(") a #foo b", {}, S);
  t.true(thrown(() => r.read()) instanceof SchemeError);
  t.is(r.read(), sym("a"));
  t.true(thrown(() => r.read()) instanceof SchemeError);
  t.is(r.read(), sym("b"));
  t.is(r.read(), EOF);
});

test("10^6 nested parentheses read without overflowing the JS stack", (t) => {
  const n = 1_000_000;
  const x = readOne("(".repeat(n) + ")".repeat(n), S, { locations: false });
  let depth = 0;
  let p = x;
  let badTails = 0;
  while (p instanceof Pair) {
    if (p.cdr !== NIL) badTails++;
    p = p.car;
    depth++;
  }
  t.is(badTails, 0);
  t.is(p, NIL);
  t.is(depth, n - 1); // the innermost () is the empty list
});

test("10^6 nested parentheses with locations, and a 10^6-element list", (t) => {
  const n = 1_000_000;
  const x = readOne("(".repeat(n) + "x" + ")".repeat(n), S);
  let p = x;
  let depth = 0;
  while (p instanceof Pair) {
    p = p.car;
    depth++;
  }
  t.is(depth, n);
  t.deepEqual(locationOf(x.car.car), { file: "t.scm", line: 1, col: 3 });
  const l = readOne("(" + "7 ".repeat(n) + ")", S);
  let len = 0;
  let bad = 0;
  for (let q = l; q instanceof Pair; q = q.cdr) {
    if (q.car !== 7) bad++;
    len++;
  }
  t.is(len, n);
  t.is(bad, 0);
  t.true(thrown(() => readOne("(".repeat(n), S, { locations: false })) instanceof SchemeError);
});

test("chars are cached Char values", (t) => {
  t.true(read1("#\\a") instanceof Char);
  t.is(read1("#\\a"), read1("#\\x61"));
});
