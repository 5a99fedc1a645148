// The printer: every kind of value in each mode, datum labels, and very long or deep data without recursion.
import test from "ava";
import { writeToString, writeShort, isPlainSymbolName } from "../../../interpreter/printer/printer.js";
import { Pair, NIL, list, cons, arrayToList } from "../../../interpreter/values/pair.js";
import { SymbolTable } from "../../../interpreter/values/symbol.js";
import { char } from "../../../interpreter/values/char.js";
import { MString } from "../../../interpreter/values/string.js";
import { EOF, UNSPECIFIED, DEFAULT, UNINIT, MultipleValues, Box } from "../../../interpreter/values/misc.js";
import { Procedure, type Entries } from "../../../interpreter/values/procedure.js";
import { Record, RecordType } from "../../../interpreter/values/record.js";
import { Condition } from "../../../interpreter/values/condition.js";
import { Ratnum, flo } from "../../../interpreter/values/numbers/repr.js";

const S = new SymbolTable();
const sym = (s: string) => S.intern(s);
const str = (s: string) => new MString(s);
const w = (x: unknown) => writeToString(x, "write");
const d = (x: unknown) => writeToString(x, "display");

/** R7RS: labels are renumbered 0, 1, … in order of appearance before comparing (as the conformance suite does). */
function canonLabels(s: string): string {
  const seen = new Map<string, number>();
  return s.replace(/#(\d+)([=#])/g, (_m, n: string, k: string) => {
    if (!seen.has(n)) seen.set(n, seen.size);
    return `#${seen.get(n)}${k}`;
  });
}

function cycle(...xs: any[]): Pair {
  const l = list(...xs) as Pair;
  let p = l;
  while (p.cdr !== NIL) p = p.cdr;
  p.cdr = l;
  return l;
}

test("numbers", (t) => {
  t.deepEqual([1, -5, new Ratnum(1n, 2n), flo(1.5), flo(-0.25), 2n ** 70n, flo(4), flo(-0), flo(Infinity), flo(-Infinity), flo(NaN)].map(w), [
    "1", "-5", "1/2", "1.5", "-0.25", "1180591620717411303424", "4.0", "-0.0", "+inf.0", "-inf.0", "+nan.0",
  ]);
  t.is(d(flo(1.5)), "1.5");
});

test("strings: escapes in write, raw in display", (t) => {
  t.is(w(str("a\nb")), '"a\\nb"');
  t.is(w(str('q"b\\')), '"q\\"b\\\\"');
  t.is(w(str("tab\there")), '"tab\\there"');
  t.is(w(str("\x07\b\r")), '"\\a\\b\\r"');
  t.is(w(str("\x00\x1b\x7f\x85")), '"\\x0;\\x1b;\\x7f;\\x85;"');
  t.is(w(str("λ😀")), '"λ😀"');
  t.is(w(str("a|b")), '"a|b"');
  t.is(w(str("")), '""');
  t.is(d(str("a\nb")), "a\nb");
  t.is(d(str('"q"')), '"q"');
});

test("characters: names, hex for the non-printing, raw in display", (t) => {
  t.deepEqual([char(97), char(32), char(10), char(9), char(65)].map(w), ["#\\a", "#\\space", "#\\newline", "#\\tab", "#\\A"]);
  t.deepEqual([7, 0, 127, 27, 8, 13].map((c) => w(char(c))), ["#\\alarm", "#\\null", "#\\delete", "#\\escape", "#\\backspace", "#\\return"]);
  t.is(w(char(955)), "#\\λ");
  t.is(w(char(0x1f600)), "#\\😀");
  t.is(w(char(40)), "#\\(");
  t.is(w(char(1)), "#\\x1");
  t.is(w(char(0xa0)), "#\\xa0"); // no-break space
  t.is(w(char(0x301)), "#\\x301"); // combining acute accent
  t.is(w(char(0x200b)), "#\\x200b"); // zero-width space
  t.is(d(char(97)), "a");
  t.is(d(char(10)), "\n");
});

test("symbols get |bars| exactly when they would not read back, here or in a reader with complex numbers", (t) => {
  const cases: [string, string][] = [
    ["abc", "abc"],
    [":key", ":key"], // an identifier since ADR 0033
    ["CamelCase", "CamelCase"],
    ["...", "..."],
    ["+", "+"],
    ["-", "-"],
    ["->x", "->x"],
    ["+a", "+a"],
    ["-.a", "-.a"],
    ["..", ".."],
    [".foo", ".foo"],
    ["a.b", "a.b"],
    ["!$%&*/:<=>?^_~", "!$%&*/:<=>?^_~"],
    [":", ":"],
    ["::x", "::x"],
    ["a:b", "a:b"],
    ["a b", "|a b|"],
    ["", "||"],
    ["1abc", "|1abc|"],
    ["+1", "|+1|"],
    ["1", "|1|"],
    ["1/2", "|1/2|"],
    ["+inf.0", "|+inf.0|"],
    ["-nan.0", "|-nan.0|"],
    ["+i", "|+i|"],
    ["-I", "|-I|"],
    ["+NaN.0abc", "|+NaN.0abc|"],
    ["-inf.0x", "|-inf.0x|"],
    ["+in", "+in"],
    ["+inf", "+inf"],
    ["-nan", "-nan"],
    [".5", "|.5|"],
    [".", "|.|"],
    ["+.5", "|+.5|"],
    ["a|b", "|a\\|b|"],
    ["a\\b", "|a\\\\b|"],
    ["a;b", "|a;b|"],
    ["#foo", "|#foo|"],
    ["a#b", "|a#b|"],
    ["a'b", "|a'b|"],
    ["(", "|(|"],
    ["λ", "|λ|"],
    ["a\nb", "|a\\xa;b|"],
    ["@x", "|@x|"],
  ];
  for (const [name, text] of cases) t.is(w(sym(name)), text, name);
  t.is(d(sym("a b")), "a b");
  t.is(d(sym("λ")), "λ");
  t.true(isPlainSymbolName("x->y"));
  t.false(isPlainSymbolName("1+"));
});

test("other atoms: booleans, (), keywords, bytevectors, singletons", (t) => {
  t.deepEqual([true, false, NIL].map(w), ["#t", "#f", "()"]);
  t.is(w(S.keyword("limit")), "#:limit");
  t.is(w(Uint8Array.of(1, 2, 255)), "#u8(1 2 255)");
  t.is(w(new Uint8Array(0)), "#u8()");
  t.deepEqual([EOF, UNSPECIFIED, DEFAULT, UNINIT, new Box(1)].map(w), ["#<eof>", "#<unspecified>", "#<default>", "#<uninitialized>", "#<box>"]);
});

test("lists, dotted lists and vectors, also in display", (t) => {
  t.is(w(list(1, str("two"), char(51), flo(4), sym("sym"))), '(1 "two" #\\3 4.0 sym)');
  t.is(w(cons(sym("a"), sym("b"))), "(a . b)");
  t.is(w(cons(sym("a"), cons(sym("b"), sym("c")))), "(a b . c)");
  t.is(w(list(list(1, 2), list(3, list(4)), NIL)), "((1 2) (3 (4)) ())");
  t.is(w([1, str("a"), [sym("b")]]), '#(1 "a" #(b))');
  t.is(w([]), "#()");
  t.is(w(list(sym("quote"), sym("x"))), "(quote x)");
  // display is raw at every depth (R7RS: as write-string / write-char)
  t.is(d(list(str("a b"), char(99), sym("d e"), [str("f")])), "(a b c d e #(f))");
});

test("procedures, records, record types, conditions, multiple values", (t) => {
  const stub = (() => 0) as any;
  const entries: Entries = { f0: stub, f1: stub, f2: stub, f3: stub, fN: stub };
  t.is(w(new Procedure(entries, null, { name: "car", minArgs: 1, maxArgs: 1, kind: "primitive" })), "#<procedure car>");
  t.is(w(new Procedure(entries, null, { name: "", minArgs: 0, maxArgs: -1, kind: "lambda" })), "#<procedure>");
  t.is(w(new Procedure(entries, null, { name: "k", minArgs: 0, maxArgs: -1, kind: "continuation" })), "#<continuation>");
  t.is(w(new Procedure(entries, null, { name: "p", minArgs: 0, maxArgs: 1, kind: "parameter" })), "#<parameter p>");
  const point = new RecordType("<point>", ["x", "y"]);
  t.is(w(new Record(point, [1, str("s")])), '#<point x=1 y="s">');
  t.is(d(new Record(point, [1, str("s")])), "#<point x=1 y=s>");
  t.is(w(point), "#<record-type point>");
  t.is(w(new Condition("user", "something failed", [1, sym("x")])), '#<condition user "something failed" 1 x>');
  t.is(w(new Condition("read", "bad", [])), '#<condition read "bad">');
  t.is(w(new MultipleValues([1, str("a")])), '1 "a"');
  t.is(w(new MultipleValues([])), "");
});

test("host values print as #<...>, never [object Object], and never throw", (t) => {
  t.is(w(undefined), "#<undefined>");
  t.is(w(null), "#<null>");
  t.is(w("js"), '#<js-string "js">');
  // A non-integral JS number is a Scheme flonum (ADR 0046); an integral one outside the safe range is not a Scheme value.
  t.is(w(1.5), "1.5");
  t.is(w(2 ** 60), "#<js-number 1152921504606847000>");
  t.is(w(() => 1), "#<js-function>");
  t.is(w({}), "#<object>");
  t.is(w(new (class Port {})()), "#<object Port>");
  t.is(w(new (class Env { toString() { return "#<environment>"; } })()), "#<environment>");
  t.is(w(new (class Bad { toString(): string { throw new Error("no"); } })()), "#<object>");
  t.is(w(Object.create(null)), "#<object>");
});

test("write labels cycles only; shared parts print plainly", (t) => {
  t.is(canonLabels(w(cycle(1, 2, 3))), "#0=(1 2 3 . #0#)");
  t.is(canonLabels(w(cycle(sym("a")))), "#0=(a . #0#)");
  const x = list(1) as Pair;
  x.car = x;
  t.is(canonLabels(w(x)), "#0=(#0#)");
  const v: any[] = [1, 2];
  v[1] = v;
  t.is(canonLabels(w(v)), "#0=#(1 #0#)");
  const v2: any[] = [sym("a")];
  const l = list(v2);
  v2[0] = l;
  t.is(canonLabels(w(l)), "#0=(#(#0#))");
  t.is(canonLabels(w(list(sym("head"), cycle(sym("x"), sym("y"))))), "(head #0=(x y . #0#))");
  t.is(canonLabels(w(cons(sym("head"), cycle(sym("x"), sym("y"))))), "(head . #0=(x y . #0#))");
  const shared = list(1, 2);
  t.is(w(list(shared, shared)), "((1 2) (1 2))");
  const c = cycle(1);
  t.is(canonLabels(w(list(c, c))), "(#0=(1 . #0#) #0#)");
  t.is(canonLabels(d(cycle(str("s")))), "#0=(s . #0#)");
});

test("write-shared labels every shared pair and vector, not strings", (t) => {
  const sh = (x: unknown) => canonLabels(writeToString(x, "shared"));
  t.is(sh(cycle(1, 2, 3)), "#0=(1 2 3 . #0#)");
  const x = list(1, 2);
  t.is(sh(list(x, x)), "(#0=(1 2) #0#)");
  const v = [1];
  t.is(sh(list(v, v)), "(#0=#(1) #0#)");
  const a = list(sym("a"));
  const b = list(sym("b"));
  t.is(sh(list(a, b, b, a)), "(#0=(a) #1=(b) #1# #0#)");
  const s = list(str("s"));
  t.is(sh([s, 1, s]), '#(#0=("s") 1 #0#)');
  const c = cycle(1);
  t.is(sh(list(c, c)), "(#0=(1 . #0#) #0#)");
  t.is(writeToString(list(1, list(2), str("s")), "shared"), '(1 (2) "s")');
  const st = str("same");
  t.is(writeToString(list(st, st), "shared"), '("same" "same")');
  // A shared tail is labelled where it starts, after a dot.
  const tail = list(3, 4);
  t.is(sh(list(cons(1, tail), cons(2, tail))), "((1 . #0=(3 4)) (2 . #0#))");
});

test("write-simple prints shared structure plainly, and terminates on cycles (labelled)", (t) => {
  const x = list(1, 2);
  t.is(writeToString(list(x, x), "simple"), "((1 2) (1 2))");
  t.is(writeToString(list(1, str("s"), char(99)), "simple"), '(1 "s" #\\c)');
  t.is(canonLabels(writeToString(cycle(1, 2), "simple")), "#0=(1 2 . #0#)");
});

test("a 100,000-element list and its vector print with the expected length", (t) => {
  const n = 100000;
  const items = Array.from({ length: n }, (_, i) => n - i);
  // Digits of 1..100000, plus n-1 spaces and two parentheses.
  let digits = 0;
  for (let i = 1; i <= n; i++) digits += String(i).length;
  const l = arrayToList(items);
  t.is(w(l).length, digits + (n - 1) + 2);
  t.is(d(l).length, digits + (n - 1) + 2);
  t.is(w(items).length, digits + (n - 1) + 3);
  t.is(w(l).slice(0, 14), "(100000 99999 ");
});

test("100,000-deep nesting in the car direction prints without recursion", (t) => {
  const n = 100000;
  let x: any = NIL;
  for (let i = 0; i < n; i++) x = list(x);
  const s = w(x);
  t.is(s, "(".repeat(n + 1) + ")".repeat(n + 1));
  let v: any = [];
  for (let i = 0; i < n; i++) v = [v];
  t.is(w(v), "#(".repeat(n + 1) + ")".repeat(n + 1));
});

test("a 10^6-element list with a cycle at its end prints", (t) => {
  const n = 1_000_000;
  const l = arrayToList(new Array(n).fill(0)) as Pair;
  let p = l;
  while (p.cdr !== NIL) p = p.cdr;
  p.cdr = l;
  const s = canonLabels(w(l));
  t.is(s.length, "#0=(".length + 2 * n + ". #0#)".length);
  t.true(s.endsWith("0 . #0#)"));
});

test("writeShort cuts long and circular values without walking them whole", (t) => {
  t.is(writeShort(str("short")), '"short"');
  t.is(writeShort(arrayToList(Array.from({ length: 100 }, (_, i) => i)), 20), "(0 1 2 3 4 5 6 7 ...");
  const s = writeShort(cycle(1, 2, 3), 30);
  t.is(s.length, 30);
  t.true(s.startsWith("(1 2 3 1 2 3"));
  t.true(s.endsWith("..."));
  t.is(writeShort(str("x".repeat(100)), 10), '"xxxxxx...');
});
