// A runnable tour of the embedding API: `npx tsc -p . && node dist/examples/embed.js` (docs/guides/embedding.md).
//
// Each step prints one or more lines starting with its number, so a reader (and
// test/examples/embed.test.ts) can follow what the host did and what came back.

import { inspect } from "node:util";
import {
  createNodeInterpreter,
  EvalError,
  MString,
  Procedure,
  T,
  backtraceOf,
  formatLoc,
  writeToString,
  type Interpreter,
  type ProcSpec,
} from "../host/session/embed.js";

const show = (v: unknown) => writeToString(v, "write");

/** A procedure declared as a table entry: params name the arguments, types check them before impl runs. */
const wordCount: ProcSpec = {
  name: "word-count",
  params: ["text", "[min-length]"],
  types: [T.string, T.index],
  doc: "The number of words of text (runs of non-space characters) at least min-length (default 1) characters long.",
  impl(text: MString, minLength?: number) {
    const min = minLength ?? 1;
    return text
      .toString()
      .split(/\s+/)
      .filter((w) => w.length >= min && w.length > 0).length;
  },
};

/** An asynchronous procedure: impl returns a Promise, and the evaluation waits for it without blocking Node. */
const fetchGreeting: ProcSpec = {
  name: "fetch-greeting",
  params: ["name"],
  types: [T.string],
  async: true,
  doc: "A greeting for name, after a short wait (a stand-in for a network call).",
  impl: async (name: MString) => {
    await new Promise((resolve) => setTimeout(resolve, 10));
    return new MString(`hello, ${name.toString()}`);
  },
};

/** "kind (code): message" of a failed evaluation, for the limit lines. */
async function failure(interp: Interpreter, source: string, limits: Parameters<Interpreter["evaluate"]>[1]): Promise<string> {
  const out = await interp.evaluateOutcome(source, limits);
  if (out.ok) return `no failure: ${show(out.value)}`;
  const c = out.condition;
  return c === null ? `raised ${show(out.error)}` : `${c.kind} (${c.code ?? "-"}): ${c.message}`;
}

async function main(): Promise<void> {
  // 1. An interpreter owns everything it uses; console output goes where the host says.
  let printed = "";
  const interp = createNodeInterpreter({ stdout: { write: (c) => void (printed += typeof c === "string" ? c : Buffer.from(c).toString("utf8")) } });
  const v = await interp.evaluate('(display "hi from Scheme") (+ 1 2)');
  console.log(`1. evaluate: (+ 1 2) => ${show(v)}; Scheme printed ${JSON.stringify(printed)}`);

  // 2. A synchronous procedure from a table entry; a bad argument is reported by the registration layer.
  interp.define(wordCount);
  console.log(`2. word-count: ${show(interp.evaluateSync('(word-count "the quick brown fox jumps" 5)'))}`);
  try {
    interp.evaluateSync("(word-count 42)", { file: "words.scm" });
  } catch (e) {
    if (!(e instanceof EvalError)) throw e;
    console.log(`2. bad argument: ${e.message}`);
  }

  // 3. An asynchronous procedure, used like any other; evaluateSync refuses it.
  interp.define(fetchGreeting);
  console.log(`3. fetch-greeting: ${show(await interp.evaluate('(string-append (fetch-greeting "ada") "!")'))}`);
  const sync = interp.evaluateSyncOutcome('(fetch-greeting "ada")');
  console.log(`3. in evaluateSync: ${sync.ok ? "ran" : `refused: ${sync.condition?.code}: ${sync.condition?.message}`}`);

  // 4. Limits end an evaluation with a `limit` condition that Scheme handlers cannot catch.
  const loop = "(let loop ((i 0)) (loop (+ i 1)))";
  console.log(`4. steps: ${await failure(interp, loop, { limits: { steps: 100_000 } })}`);
  console.log(`4. timeout: ${await failure(interp, loop, { limits: { timeoutMs: 50 } })}`);
  const ac = new AbortController();
  setTimeout(() => ac.abort(), 30);
  console.log(`4. abort: ${await failure(interp, loop, { limits: { signal: ac.signal } })}`);
  console.log(`4. guard cannot catch it: ${await failure(interp, `(guard (e (#t 'caught)) ${loop})`, { limits: { steps: 100_000 } })}`);
  console.log(`4. still usable: (* 6 7) => ${show(await interp.evaluate("(* 6 7)"))}`);

  // 5. Values across the boundary are converted explicitly, both ways.
  const fromScheme = await interp.evaluate("(list 1 2.5 \"three\" 'four (vector #t #f) (expt 2 70))");
  console.log(`5. toJS: ${inspect(interp.toJS(fromScheme), { breakLength: Infinity })}`);
  const config = interp.fromJS({ name: "nodwyn", tags: ["scheme", "agents"], version: 1 });
  console.log(`5. fromJS: ${show(config)}`);
  interp.defineValue("config", config);
  console.log(`5. Scheme reads it: ${show(await interp.evaluate("(vector-ref (cdr (assq 'tags config)) 1)"))}`);

  // 6. Calling a Scheme procedure from TypeScript.
  await interp.evaluate("(define (describe name n) (string-append name \" has \" (number->string n) \" words\"))");
  const describe = interp.lookup("describe") as Procedure;
  const r = await interp.call(describe, [interp.fromJS("the title"), interp.fromJS(2)]);
  console.log(`6. call: ${JSON.stringify(interp.toJS(r))}`);

  // 7. An uncaught error is an EvalError holding the condition: kind, message, irritants, location, backtrace.
  try {
    await interp.evaluate("(define (first-word s)\n  (car s))\n(first-word 42)", { file: "script.scm" });
  } catch (e) {
    if (!(e instanceof EvalError) || e.condition === null) throw e;
    const c = e.condition;
    console.log(`7. error: ${e.message}`);
    console.log(`7. kind ${c.kind}, at ${formatLoc(c.loc)}, irritants ${c.irritants.map(show).join(" ")}`);
    const frames = backtraceOf(c).map((f) => `${f.name}${f.loc ? ` (${formatLoc(f.loc)})` : ""}${f.tail ? " [tail call]" : ""}`);
    console.log(`7. backtrace, innermost first: ${frames.join(" <- ")}`);
  }

  // 8. Two interpreters share nothing: a definition in one is unknown to the other.
  const other = createNodeInterpreter();
  await interp.evaluate("(define secret 42)");
  const seen = await other.evaluateOutcome("secret");
  console.log(`8. isolation: first sees ${show(await interp.evaluate("secret"))}; second: ${seen.ok ? show(seen.value) : seen.condition?.message}`);
  console.log(`8. word-count in the second: ${other.lookup("word-count") === undefined ? "not defined" : "defined"}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
