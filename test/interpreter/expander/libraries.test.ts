// define-library and import over real .sld files: name → file, import sets, loading once, and every bad input.
import test from "ava";
import { join } from "node:path";
import { writeTree, libInterp, runProgram } from "./tree.js";
import { makeInterp } from "../../helpers/interp.js";

const ONCE = {
  "lib/once/a.sld": `(define-library (once a)
  (import (scheme base) (scheme write))
  (export a-val)
  (begin (display "loading a;") (define a-val 1)))`,
  "lib/once/b.sld": `(define-library (once b)
  (import (scheme base) (once a))
  (export b-val)
  (begin (define b-val (+ a-val 1))))`,
  "lib/once/c.sld": `(define-library (once c)
  (import (scheme base) (once a))
  (export c-val)
  (begin (define c-val (+ a-val 2))))`,
  "prog.scm": `(import (scheme base) (scheme write) (once b) (once c) (once a))
(write (list a-val b-val c-val))`,
};

test("a library's body runs once per interpreter, however many libraries and programs import it", async (t) => {
  const root = writeTree(ONCE);
  const ti = libInterp(root);
  const r = await runProgram(root, "prog.scm", ti);
  t.true(r.ok, r.error);
  t.is(r.out, "loading a;(1 2 3)");
  // A second program in the same interpreter finds (once a) instantiated already.
  const again = await runProgram(root, "prog.scm", ti);
  t.is(again.out, "(1 2 3)");
  t.is(ti.interp.library("(once a)"), ti.interp.library("(once a)"));
  // Another interpreter instantiates it afresh.
  const other = await runProgram(root, "prog.scm");
  t.is(other.out, "loading a;(1 2 3)");
});

test("a library named (a b c) is the file a/b/c.sld under a library directory; numbers are name parts too", async (t) => {
  const root = writeTree({
    "lib/a/b/c.sld": `(define-library (a b c) (import (scheme base)) (export abc) (begin (define abc 'deep)))`,
    "lib/srfi/9000.sld": `(define-library (srfi 9000) (import (scheme base)) (export nine) (begin (define nine 9000)))`,
    "prog.scm": `(import (scheme base) (scheme write) (a b c) (srfi 9000)) (write (list abc nine))`,
  });
  const r = await runProgram(root, "prog.scm");
  t.is(r.out, "(deep 9000)", r.error);
});

test("import sets nest only, except, prefix and rename; export renames", async (t) => {
  const root = writeTree({
    "lib/sets/m.sld": `(define-library (sets m)
  (import (scheme base))
  (export one two three (rename internal-four four))
  (begin (define one 1) (define two 2) (define three 3) (define internal-four 4)))`,
    "prog.scm": `(import (scheme base) (scheme write)
  (rename (prefix (except (sets m) two) m:) (m:one uno))
  (only (prefix (sets m) q-) q-two q-four))
(write (list uno m:three m:four q-two q-four))`,
    "bad-only.scm": `(import (scheme base) (only (sets m) internal-four))`,
    "bad-except.scm": `(import (scheme base) (except (sets m) five))`,
    "bad-rename.scm": `(import (scheme base) (rename (sets m) (five cinq)))`,
    "unprefixed.scm": `(import (scheme base) (prefix (sets m) m:)) one`,
  });
  const r = await runProgram(root, "prog.scm");
  t.is(r.out, "(1 3 4 2 4)", r.error);
  t.regex((await runProgram(root, "bad-only.scm")).error, /only: 'internal-four' is not exported/);
  t.regex((await runProgram(root, "bad-except.scm")).error, /except: 'five' is not exported/);
  t.regex((await runProgram(root, "bad-rename.scm")).error, /rename: 'five' is not exported/);
  t.regex((await runProgram(root, "unprefixed.scm")).error, /unbound variable: one/);
});

test("an imported variable is the library's own location: importers see its assignments and cannot assign it", async (t) => {
  const root = writeTree({
    "lib/counter.sld": `(define-library (counter)
  (import (scheme base))
  (export count bump!)
  (begin (define count 0) (define (bump!) (set! count (+ count 1)))))`,
    "prog.scm": `(import (scheme base) (scheme write) (counter)) (bump!) (bump!) (write count)`,
    "assign.scm": `(import (scheme base) (counter))\n(set! count 10)`,
  });
  t.is((await runProgram(root, "prog.scm")).out, "2");
  const bad = await runProgram(root, "assign.scm");
  t.is(bad.outcome.ok ? null : bad.outcome.condition?.kind, "syntax");
  t.regex(bad.error, /assign\.scm:2:1: set!: cannot assign 'count', which is imported/);
});

test("a library may re-export what it imports, and the binding stays the same one", async (t) => {
  const root = writeTree({
    "lib/re/inner.sld": `(define-library (re inner) (import (scheme base)) (export v) (begin (define v (list 'v))))`,
    "lib/re/outer.sld": `(define-library (re outer) (import (re inner)) (export v))`,
    "prog.scm": `(import (scheme base) (scheme write) (re outer) (prefix (re inner) i:)) (write (eq? v i:v))`,
  });
  t.is((await runProgram(root, "prog.scm")).out, "#t");
});

test("a program may define a library before importing it", async (t) => {
  const root = writeTree({
    "prog.scm": `(define-library (local tools)
  (import (scheme base))
  (export triple)
  (begin (define (triple x) (* 3 x))))
(import (scheme base) (scheme write) (local tools))
(write (triple 14))`,
  });
  t.is((await runProgram(root, "prog.scm")).out, "42");
});

// ---- bad input: each error names the library or its file, points into the file, and leaves nothing half-loaded.

/** Runs `(import (scheme base) <spec>)` in interpreter `ti` and returns the condition (failing when it succeeds). */
async function importFailure(ti: ReturnType<typeof libInterp>, spec: string) {
  const out = await ti.interp.evaluateOutcome(`(import ${spec})`, { file: "importer.scm" });
  if (out.ok) throw new Error(`importing ${spec} succeeded`);
  const c = out.condition;
  if (!c) throw new Error("no condition");
  return c;
}

test("a circular import names the cycle and points at the import that closes it; fixed, it loads", async (t) => {
  const root = writeTree({
    "lib/cyc/x.sld": `(define-library (cyc x)\n  (import (scheme base) (cyc y))\n  (export x)\n  (begin (define x (+ y 1))))`,
    "lib/cyc/y.sld": `(define-library (cyc y)\n  (import (scheme base) (cyc x))\n  (export y)\n  (begin (define y 1)))`,
  });
  const ti = libInterp(root);
  const c = await importFailure(ti, "(cyc x)");
  t.is(c.kind, "syntax");
  t.regex(c.message, /^circular import: \(cyc x\) -> \(cyc y\) -> \(cyc x\)/);
  t.is(c.loc?.file, join(root, "lib/cyc/y.sld"));
  t.is(c.loc?.line, 2);
  // The same import fails the same way again: nothing was left registered or marked as loading.
  t.regex((await importFailure(ti, "(cyc x)")).message, /^circular import/);
  writeTree({ "lib/cyc/y.sld": `(define-library (cyc y) (import (scheme base)) (export y) (begin (define y 1)))` }, root);
  t.is(await ti.run("(import (cyc x)) x"), "2");
});

test("a missing library is reported with the file looked for and the search path; once it exists, it loads", async (t) => {
  const root = writeTree({});
  const ti = libInterp(root);
  const c = await importFailure(ti, "(no such lib)");
  t.is(c.kind, "syntax");
  t.is(c.loc?.file, "importer.scm");
  t.true(c.message.startsWith("library (no such lib) not found (no no/such/lib.sld in "), c.message);
  t.true(c.message.includes(join(root, "lib")), c.message);
  writeTree({ "lib/no/such/lib.sld": `(define-library (no such lib) (import (scheme base)) (export here) (begin (define here 'now)))` }, root);
  t.is(await ti.run("(import (no such lib)) here"), "now");
});

test("a library name part that would leave the library directory is not looked up", async (t) => {
  const root = writeTree({ "secret.sld": `(define-library (.. secret) (export) (begin (error "must not load")))` });
  const ti = makeInterp({ libraryPaths: [join(root, "lib")] });
  const c = await importFailure(ti, "(.. secret)");
  t.regex(c.message, /library \(\.\. secret\) not found \(a library name part that names a file cannot be '\.', '\.\.'/);
});

test("exporting a name the library does not define names the library and the export; fixed, it loads", async (t) => {
  const root = writeTree({
    "lib/bad/exp.sld": `(define-library (bad exp)\n  (import (scheme base) (scheme write))\n  (export defined undefined-thing)\n  (begin (display "body;") (define defined 1)))`,
  });
  const ti = libInterp(root);
  const c = await importFailure(ti, "(bad exp)");
  t.is(c.message, "(bad exp) exports 'undefined-thing', which it does not define: undefined-thing");
  t.is(c.loc?.file, join(root, "lib/bad/exp.sld"));
  t.is(c.loc?.line, 3);
  // Not registered: a second import loads (and fails) again rather than handing out the broken library.
  await importFailure(ti, "(bad exp)");
  t.is(ti.out(), "body;body;");
  writeTree({ "lib/bad/exp.sld": `(define-library (bad exp) (import (scheme base)) (export defined) (begin (define defined 1)))` }, root);
  t.is(await ti.run("(import (bad exp)) defined"), "1");
});

test("exporting two bindings under one name is an error", async (t) => {
  const root = writeTree({
    "lib/bad/twice.sld": `(define-library (bad twice)\n  (import (scheme base))\n  (export (rename a b)\n          (rename c b))\n  (begin (define a 1) (define c 2)))`,
  });
  const c = await importFailure(libInterp(root), "(bad twice)");
  t.is(c.message, "(bad twice) exports 'b' twice, with different bindings: (rename c b)");
  t.is(c.loc?.file, join(root, "lib/bad/twice.sld"));
});

test("defining an imported name is an error in a library and in a program; fixed, the library loads", async (t) => {
  const root = writeTree({
    "lib/bad/dup.sld": `(define-library (bad dup)\n  (import (scheme base))\n  (export x)\n  (begin (define x 1)\n         (define car 2)))`,
    "lib/bad/dupsyntax.sld": `(define-library (bad dupsyntax)\n  (import (scheme base))\n  (export)\n  (begin (define-syntax when (syntax-rules () ((_ x) x)))))`,
    "prog.scm": `(import (scheme base))\n\n(define car 5)`,
  });
  const ti = libInterp(root);
  const c = await importFailure(ti, "(bad dup)");
  t.is(c.message, "definition of 'car', which is imported: (define car 2)");
  t.is(c.loc?.file, join(root, "lib/bad/dup.sld"));
  t.is(c.loc?.line, 5);
  const s = await importFailure(ti, "(bad dupsyntax)");
  t.regex(s.message, /^definition of 'when', which is imported/);
  t.is(s.loc?.line, 4);
  const p = await runProgram(root, "prog.scm");
  t.is(p.error, `${join(root, "prog.scm")}:3:1: definition of 'car', which is imported: (define car 5)`);
  writeTree({ "lib/bad/dup.sld": `(define-library (bad dup) (import (scheme base)) (export x) (begin (define x 1)))` }, root);
  t.is(await ti.run("(import (bad dup)) x"), "1");
});

test("importing one name from two libraries with different bindings is an error", async (t) => {
  const root = writeTree({
    "lib/one.sld": `(define-library (one) (import (scheme base)) (export thing) (begin (define thing 1)))`,
    "lib/two.sld": `(define-library (two) (import (scheme base)) (export thing) (begin (define thing 2)))`,
    "prog.scm": `(import (scheme base) (one)\n        (two))`,
  });
  const r = await runProgram(root, "prog.scm");
  t.regex(r.error, /prog\.scm:1:1: 'thing' is imported twice with different bindings/);
});

test("an unbalanced define-library is a read error in its file; fixed, it loads", async (t) => {
  const root = writeTree({
    "lib/bad/unbal.sld": `(define-library (bad unbal)\n  (import (scheme base))\n  (export x)\n  (begin (define x 1))\n`,
  });
  const ti = libInterp(root);
  const c = await importFailure(ti, "(bad unbal)");
  t.is(c.kind, "read");
  t.is(c.loc?.file, join(root, "lib/bad/unbal.sld"));
  t.regex(c.message, /expected '\)' to close the list opened at 1:1/);
  writeTree({ "lib/bad/unbal.sld": `(define-library (bad unbal) (import (scheme base)) (export x) (begin (define x 1)))` }, root);
  t.is(await ti.run("(import (bad unbal)) x"), "1");
});

test("malformed define-library forms are syntax errors pointing into their file", async (t) => {
  const cases: [string, string, RegExp, number][] = [
    ["m1", `(define-library (mal m1)\n  (import (scheme base))\n  (exprt x))`, /define-library: unknown declaration 'exprt'/, 3],
    ["m2", `(define-library (mal m2)\n  (import (scheme base))\n  (export (rename a))\n  (begin (define a 1)))`, /\(mal m2\): bad export spec: \(rename a\)/, 3],
    ["m3", `(define-library (mal m3)\n  (begin . 5))`, /define-library: bad declaration/, 2],
    ["m4", `(define-library (mal m4) (import (scheme base)) (export a) (begin (define a 1)) . 5)`, /define-library: expected a proper list of declarations/, 1],
    ["m5", `\n(define-library (mal m5) 5)`, /define-library: bad declaration: 5/, 2],
    ["m6", `(define-library (mal m6)\n  (import (scheme base))\n  (include 5))`, /include: expected a file name/, 3],
  ];
  const root = writeTree(Object.fromEntries(cases.map(([n, text]) => [`lib/mal/${n}.sld`, text])));
  const ti = libInterp(root);
  for (const [n, , re, line] of cases) {
    const c = await importFailure(ti, `(mal ${n})`);
    t.is(c.kind, "syntax", n);
    t.regex(c.message, re, n);
    t.is(c.loc?.file, join(root, `lib/mal/${n}.sld`), n);
    t.is(c.loc?.line, line, n);
  }
});

test("a file that does not define the library it is named for names the file", async (t) => {
  const root = writeTree({
    "lib/bad/other.sld": `(define-library (bad something-else) (import (scheme base)) (export x) (begin (define x 1)))`,
    "lib/bad/none.sld": `(define x 1)`,
  });
  const ti = libInterp(root);
  t.is((await importFailure(ti, "(bad other)")).message, `${join(root, "lib/bad/other.sld")} does not define library (bad other): (bad other)`);
  t.is((await importFailure(ti, "(bad none)")).message, `${join(root, "lib/bad/none.sld")} does not define library (bad none): (bad none)`);
});

test("a library whose body fails is not registered; the libraries it loaded stay loaded once", async (t) => {
  const root = writeTree({
    ...ONCE,
    "lib/rt/boom.sld": `(define-library (rt boom)\n  (import (scheme base) (once a))\n  (export x)\n  (begin\n    (define x (car '()))))`,
  });
  const ti = libInterp(root);
  const c = await importFailure(ti, "(rt boom)");
  t.regex(c.message, /bad argument #1 to 'car'/);
  t.is(c.loc?.file, join(root, "lib/rt/boom.sld"));
  t.is(c.loc?.line, 5);
  writeTree({ "lib/rt/boom.sld": `(define-library (rt boom) (import (scheme base) (once a)) (export x) (begin (define x (+ a-val 41))))` }, root);
  t.is(await ti.run("(import (rt boom)) x"), "42");
  t.is(ti.out(), "loading a;");
});

// ---- include, include-ci and cond-expand

test("include and include-ci read files relative to the including file, also from a library and nested", async (t) => {
  const root = writeTree({
    "src/main.scm": `(import (scheme base) (scheme write) (inc l))
(include "sub/part.scm")
(include-ci "sub/SHOUT.scm")
(write (list part-val deeper-val shout-val l-val l-more l-ci))`,
    "src/sub/part.scm": `(define part-val 1)\n(include "deeper.scm")`,
    "src/sub/deeper.scm": `(define deeper-val 2)`,
    "src/sub/SHOUT.scm": `(DEFINE SHOUT-VAL 'ShOuT)`,
    "lib/inc/l.sld": `(define-library (inc l)
  (include-library-declarations "parts/decls.scm")
  (include "parts/body.scm")
  (include-ci "parts/ci.scm"))`,
    "lib/inc/parts/decls.scm": `(import (scheme base))\n(export l-val l-more l-ci)`,
    "lib/inc/parts/body.scm": `(define l-val 3)\n(include "more.scm")`,
    "lib/inc/parts/more.scm": `(define l-more 4)`,
    "lib/inc/parts/ci.scm": `(DEFINE L-CI 5)`,
  });
  const r = await runProgram(root, "src/main.scm");
  t.is(r.out, "(1 2 shout 3 4 5)", r.error);
});

test("an include of a missing file is a file error at the include", async (t) => {
  const root = writeTree({ "prog.scm": `(import (scheme base))\n\n(include "nowhere.scm")` });
  const r = await runProgram(root, "prog.scm");
  t.is(r.outcome.ok ? null : r.outcome.condition?.kind, "file");
  t.regex(r.error, /prog\.scm:3:1: include: cannot read nowhere\.scm/);
});

test("cond-expand: and, or, not, library, else and the features, in programs, bodies and library declarations", async (t) => {
  const root = writeTree({
    "lib/ce/lib.sld": `(define-library (ce lib)
  (import (scheme base))
  (export which)
  (cond-expand
    ((not nodwyn) (begin (define which 'other)))
    ((and r7rs (library (scheme base))) (begin (define which 'nodwyn-r7rs)))))`,
    "prog.scm": `(import (scheme base) (scheme write) (ce lib))
(define out '())
(define (note x) (set! out (cons x out)))
(cond-expand ((and r7rs (not no-such-feature)) (note 'and-not)) (else (note 'wrong)))
(cond-expand ((or no-such-feature nodwyn) (note 'or)))
(cond-expand ((library (scheme base)) (note 'library)))
(cond-expand ((library (no such library)) (note 'wrong)) (else (note 'else)))
(cond-expand ((and exact-closed ratios full-unicode) (note 'numbers-and-unicode)))
(cond-expand ((or linux darwin windows) (note 'platform)))
(define (in-body) (cond-expand (nodwyn 'in-body) (else 'wrong)))
(note (in-body))
(note which)
(write (reverse out))`,
  });
  const r = await runProgram(root, "prog.scm");
  t.is(r.out, "(and-not or library else numbers-and-unicode platform in-body nodwyn-r7rs)", r.error);
});

test("features lists the cond-expand features, exact-complex included", async (t) => {
  const { run } = makeInterp();
  const fs = (await run("(features)")).slice(1, -1).split(" ");
  for (const f of ["r7rs", "exact-closed", "exact-complex", "ratios", "exact-integer", "full-unicode", "nodwyn"]) t.true(fs.includes(f), f);
  t.is(await run("(cond-expand (exact-complex 'complex) (else 'real-only))"), "complex");
});
