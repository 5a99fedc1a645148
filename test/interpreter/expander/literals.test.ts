// syntax-rules literals (R7RS §4.3.2): which pattern identifiers are literals, and the ellipsis among them.
import test from "ava";
import { makeInterp } from "../../helpers/interp.js";

// §4.3.2: "If <ellipsis> is specified [and] it appears in <literal>s, it is matched
// as a literal" — an identifier that is both the ellipsis and a literal is a literal.
test("an ellipsis identifier listed among the literals is a literal, in patterns and in templates", async (t) => {
  const { run } = makeInterp();
  // The custom ellipsis is `...` itself, and `...` is a literal: (x ...) is a two-element list.
  await run("(define-syntax lit-dots (syntax-rules ... (...) ((_ x) '(x ...))))");
  t.is(await run("(lit-dots 100)"), "(100 ...)");
  // The same with the default ellipsis: `...` listed as a literal is matched as one.
  await run("(define-syntax dots? (syntax-rules (...) ((_ ...) 'dots) ((_ x) 'other)))");
  t.is(await run("(list (dots? ...) (dots? 1))"), "(dots other)");
  // A custom ellipsis that is also a literal: matched literally, and only by itself.
  await run("(define-syntax colons (syntax-rules ::: (:::) ((_ a :::) '(a :::)) ((_ a b) '(b a))))");
  t.is(await run("(list (colons 1 :::) (colons 1 2))"), "((1 :::) (2 1))");
  // Elsewhere the custom ellipsis still repeats, and `...` is an ordinary identifier.
  await run("(define-syntax my-list (syntax-rules ::: () ((_ (a ...) :::) '((a ...) :::))))");
  t.is(await run("(my-list (1 ...) (2 ...))"), "((1 ...) (2 ...))");
});

// §4.3.2: a pattern identifier is a literal when it is one of the <literal>s.
// Identifiers a macro inserts are renamed (§4.3), so a pattern variable that a
// template substituted into a syntax-rules is a different identifier from a
// literal of the same name the template itself wrote (bound-identifier=?, not
// free-identifier=?).
test("a pattern variable substituted into a template's syntax-rules is not the template's literal of the same name", async (t) => {
  const { run } = makeInterp();
  await run(`(define-syntax outer
  (syntax-rules ()
    ((_ x)
     (let-syntax ((inner (syntax-rules (k)
                           ((_ x) 'pattern-variable)
                           ((_ y) 'literal))))
       (inner z)))))`);
  // x is the user's k: in inner's first pattern it is not inner's literal k, so it matches z.
  t.is(await run("(outer k)"), "pattern-variable");
  t.is(await run("(outer j)"), "pattern-variable");
  // The same in let-syntax, with nothing at the top level.
  t.is(
    await run(`(let-syntax ((m (syntax-rules ()
                    ((_ x) (let-syntax ((n (syntax-rules (k) ((_ x) 'bound) ((_ y) 'free)))) (n z))))))
  (m k))`),
    "bound",
  );
  // A literal the user passes in both places is still a literal: matched by binding (free-identifier=?).
  await run(`(define-syntax make-is
  (syntax-rules ()
    ((_ name lit) (define-syntax name (syntax-rules (lit) ((_ lit) 'yes) ((_ other) 'no))))))`);
  await run("(make-is is-stop? stop)");
  t.is(await run("(list (is-stop? stop) (is-stop? go) (let ((stop 1)) (is-stop? stop)))"), "(yes no no)");
});

// The shape of a pattern matcher's variable extraction (chibi's portable
// `match`, `match-letrec`): continuation-passing macros collect each new pattern
// variable with a fresh temporary, and a let-syntax inside a template whose
// literals are the variables seen so far decides whether the next identifier is
// new. When the patterns themselves were rewritten to the temporaries, the
// literals are temporaries from earlier expansions: same name, different
// identifiers (§4.3: each expansion renames what it inserts), so each later
// temporary is new and gets bound.
test("temporaries from separate expansions stay distinct as literals of a let-syntax in a template", async (t) => {
  const { run } = makeInterp();
  await run(`(define-syntax fresh-temps   ; (fresh-temps (v ...) () k) => (k ((v tmp) ...)), one tmp per expansion
  (syntax-rules ()
    ((_ () acc k) (k acc))
    ((_ (v . vs) (a ...) k) (fresh-temps vs (a ... (v tmp)) k))))`);
  await run(`(define-syntax second-new?   ; is the second temporary new, given the first as a literal?
  (syntax-rules ()
    ((_ ((v1 t1) (v2 t2)))
     (let-syntax ((new? (syntax-rules (t1) ((_ t2) 'new) ((_ other) 'seen))))
       (new? anything)))))`);
  t.is(await run("(fresh-temps (a b) () second-new?)"), "new");

  // The whole pattern: collect the distinct identifiers of a tree, each once.
  await run(`(define-syntax collect-ids   ; (collect-ids tree (seen ...) k) => (k (id ...)), without repeats
  (syntax-rules ()
    ((_ (a . d) seen k) (collect-ids a seen (collect-ids-rest d k)))
    ((_ () seen (k ...)) (k ... seen))
    ((_ x (seen ...) (k ...))
     (let-syntax ((new? (syntax-rules (seen ...) ((_ x yes no) yes) ((_ other yes no) no))))
       (new? probe (k ... (seen ... x)) (k ... (seen ...)))))))`);
  await run(`(define-syntax collect-ids-rest
  (syntax-rules () ((_ d k seen) (collect-ids d seen k))))`);
  await run("(define-syntax quote-all (syntax-rules () ((_ ids) 'ids)))");
  t.is(await run("(collect-ids (a (b a) (c (b d))) () (quote-all))"), "(a b c d)");
  // Then bind every one to a temporary of its own and rewrite the tree to the
  // temporaries: the temporaries are the literals of the next round.
  await run(`(define-syntax bind-temps   ; binds a fresh temporary per id, then lists them through a second collection
  (syntax-rules ()
    ((_ ids) (fresh-temps ids () bind-temps-2))))`);
  await run(`(define-syntax bind-temps-2
  (syntax-rules ()
    ((_ ((v t) ...)) (let ((t 'v) ...) (collect-ids (t ...) () (list-values))))))`);
  await run("(define-syntax list-values (syntax-rules () ((_ (t ...)) (list t ...))))");
  t.is(await run("(bind-temps (p q r))"), "(p q r)");
});
