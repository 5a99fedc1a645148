// Project checkers: allow, deny, ask (with and without a person), throw, run out of budget; they only narrow.
import test from "ava";
import {
  CheckerRegistry,
  createGuard,
  denyVerdict,
  askVerdict,
  GuardDeniedError,
  type AskFn,
  type CheckerFn,
  type CheckerInfo,
  type GuardDecision,
} from "../../../host/guard/index.js";
import { makeTree } from "./tree.js";

function setup(t: { teardown(fn: () => void): void }, checkers: Record<string, CheckerFn>, ask: AskFn | null = null, checkerTimeoutMs?: number) {
  const tree = makeTree({ "src/a.ts": "export const a = 1;\n", "src/b.ts": "b\n", ".env": "SECRET=1" });
  t.teardown(tree.cleanup);
  const registry = new CheckerRegistry();
  for (const [name, fn] of Object.entries(checkers)) registry.register(name, fn);
  const log: GuardDecision[] = [];
  const limits = checkerTimeoutMs === undefined ? {} : { checkerTimeoutMs };
  const guard = createGuard({ root: tree.root, checkers: registry, log: (d) => log.push(d), ask, limits });
  return { guard, log, registry };
}

test("a checker that allows lets the read through and is named in the decision", async (t) => {
  const { guard, log } = setup(t, { "allow-all": () => "allow" });
  t.is((await guard.readFile("src/a.ts")).toString(), "export const a = 1;\n");
  t.like(log[0], { decision: "allow", rule: "checker", checker: "allow-all" });
});

test("a checker sees the root-relative path and the file's info", async (t) => {
  const seen: Array<[string, CheckerInfo]> = [];
  const { guard } = setup(t, {
    spy: (p, info) => {
      seen.push([p, info]);
      return "allow";
    },
  });
  await guard.readFile("src/a.ts", { actor: "model" });
  const [p, info] = seen[0] as [string, CheckerInfo];
  t.is(p, "src/a.ts");
  t.is(info.relPath, "src/a.ts");
  t.is(info.size, 20);
  t.is(info.kind, "file");
  t.is(info.actor, "model");
  t.true(info.absPath.endsWith("/src/a.ts"));
  t.true(info.mtimeMs > 0);
});

test("a checker that denies stops the read with its reason", async (t) => {
  const { guard, log } = setup(t, { "no-b": (p) => (p.endsWith("b.ts") ? denyVerdict("b is generated") : "allow") });
  t.is((await guard.readFile("src/a.ts")).length, 20);
  const e = await t.throwsAsync(guard.readFile("src/b.ts"), { instanceOf: GuardDeniedError });
  t.is(e?.rule, "checker");
  t.is(e?.reason, "b is generated");
  t.is(e?.checker, "no-b");
  t.like(log[1], { decision: "deny", rule: "checker", reason: "b is generated", checker: "no-b" });
});

test("checkers only narrow: a checker allowing a denylisted file is never asked", async (t) => {
  let called = 0;
  const { guard } = setup(t, {
    permissive: () => {
      called++;
      return "allow";
    },
  });
  const e = await t.throwsAsync(guard.readFile(".env"), { instanceOf: GuardDeniedError });
  t.is(e?.rule, "denylist");
  t.is(called, 0);
});

test("ask with no one to answer leaves the file out (never read) and names it", async (t) => {
  const { guard, log } = setup(t, { careful: () => askVerdict("generated code") });
  const e = await t.throwsAsync(guard.readFile("src/a.ts"), { instanceOf: GuardDeniedError });
  t.is(e?.rule, "ask-unanswered");
  t.is(e?.path, "src/a.ts");
  t.regex(e?.reason ?? "", /generated code; no one to ask/);
  t.like(log[0], { decision: "deny", rule: "ask-unanswered", checker: "careful" });
});

test("ask goes to the person: yes reads, no denies; withoutAsking does not ask", async (t) => {
  const asked: string[] = [];
  const { guard } = setup(t, { careful: () => "ask" }, (req) => {
    asked.push(`${req.path} ${req.checker}`);
    return req.path.endsWith("a.ts") ? "allow" : "deny";
  });
  t.is((await guard.readFile("src/a.ts")).length, 20);
  const e = await t.throwsAsync(guard.readFile("src/b.ts"), { instanceOf: GuardDeniedError });
  t.is(e?.rule, "ask");
  const e2 = await t.throwsAsync(guard.readFile("src/a.ts", { withoutAsking: true }), { instanceOf: GuardDeniedError });
  t.is(e2?.rule, "ask-unanswered");
  t.deepEqual(asked, ["src/a.ts careful", "src/b.ts careful"]);
});

test("a person whose asking fails denies", async (t) => {
  const { guard } = setup(t, { careful: () => "ask" }, () => Promise.reject(new Error("terminal closed")));
  const e = await t.throwsAsync(guard.readFile("src/a.ts"), { instanceOf: GuardDeniedError });
  t.is(e?.rule, "ask");
  t.regex(e?.reason ?? "", /terminal closed/);
});

test("a checker that throws denies (as a Scheme error in a checker will)", async (t) => {
  const { guard } = setup(t, {
    broken: () => {
      throw new Error("car: bad argument");
    },
  });
  const e = await t.throwsAsync(guard.readFile("src/a.ts"), { instanceOf: GuardDeniedError });
  t.is(e?.rule, "checker");
  t.regex(e?.reason ?? "", /checker broken failed: car: bad argument/);
});

test("a checker whose promise rejects denies (a step budget exhausted is a rejection)", async (t) => {
  const { guard } = setup(t, { looping: async () => Promise.reject(new Error("step budget exhausted")) });
  const e = await t.throwsAsync(guard.readFile("src/a.ts"), { instanceOf: GuardDeniedError });
  t.regex(e?.reason ?? "", /step budget exhausted/);
});

test("a checker that never answers is denied when its budget runs out", async (t) => {
  const { guard } = setup(t, { stuck: () => new Promise(() => {}) }, null, 30);
  const e = await t.throwsAsync(guard.readFile("src/a.ts"), { instanceOf: GuardDeniedError });
  t.is(e?.rule, "checker");
  t.regex(e?.reason ?? "", /checker stuck exceeded its budget \(30 ms\)/);
});

test("a checker returning something that is not a verdict denies", async (t) => {
  const { guard } = setup(t, { sloppy: () => true as unknown as "allow" });
  const e = await t.throwsAsync(guard.readFile("src/a.ts"), { instanceOf: GuardDeniedError });
  t.regex(e?.reason ?? "", /invalid verdict/);
});

test("checkers run in registration order: the first deny wins and later ones are not called; an ask beats allows", async (t) => {
  const calls: string[] = [];
  const mk = (name: string, v: ReturnType<CheckerFn>): CheckerFn => () => {
    calls.push(name);
    return v;
  };
  const { guard, registry } = setup(t, { one: mk("one", "allow"), two: mk("two", denyVerdict("two says no")), three: mk("three", "allow") });
  const e = await t.throwsAsync(guard.readFile("src/a.ts"), { instanceOf: GuardDeniedError });
  t.is(e?.checker, "two");
  t.deepEqual(calls, ["one", "two"]);
  registry.register("two", mk("two", askVerdict("two wonders")));
  const e2 = await t.throwsAsync(guard.readFile("src/a.ts"), { instanceOf: GuardDeniedError });
  t.is(e2?.rule, "ask-unanswered");
  t.is(e2?.checker, "two");
  // Registering a name again replaced it in place.
  t.deepEqual(registry.list().map((c) => c.name), ["one", "two", "three"]);
});

test("check consults checkers too; a directory is decided without them", async (t) => {
  let called = 0;
  const { guard } = setup(t, {
    c: () => {
      called++;
      return denyVerdict("no");
    },
  });
  t.like(await guard.check("src/a.ts"), { decision: "deny", rule: "checker" });
  t.like(await guard.check("src"), { decision: "allow", kind: "directory" });
  t.is(called, 1);
});

test("a file over maxBytes is refused before any checker is asked", async (t) => {
  let called = 0;
  const { guard } = setup(t, {
    c: () => {
      called++;
      return "allow";
    },
  });
  await t.throwsAsync(guard.readFile("src/a.ts", { maxBytes: 5 }), { message: /larger than 5 bytes/ });
  t.is(called, 0);
});

test("the registry refuses a nameless or non-function checker and can unregister", (t) => {
  const r = new CheckerRegistry();
  t.throws(() => r.register("", () => "allow"));
  t.throws(() => r.register("x", 42 as unknown as CheckerFn));
  r.register("x", () => "allow");
  t.true(r.unregister("x"));
  t.false(r.unregister("x"));
  t.is(r.size, 0);
});

test("readFileSync applies the same rules with synchronous checkers", (t) => {
  const { guard, log } = setup(t, { "no-b": (p) => (p.endsWith("b.ts") ? denyVerdict("b is generated") : "allow") });
  t.is(guard.readFileSync("src/a.ts").toString(), "export const a = 1;\n");
  t.throws(() => guard.readFileSync("src/b.ts"), { instanceOf: GuardDeniedError, message: /b is generated/ });
  t.throws(() => guard.readFileSync(".env"), { instanceOf: GuardDeniedError, message: /denylist/ });
  t.deepEqual(
    log.map((d) => `${d.path} ${d.decision} ${d.rule}`),
    ["src/a.ts allow checker", "src/b.ts deny checker", ".env deny denylist"],
  );
});

test("readFileSync cannot wait: an asynchronous checker denies, and an ask is never put to the person", (t) => {
  let asked = 0;
  const { guard } = setup(t, { later: async () => "allow" as const }, () => {
    asked++;
    return "allow";
  });
  const e = t.throws(() => guard.readFileSync("src/a.ts"), { instanceOf: GuardDeniedError });
  t.regex(e?.reason ?? "", /answered asynchronously/);
  const { guard: g2 } = setup(t, { careful: () => "ask" }, () => {
    asked++;
    return "allow";
  });
  const e2 = t.throws(() => g2.readFileSync("src/a.ts"), { instanceOf: GuardDeniedError });
  t.is(e2?.rule, "ask-unanswered");
  t.is(asked, 0);
});

test("readFileSync: a throwing checker denies; a file with no checkers reads", (t) => {
  const { guard } = setup(t, {
    broken: () => {
      throw new Error("boom");
    },
  });
  t.throws(() => guard.readFileSync("src/a.ts"), { instanceOf: GuardDeniedError, message: /boom/ });
  const { guard: plain } = setup(t, {});
  t.is(plain.readFileSync("src/b.ts").toString(), "b\n");
});
