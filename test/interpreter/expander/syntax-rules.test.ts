// syntax-rules patterns and templates (R7RS §4.3.2): ellipsis depth, tails, vectors, escapes, custom ellipsis, literals.
import test from "ava";
import { makeInterp } from "../../helpers/interp.js";

/** Defines `macro` (a define-syntax form) in a fresh REPL and returns the write text of each use. */
async function expand(macro: string, ...uses: string[]): Promise<string[]> {
  const { run } = makeInterp();
  await run(macro);
  const out: string[] = [];
  for (const u of uses) out.push(await run(u));
  return out;
}

test("two levels of ellipsis: flattening with ... ... and keeping the groups", async (t) => {
  t.deepEqual(await expand("(define-syntax flat (syntax-rules () ((_ (a ...) ...) '(a ... ...))))", "(flat (1 2) () (3))", "(flat)"), ["(1 2 3)", "()"]);
  t.deepEqual(await expand("(define-syntax groups (syntax-rules () ((_ (k v ...) ...) '((k v ...) ...))))", "(groups (a 1 2) (b) (c 3))"), [
    "((a 1 2) (b) (c 3))",
  ]);
  // A depth-0 variable used inside depth-2 repetition is repeated.
  t.deepEqual(await expand("(define-syntax mix (syntax-rules () ((_ x (y ...) ...) '((x . y) ... ...))))", "(mix 0 (1 2) (3))"), [
    "((0 . 1) (0 . 2) (0 . 3))",
  ]);
});

test("three levels of ellipsis, kept, partly flattened and fully flattened", async (t) => {
  const macro = `(define-syntax d3 (syntax-rules (keep half flat wrap)
    ((_ keep ((a ...) ...) ...) '(((a ...) ...) ...))
    ((_ half ((a ...) ...) ...) '((a ... ...) ...))
    ((_ flat ((a ...) ...) ...) '(a ... ... ...))
    ((_ wrap ((a ...) ...) ...) '(((a 0) ...) ... ...))))`;
  t.deepEqual(
    await expand(
      macro,
      "(d3 keep ((1 2) (3)) ((4) (5 6)))",
      "(d3 half ((1 2) (3)) ((4) (5 6)))",
      "(d3 flat ((1 2) (3)) ((4) (5 6)))",
      "(d3 wrap ((1 2) (3)) ((4)))",
    ),
    ["(((1 2) (3)) ((4) (5 6)))", "((1 2 3) (4 5 6))", "(1 2 3 4 5 6)", "(((1 0) (2 0)) ((3 0)) ((4 0)))"],
  );
});

test("an identifier not listed as a literal is a pattern variable, so the first clause matches any keyword there", async (t) => {
  t.deepEqual(
    await expand(
      "(define-syntax pick (syntax-rules () ((_ keep x) 'first) ((_ half x) 'second) ((_ y x) 'other)))",
      "(pick keep 1)",
      "(pick half 1)",
    ),
    ["first", "first"],
  );
});

test("an ellipsis may be followed by more patterns and by a dotted tail", async (t) => {
  t.deepEqual(
    await expand(
      "(define-syntax tail (syntax-rules () ((_ a ... b c . r) '((a ...) b c r))))",
      "(tail 1 2 3 4 . 5)",
      "(tail 1 2)",
      "(tail 1 2 3)",
    ),
    ["((1 2) 3 4 5)", "(() 1 2 ())", "((1) 2 3 ())"],
  );
  t.deepEqual(await expand("(define-syntax rest (syntax-rules () ((_ a ... . r) '((a ...) r))))", "(rest 1 2 . 3)", "(rest 1 2)", "(rest . 7)"), [
    "((1 2) 3)",
    "((1 2) ())",
    "(() 7)",
  ]);
  t.deepEqual(await expand("(define-syntax mid (syntax-rules () ((_ a ... z) '(z a ...))))", "(mid 1 2 3)", "(mid 1)"), ["(3 1 2)", "(1)"]);
  // Dotted tails under an ellipsis.
  t.deepEqual(await expand("(define-syntax dt (syntax-rules () ((_ (a ... . r) ...) '((r a ...) ...))))", "(dt (1 2 . 3) (4) ())"), [
    "((3 1 2) (() 4) (()))",
  ]);
});

test("a proper-list pattern does not match an improper use, nor too few elements", async (t) => {
  const { run } = makeInterp();
  await run("(define-syntax two+ (syntax-rules () ((_ a b c ...) 'ok)))");
  t.is(await run("(two+ 1 2)"), "ok");
  await t.throwsAsync(run("(two+ 1)"), { message: /no rule of macro 'two\+' matches/ });
  await t.throwsAsync(run("(two+ 1 2 . 3)"), { message: /no rule of macro 'two\+' matches/ });
});

test("vector patterns, with an ellipsis and elements after it, and vector templates", async (t) => {
  t.deepEqual(await expand("(define-syntax vec (syntax-rules () ((_ #(a ... z)) '(z a ...))))", "(vec #(1 2 3))", "(vec #(1))"), ["(3 1 2)", "(1)"]);
  t.deepEqual(await expand("(define-syntax swap (syntax-rules () ((_ #((k v) ...)) '#((v . k) ...))))", "(swap #((a 1) (b 2)))"), [
    "#((1 . a) (2 . b))",
  ]);
  t.deepEqual(await expand("(define-syntax vv (syntax-rules () ((_ #(a ...) ...) '#(#(a ...) ... a ... ...))))", "(vv #(1 2) #(3))"), [
    "#(#(1 2) #(3) 1 2 3)",
  ]);
  const { run } = makeInterp();
  await run("(define-syntax vec1 (syntax-rules () ((_ #(a)) 'one)))");
  await t.throwsAsync(run("(vec1 (1))"), { message: /no rule of macro 'vec1' matches/ });
  await t.throwsAsync(run("(vec1 #(1 2))"), { message: /no rule of macro 'vec1' matches/ });
});

test("(... ...) inserts a literal ellipsis, and (... template) takes a whole template literally", async (t) => {
  t.deepEqual(await expand("(define-syntax esc (syntax-rules () ((_ a ...) '((a (... ...)) ...))))", "(esc 1 2)"), ["((1 ...) (2 ...))"]);
  t.deepEqual(await expand("(define-syntax esc2 (syntax-rules () ((_ a) '(... (a ...)))))", "(esc2 1)"), ["(1 ...)"]);
  // The R7RS example: a macro-defining macro whose inner macro uses an ellipsis.
  const { run } = makeInterp();
  await run(`(define-syntax be-like-begin
  (syntax-rules ()
    ((_ name) (define-syntax name (syntax-rules () ((name expr (... ...)) (begin expr (... ...))))))))`);
  await run("(be-like-begin sequence)");
  t.is(await run("(sequence 1 2 3 4)"), "4");
});

test("a custom ellipsis identifier replaces ..., which then is an ordinary identifier", async (t) => {
  t.deepEqual(await expand("(define-syntax ce (syntax-rules ::: () ((_ (a ...) :::) '((a ...) :::))))", "(ce (1 ...) (2 ...))"), [
    "((1 ...) (2 ...))",
  ]);
  t.deepEqual(await expand("(define-syntax ce2 (syntax-rules ::: () ((_ a :::) '(a ::: ...))))", "(ce2 1 2)"), ["(1 2 ...)"]);
  // Useful inside a macro-defining macro: the inner macro's ellipsis needs no escaping.
  const { run } = makeInterp();
  await run(`(define-syntax def-lister
  (syntax-rules ()
    ((_ name) (define-syntax name (syntax-rules ::: () ((_ x :::) (list 'x :::)))))))`);
  await run("(def-lister names)");
  t.is(await run("(names a b c)"), "(a b c)");
});

test("literals, _ and ... as a literal", async (t) => {
  t.deepEqual(await expand("(define-syntax arrow (syntax-rules (=>) ((_ a => b) '(arrow a b)) ((_ a b c) '(plain a b c))))", "(arrow 1 => 2)", "(arrow 1 -> 2)"), [
    "(arrow 1 2)",
    "(plain 1 -> 2)",
  ]);
  t.deepEqual(await expand("(define-syntax second (syntax-rules () ((_ _ x) 'x)))", "(second 1 2)"), ["2"]);
  t.deepEqual(await expand("(define-syntax dots (syntax-rules ::: (...) ((_ ...) 'dots) ((_ x) 'other)))", "(dots ...)", "(dots 5)"), ["dots", "other"]);
  t.deepEqual(
    await expand(
      "(define-syntax kind (syntax-rules () ((_ 1) 'one) ((_ \"s\") 'str) ((_ #\\c) 'chr) ((_ #t) 'true) ((_ y) 'other)))",
      "(kind 1)",
      '(kind "s")',
      "(kind #\\c)",
      "(kind #t)",
      "(kind 2)",
    ),
    ["one", "str", "chr", "true", "other"],
  );
});

test("a template variable with too few ellipses, or an ellipsis over no variable, is a syntax error naming the macro", async (t) => {
  const { run } = makeInterp();
  await run("(define-syntax few (syntax-rules () ((_ a ...) '(a))))");
  await t.throwsAsync(run("(few 1 2)"), { message: /macro 'few': pattern variable used without enough ellipses/ });
  await run("(define-syntax many (syntax-rules () ((_ a) '(a ...))))");
  await t.throwsAsync(run("(many 1)"), { message: /macro 'many': no pattern variable with an ellipsis in this template/ });
  await run("(define-syntax uneven (syntax-rules () ((_ (a ...) (b ...)) '((a b) ...))))");
  await t.throwsAsync(run("(uneven (1 2) (3))"), { message: /macro 'uneven': pattern variables under one ellipsis matched different lengths/ });
  t.is(await run("(uneven (1 2) (3 4))"), "((1 3) (2 4))");
});
