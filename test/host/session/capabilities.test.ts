// What each kind of evaluation may do: the table, the access built from it, and sessions that hold to it.
import test from "ava";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Condition, writeToString, type Outcome } from "../../../interpreter/api.js";
import { CAPABILITIES, DEFAULT_ENV_ALLOW, allowedEnv, processAccessFor, type EvaluationKind } from "../../../host/session/capabilities.js";
import { logRecords, openSession, repoFixture } from "./session-fixture.js";

/** What an evaluation returned, as write prints it. */
function show(out: Outcome): string {
  if (!out.ok) throw new Error("the evaluation failed");
  return writeToString(out.value, "write");
}

const REPO = fileURLToPath(new URL("../../../../", import.meta.url));

test("docs/security.md shows the capability table exactly as capabilities.ts has it", (t) => {
  const doc = readFileSync(join(REPO, "docs", "security.md"), "utf8");
  const start = doc.indexOf("<!-- capabilities:start -->");
  const end = doc.indexOf("<!-- capabilities:end -->");
  t.true(start >= 0 && end > start, "the table is marked in docs/security.md");
  const rows = doc
    .slice(start, end)
    .split("\n")
    .filter((l) => l.startsWith("| `"))
    .map((l) => l.split("|").slice(1, -1).map((c) => c.trim().replaceAll("`", "")));
  const kinds = Object.keys(CAPABILITIES) as EvaluationKind[];
  t.deepEqual(
    rows.map((r) => r[0]),
    kinds,
  );
  for (const r of rows) {
    const c = CAPABILITIES[r[0] as EvaluationKind];
    t.deepEqual(r.slice(1, 8), [c.fileRead, c.fileWrite, c.load, c.env, c.exit, c.process, c.time], `row ${r[0]}`);
  }
});

test("the environment a sandboxed kind sees is the allow-list, and nothing at all for a strategy or a checker", (t) => {
  const env = { LANG: "C.UTF-8", TZ: "UTC", AWS_SECRET_ACCESS_KEY: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", HOME: "/home/someone", PATH: "/usr/bin" };
  const model = processAccessFor("model", { env })!;
  t.deepEqual(model.allEnv(), { LANG: "C.UTF-8", TZ: "UTC" });
  t.is(model.getEnv("AWS_SECRET_ACCESS_KEY"), undefined);
  t.is(model.getEnv("HOME"), undefined);
  t.is(model.getEnv("TZ"), "UTC");
  // A name of Object.prototype is not a variable.
  t.is(model.getEnv("constructor"), undefined);
  for (const k of ["strategy", "checker"] as const) {
    const p = processAccessFor(k, { env })!;
    t.deepEqual(p.allEnv(), {});
    t.is(p.getEnv("LANG"), undefined);
  }
  const person = processAccessFor("person", { env })!;
  t.is(person.getEnv("AWS_SECRET_ACCESS_KEY"), env.AWS_SECRET_ACCESS_KEY);
  t.deepEqual(processAccessFor("model", { env, envAllow: ["HOME"] })!.allEnv(), { HOME: "/home/someone" });
  t.deepEqual(allowedEnv({ TERM: "xterm", X: "1" }), { TERM: "xterm" });
  t.true(DEFAULT_ENV_ALLOW.every((n) => !/KEY|TOKEN|SECRET|PASS|HOME|PATH/.test(n)));
  t.is(processAccessFor("embedder"), null);
});

test("a sandboxed kind's exit only reports the status (the interpreter ends the evaluation)", (t) => {
  const seen: number[] = [];
  for (const k of ["model", "strategy", "checker", "person-sandbox"] as const) {
    const p = processAccessFor(k, { onExit: (c) => seen.push(c) })!;
    p.exit(3);
  }
  t.deepEqual(seen, [3, 3, 3, 3]);
});

test("(exit) and (emergency-exit) in a sandboxed session end the evaluation, never the process; no handler catches them", async (t) => {
  const fx = repoFixture(t);
  const s = await openSession(t, fx, { sandbox: true });
  for (const [src, status] of [
    ["(exit 7)", 7],
    ["(emergency-exit 9)", 9],
    ["(guard (e (#t 'caught)) (exit 4))", 4],
    ["(with-exception-handler (lambda (e) 'caught) (lambda () (emergency-exit 5)))", 5],
    ["(exit #f)", 1],
    ["(exit)", 0],
  ] as const) {
    s.exitRequested = null;
    const out = await s.evaluate(src);
    t.false(out.ok, src);
    const c = (out as { condition: Condition | null }).condition;
    t.is(c?.kind, "limit", src);
    t.is(c?.code, "exit", src);
    t.is(s.exitRequested as number | null, status, src);
  }
  // exit runs the dynamic-wind afters first (R7RS); the session goes on.
  s.exitRequested = null;
  const wound = await s.evaluate("(define log '()) (dynamic-wind (lambda () #f) (lambda () (exit 2)) (lambda () (set! log (cons 'after log))))");
  t.false(wound.ok);
  const after = await s.evaluate("log");
  t.true(after.ok);
  t.is(show(after), "(after)");
  t.is(s.exitRequested as number | null, 2);
});

test("an agent session is sandboxed whatever the caller passes: Scheme's file ports never leave the guard", async (t) => {
  const fx = repoFixture(t, { "src/a.txt": "inside\n", ".env": "TOKEN=x\n" });
  const s = await openSession(t, fx, { kind: "agent", actor: "model", sandbox: false });
  t.is(s.evaluationKind, "model");
  const outside = await s.evaluate('(read-line (open-input-file "/etc/passwd"))');
  t.false(outside.ok);
  t.regex(String((outside as { condition: Condition }).condition.message), /denied|outside/);
  const secret = await s.evaluate('(read-line (open-input-file ".env"))');
  t.false(secret.ok);
  const target = join(fx.root, "..", "written-by-the-model.txt");
  const write = await s.evaluate(`(call-with-output-file ${JSON.stringify(target)} (lambda (p) (write 'x p)))`);
  t.false(write.ok);
  t.false(existsSync(target));
  writeFileSync(join(fx.root, "victim.txt"), "keep me\n");
  const del = await s.evaluate('(delete-file "victim.txt")');
  t.false(del.ok);
  t.true(existsSync(join(fx.root, "victim.txt")));
  const load = await s.evaluate('(load "/etc/passwd")');
  t.false(load.ok);
  const inside = await s.evaluate('(read-line (open-input-file "src/a.txt"))');
  t.true(inside.ok);
  // An actor "model" without a kind is an agent session too.
  const s2 = await openSession(t, fx, { actor: "model" });
  t.is(s2.evaluationKind, "model");
  t.false((await s2.evaluate('(open-input-file "/etc/passwd")')).ok);
  // Each read the guard refused is in the log.
  const denied = logRecords(fx.dataDir).filter((r) => r.kind === "guard.decision" && r.payload.decision === "deny").map((r) => r.payload.path);
  t.true(denied.includes("/etc/passwd"));
  t.true(denied.includes(".env"));
});

test("an agent session sees only the allow-listed environment variables", async (t) => {
  const fx = repoFixture(t);
  const s = await openSession(t, fx, { kind: "agent", actor: "model", env: { LANG: "C", GITHUB_TOKEN: "ghp_0123456789abcdefghijABCDEFGHIJ012345" } });
  const all = await s.evaluate("(get-environment-variables)");
  t.true(all.ok);
  t.is(show(all), '(("LANG" . "C"))');
  const one = await s.evaluate('(get-environment-variable "GITHUB_TOKEN")');
  t.is((one as { value: unknown }).value, false);
});

test("a person's session without --sandbox keeps its file ports and environment", async (t) => {
  const fx = repoFixture(t, { ".env": "TOKEN=x\n" });
  const s = await openSession(t, fx, { env: { SOMETHING: "visible" } });
  t.is(s.evaluationKind, "person");
  const env = await s.evaluate('(get-environment-variable "SOMETHING")');
  t.is(show(env), '"visible"');
  const read = await s.evaluate(`(read-line (open-input-file ${JSON.stringify(join(fx.root, ".env"))}))`);
  t.true(read.ok);
});
