// formatRaised: `file:line:col: message: irritants`, never showing an irritant the message already shows.
import test from "ava";
import { formatRaised } from "../../interpreter/api.js";
import { makeInterp } from "../helpers/interp.js";

async function failure(src: string): Promise<string> {
  const { interp } = makeInterp();
  const out = await interp.evaluateOutcome(src, { file: "t.scm" });
  if (out.ok) throw new Error("expected a failure");
  return formatRaised(out.error);
}

test("a syntax error shows its form once", async (t) => {
  t.is(await failure("(if)"), "t.scm:1:1: if: bad syntax: (if)");
  t.is(await failure("\n(let ((x)) x)"), "t.scm:2:1: let: bad binding: (x)");
});

test("an unbound variable is named once", async (t) => {
  t.regex(await failure("(define x (+ 1 undefined-var))"), /^t\.scm:1:\d+: unbound variable: undefined-var$/);
  t.regex(await failure("(set! undefined-var 1)"), /(^|: )set!: unbound variable: undefined-var$/);
});

test("error's irritants follow its message", async (t) => {
  t.regex(await failure('(error "bad thing:" 1 "two" (quote (3)))'), /(^|: )bad thing:: 1 "two" \(3\)$/);
});
