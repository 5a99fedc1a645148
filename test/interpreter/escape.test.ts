// The escape suite (reliability plan T1, issue 11): attempts to reach JavaScript or the host from Scheme, in an embedder's interpreter and in a model's sandboxed session.
//
// Each attempt must end with a Scheme value or a Scheme condition; afterwards the
// prototypes and globals are as they were, globalThis.__pwned was never set, and
// no string Scheme (or the model reading an error) can see holds a JS stack
// frame or an absolute host path.
import anyTest from "ava";
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { makeInterp } from "../helpers/interp.js";
import { nodwyn } from "../helpers/cli.js";
import { Condition, formatRaised, writeToString, type Interpreter, type Outcome } from "../../interpreter/api.js";
import { INSTALL_DIR, STDLIB_DIR } from "../../host/session/node-interpreter.js";
import { Session } from "../../host/session/session.js";
import { schemeToJson, jsonToScheme } from "../../primitives/agent/index.js";

// Serial: the prototype snapshots are of the whole process.
const test = anyTest.serial;

/** Names that are special to JavaScript objects, used as Scheme names in every way a program can. */
const JS_NAMES = ["__proto__", "constructor", "prototype", "toString", "hasOwnProperty", "valueOf", "__defineGetter__", "then"];

/** Text that would break out of generated JavaScript if it were pasted into it unquoted. */
const INJECTIONS = [
  `"); globalThis.__pwned = 1; ("`,
  `'); globalThis.__pwned = 1; ('`,
  "`); globalThis.__pwned = 1; (`",
  "*/ globalThis.__pwned = 1; /*",
  "${globalThis.__pwned = 1}",
  "\\\"); globalThis.__pwned = 1; //",
  "\u2028globalThis.__pwned = 1;\u2029",
  "\n globalThis.__pwned = 1; //",
  "</script><script>globalThis.__pwned = 1</script>",
  "\0globalThis.__pwned=1",
];

/** A Scheme string literal for any text (every character that needs it as a hex escape). */
function schemeString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0) as number;
    out += c < 32 || c === 0x22 || c === 0x5c || c >= 0x7f ? `\\x${c.toString(16)};` : ch;
  }
  return out + '"';
}
/** A |symbol| for any text. */
function barSymbol(s: string): string {
  let out = "|";
  for (const ch of s) {
    const c = ch.codePointAt(0) as number;
    out += c < 32 || c === 0x7c || c === 0x5c || c >= 0x7f ? `\\x${c.toString(16)};` : ch;
  }
  return out + "|";
}

const ATTEMPTS: string[] = [
  // JS globals are not Scheme bindings.
  "globalThis",
  "(process 'exit)",
  "(require \"child_process\")",
  "Function",
  "(eval \"globalThis.__pwned = 1\")",
  "(eval '(js-eval \"globalThis.__pwned = 1\"))",
  "(string->symbol \"globalThis\")",
  "(eval (string->symbol \"process\") (environment '(scheme base)))",
  // JS property names as Scheme names: define, set!, lookup, string->symbol, keywords, records, alists.
  ...JS_NAMES.map((n) => `(begin (define ${n} 41) (set! ${n} (+ ${n} 1)) (list ${n} (eq? '${n} (string->symbol "${n}"))))`),
  ...JS_NAMES.map((n) => `(let ((${n} 1)) (let loop ((${n} ${n}) (i 0)) (if (< i 3) (loop (+ ${n} 1) (+ i 1)) ${n})))`),
  `(list ${JS_NAMES.map((n) => `#:${n}`).join(" ")})`,
  `(symbol->string (string->symbol "__proto__"))`,
  "(define-record-type __proto__ (make-thing constructor toString) thing? (constructor thing-constructor) (toString thing-to-string set-thing-to-string!))\n(let ((x (make-thing 1 2))) (set-thing-to-string! x 3) (list (thing? x) (thing-constructor x) (thing-to-string x)))",
  "(assq '__proto__ (list (cons 'constructor 1) (cons '__proto__ 2)))",
  "(define-library (__proto__ constructor) (export toString) (import (scheme base)) (begin (define toString 'lib)))\n(import (__proto__ constructor))\ntoString",
  "(string->symbol \"hasOwnProperty\")",
  "(symbol=? 'valueOf (string->symbol \"valueOf\"))",
  // Generated-code injection: names and literals with quotes, backslashes, */, ${, U+2028.
  ...INJECTIONS.map((s) => `(define ${barSymbol(s)} ${schemeString(s)}) ${barSymbol(s)}`),
  ...INJECTIONS.map((s) => `((lambda (${barSymbol(s)}) (string-length ${barSymbol(s)})) ${schemeString(s)})`),
  ...INJECTIONS.slice(0, 4).map((s) => `(let-syntax ((${barSymbol(s)} (syntax-rules () ((_ x) (quote x))))) (${barSymbol(s)} ${barSymbol(s)}))`),
  ...INJECTIONS.slice(0, 4).map((s) => `(error ${schemeString(s)} '${barSymbol(s)})`),
  `(string->symbol ${schemeString(INJECTIONS[4] as string)})`,
  `(eval (list 'define (string->symbol ${schemeString(INJECTIONS[0] as string)}) 1))`,
  `(case-lambda ((${barSymbol("a*/b")}) 1) ((${barSymbol("${x}")} . ${barSymbol("`")}) 2))`,
  "(#\\x2028 #\\x2029)",
  // Host errors caught in Scheme: the condition shows no JS.
  "(guard (e (#t (list (error-object? e) (error-object-message e) (error-object-irritants e)))) (vector-ref (vector 1) 'a))",
  "(guard (e (#t (error-object-message e))) (string-ref \"abc\" 1.5))",
  "(guard (e (#t (error-object-message e))) (apply car '(1 2 3)))",
  "(guard (e (#t (error-object-message e))) (exact (/ 1. 0)))",
  "(guard (e (#t (error-object-message e))) (string->number \"1e400000000\"))",
  "(guard (e (#t e)) (car 1))",
  "(call-with-current-continuation (lambda (k) (with-exception-handler (lambda (e) (k (list 'caught (error-object-message e)))) (lambda () (vector-ref #(1) 10)))))",
  // Printing a primitive shows no JS source.
  "(list car display call/cc apply vector-map (current-output-port))",
  "(let ((p (open-output-string))) (write car p) (display apply p) (write (lambda (x) x) p) (get-output-string p))",
  // apply with 10^6 arguments does not hit V8's argument limit.
  "(apply + (make-list 1000000 1))",
  "(vector-length (apply vector (make-list 1000000 0)))",
  "(string-length (apply string-append (make-list 1000000 \"a\")))",
  "(apply max (iota 1000000))",
  // eval with environments.
  "(eval '(car '(1 2)) (environment '(scheme base)))",
  "(eval '(define car cdr) (environment '(scheme base)))",
  "(eval '(set! car cdr) (environment '(scheme base)))",
  "(eval 'globalThis (environment '(scheme base)))",
  // Quoted literals cannot be changed.
  "(define (lit) '(1 2 3)) (guard (e (#t 'refused)) (set-car! (lit) 99)) (lit)",
  "(guard (e (#t 'refused)) (string-set! \"literal\" 0 #\\x))",
  // Handlers cannot swallow a limit.
  "(guard (e (#t 'swallowed)) (let loop () (loop)))",
  "(with-exception-handler (lambda (e) 'swallowed) (lambda () (let loop () (loop))))",
  "(dynamic-wind (lambda () #f) (lambda () (let loop () (loop))) (lambda () 'after))",
  "(guard (e (#t 'swallowed)) (let loop ((acc '())) (loop (cons acc acc))))",
  // Messages that would name a host path.
  "(environment '(no such lib))",
  "(guard (e (#t (list (error-object-message e) (error-object-irritants e)))) (environment '(no such lib)))",
  "(guard (e (#t (error-object-message e))) (vector-map 1 2))",
  "(guard (e (#t (error-object-message e))) (eval '(import (no such lib)) (environment '(scheme base))))",
  "(vector-map 1 2)",
  "(string-for-each 1 2)",
  // Capability procedures with wrong types, wrong arity, or themselves as argument.
  ...["open-input-file", "load", "exit", "emergency-exit", "get-environment-variable", "command-line", "current-second", "delete-file", "file-exists?", "open-output-file"].flatMap((p) => [
    `(${p} ${p})`,
    `(${p} 1 2 3 4 5 6)`,
    `(${p} '__proto__)`,
  ]),
];

/** Property names of the objects an escape would change. */
function snapshot(): Record<string, string[]> {
  const names = (o: object) => Reflect.ownKeys(o).map(String).sort();
  return {
    Object: names(Object.prototype),
    Function: names(Function.prototype),
    Array: names(Array.prototype),
    String: names(String.prototype),
    globalThis: names(globalThis),
  };
}

const HOST_PATHS = [INSTALL_DIR, STDLIB_DIR, process.cwd(), homedir(), tmpdir()].filter((p) => p.length > 1);
const JS_FRAME = /\bat [\w$.<> ]+ \(|\bat (file|node):|\.[cm]?js:\d+(:\d+)?|node:internal|\bTypeError\b|\bRangeError\b|\bReferenceError\b|internal (reader )?error/;

/** What Scheme or a model sees of an outcome: the value written, or the error report, its message and irritants. */
function visible(out: Outcome): string {
  if (out.ok) return writeToString(out.value, "write");
  const c = out.condition;
  const irritants = c instanceof Condition ? c.irritants.map((x) => writeToString(x, "write")).join(" ") : "";
  return `${formatRaised(out.error)}\n${c?.message ?? ""}\n${irritants}`;
}

function check(t: any, where: string, src: string, out: Outcome): void {
  const text = visible(out);
  t.notRegex(text, JS_FRAME, `${where}: ${src}`);
  for (const p of HOST_PATHS) t.false(text.includes(p), `${where}: ${src} shows ${p}: ${text}`);
  t.is((globalThis as any).__pwned, undefined, `${where}: ${src}`);
}

test(`${ATTEMPTS.length} escape attempts in an embedder's interpreter: Scheme values or conditions, nothing changed in JS`, async (t) => {
  t.true(ATTEMPTS.length >= 50);
  const before = snapshot();
  const { interp } = makeInterp();
  const limits = { steps: 1_000_000, timeoutMs: 20_000, memoryBytes: 32 * 1024 * 1024 };
  for (const src of ATTEMPTS) {
    const out = await interp.evaluateOutcome(src, { limits });
    check(t, "interpreter", src, out);
  }
  t.deepEqual(snapshot(), before);
  // The interpreter is still whole, and JS objects behave as before.
  t.is(await interp.evaluate("(+ 1 2)"), 3);
  t.is(Object.prototype.toString.call([]), "[object Array]");
  t.false(Object.prototype.hasOwnProperty.call({}, "__proto__"));
  t.is(({} as any).polluted, undefined);
});

test("the same attempts in a model's sandboxed session, whose files and environment are confined", async (t) => {
  const root = mkdtempSync(join(tmpdir(), "nodwyn-escape-"));
  try {
    mkdirSync(join(root, "lib"));
    writeFileSync(join(root, "ok.txt"), "fine\n");
    const before = snapshot();
    const s = await Session.open({ origin: "agent", kind: "agent", cwd: root, root, log: false, env: { HOME: root, PATH: "/usr/bin", SECRET_TOKEN: "s3cr3t-value" }, stdout: { write() {} }, stderr: { write() {} } });
    const limits = { steps: 1_000_000, timeoutMs: 20_000, memoryBytes: 32 * 1024 * 1024 };
    const extra = [
      "(import (nodwyn agent)) (fs-read fs-read)",
      "(import (nodwyn agent)) (fs-read \"../../etc/passwd\")",
      "(import (nodwyn agent)) (fs-read \"/etc/passwd\")",
      "(import (nodwyn agent)) (fs-find 1 2 3 4 5 6 7)",
      "(import (nodwyn agent)) (index-grep index-grep)",
      "(open-input-file \"/etc/passwd\")",
      "(get-environment-variable \"SECRET_TOKEN\")",
      "(exit 7)",
      "(emergency-exit 9)",
      "(load \"/etc/passwd\")",
    ];
    for (const src of [...ATTEMPTS, ...extra]) {
      const out = await s.evaluate(src, { origin: "eval", limits });
      check(t, "session", src, out);
      t.false(visible(out).includes("s3cr3t-value"), src);
    }
    // The host is still here and the session still evaluates.
    const out = await s.evaluate("(* 6 7)", { origin: "eval" });
    t.true(out.ok && out.value === 42);
    s.close();
    t.deepEqual(snapshot(), before);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test("a continuation captured in one evaluation, resumed in a later one, stays within that interpreter", async (t) => {
  const { interp } = makeInterp();
  await interp.evaluate("(define k #f) (define n 0)");
  t.is(await interp.evaluate("(+ 100 (call/cc (lambda (c) (set! k c) 1)))"), 101);
  const out = await interp.evaluateOutcome("(begin (set! n (+ n 1)) (if (< n 3) (k n) 'done))");
  t.true(out.ok || out.condition instanceof Condition);
  t.is(await interp.evaluate("(+ 1 1)"), 2);
});

test("redefining car in one interpreter is not seen by another, nor by the standard library of the first", async (t) => {
  const a = makeInterp();
  const b = makeInterp();
  await a.run("(define (car x) 'mine)");
  t.is(await a.run("(car '(1 2))"), "mine");
  t.is(await a.run("(vector-map (lambda (x) x) #(1 2))"), "#(1 2)");
  t.is(await b.run("(car '(1 2))"), "1");
});

test("host JSON with a \"__proto__\" key maps to Scheme and back as a key, never as a prototype", (t) => {
  const interp: Interpreter = makeInterp().interp;
  const ctx = { symbols: interp.symbols } as any;
  const json = JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}');
  const v = jsonToScheme(ctx, json);
  t.is(writeToString(v), "((__proto__ (polluted . #t)) (constructor (prototype (polluted . #t))))");
  const back = schemeToJson(v) as any;
  t.is(Object.getPrototypeOf(back), Object.prototype);
  t.is(back.polluted, undefined);
  t.is(JSON.stringify(back), '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}');
  t.is(({} as any).polluted, undefined);
});

test("a backtrace through the standard library names its files relative to it (finding 11)", (t) => {
  const r = nodwyn(["--no-log", "-e", "(vector-map 1 2)"]);
  rmSync(r.dataDir, { recursive: true, force: true });
  t.is(r.code, 1, r.stderr);
  t.regex(r.stderr, /\(stdlib\/nodwyn\/prelude\.scm:\d+:\d+\)/);
  t.false(r.stderr.includes(STDLIB_DIR), r.stderr);
  const lib = nodwyn(["--no-log", "-e", "(environment '(no such lib))"]);
  rmSync(lib.dataDir, { recursive: true, force: true });
  t.regex(lib.stderr, /library \(no such lib\) not found \(no no\/such\/lib\.sld in stdlib\/\)/);
  t.false(lib.stderr.includes(INSTALL_DIR), lib.stderr);
});
