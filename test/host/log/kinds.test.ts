// The kinds module: every kind the ADR names, each documented, each payload shape checked on write.

import test from "ava";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { KINDS, KIND_NAMES, LogPayloadError, checkPayload, describeFields, isKnownKind } from "../../../host/log/index.js";
import { REPO_ROOT } from "./helpers.js";

// The kinds issue 6 lists from ADR 0002 and its amendments.
const ISSUE_KINDS = `session.start session.resume session.end user.msg llm.req llm.resp tool.call tool.result
guard.decision egress.check gate.plan cred.register cred.refresh redact.event summary summary.drop note turn.end
turn.checkpoint approval.change eval.req eval.result plan.step attach doc.upload mcp.egress setting.change
context.compact context.narrow context.fold session.title session.archive session.model worktree.create
worktree.restore worktree.remove index.update`.split(/\s+/);

test("every kind the issue lists is enumerated", (t) => {
  for (const k of ISSUE_KINDS) t.true(isKnownKind(k), k);
});

test("docs/log-format.md has one line per kind, with exactly the fields kinds.ts checks", (t) => {
  const doc = readFileSync(join(REPO_ROOT, "docs", "log-format.md"), "utf8");
  const lines = new Map<string, string>();
  for (const m of doc.matchAll(/^- `([a-z.]+)` — `([^`]*)` — (.+)$/gm)) {
    t.false(lines.has(m[1]), `${m[1]} documented twice`);
    lines.set(m[1], m[2]);
  }
  t.deepEqual([...lines.keys()], [...KIND_NAMES], "the documented kinds, in order");
  for (const k of KIND_NAMES) t.is(lines.get(k), describeFields(k), k);
});

test("unknown kinds are not known", (t) => {
  for (const k of ["", "session", "session.delete", "prompt.choice", "Note", "note ", 42, null]) t.false(isKnownKind(k));
});

// A valid value for a field spec: the first alternative's example.
function example(spec: string): unknown {
  const first = spec.split("|")[0];
  if (first.startsWith("'")) return first.slice(1, -1);
  const byType: Record<string, unknown> = {
    string: "x",
    integer: 7,
    number: 1.5,
    boolean: false,
    object: { k: 1 },
    array: [1, "a"],
    null: null,
    any: { any: ["thing"] },
  };
  return byType[first];
}

// A value of the wrong type for a spec.
function wrong(spec: string): unknown {
  const types = spec.split("|");
  if (!types.includes("string") && !types.some((x) => x.startsWith("'"))) return "not-this";
  if (!types.includes("integer") && !types.includes("number")) return 3;
  return [true];
}

for (const kind of KIND_NAMES) {
  test(`${kind}: every field present is accepted; each required field is required and typed; unknown fields follow its openness`, (t) => {
    const fields = Object.entries(KINDS[kind].fields as Record<string, string>);
    const full: Record<string, unknown> = {};
    const minimal: Record<string, unknown> = {};
    for (const [key, spec] of fields) {
      const name = key.replace(/\?$/, "");
      full[name] = example(spec);
      if (!key.endsWith("?")) minimal[name] = example(spec);
    }
    t.notThrows(() => checkPayload(kind, full));
    t.notThrows(() => checkPayload(kind, minimal));
    for (const [key, spec] of fields) {
      const name = key.replace(/\?$/, "");
      if (spec !== "any") {
        const bad = { ...full, [name]: wrong(spec) };
        const e = t.throws(() => checkPayload(kind, bad), { instanceOf: LogPayloadError });
        t.is(e!.code, "LOG_BAD_PAYLOAD");
        t.true(e!.message.includes(`"${name}"`), e!.message);
      }
      if (!key.endsWith("?")) {
        const missing = { ...minimal };
        delete missing[name];
        const e = t.throws(() => checkPayload(kind, missing), { instanceOf: LogPayloadError });
        t.true(e!.message.includes(`required field "${name}"`), e!.message);
      }
    }
    const extra = { ...minimal, surely_not_a_field: 1 };
    if ((KINDS[kind] as { open?: boolean }).open) t.notThrows(() => checkPayload(kind, extra));
    else t.throws(() => checkPayload(kind, extra), { instanceOf: LogPayloadError, message: /surely_not_a_field/ });
  });
}

test("eval.req and eval.result have the shapes the REPL and nodwyn run write", (t) => {
  t.notThrows(() => checkPayload("eval.req", { source: "(+ 1 2)", origin: "repl" }));
  t.notThrows(() => checkPayload("eval.req", { source: "(display 1)", origin: "run", file: "/p/a.scm" }));
  t.notThrows(() => checkPayload("eval.result", { ok: true, req_seq: 2, value: "3", output: "", elapsed_ms: 0.25 }));
  t.notThrows(() => checkPayload("eval.result", { ok: false, error: "car: bad argument", error_kind: "type" }));
  t.throws(() => checkPayload("eval.result", { value: "3" }), { message: /required field "ok"/ });
  t.throws(() => checkPayload("eval.req", { source: 42 }), { message: /"source" must be string, got integer/ });
});

test("literal unions accept only their literals", (t) => {
  t.notThrows(() => checkPayload("plan.step", { step: 1, steps: 3, state: "skipped" }));
  t.throws(() => checkPayload("plan.step", { step: 1, steps: 3, state: "maybe" }), { message: /'done'\|'skipped'/ });
  t.notThrows(() => checkPayload("guard.decision", { path: "/a", op: "read", decision: "deny" }));
  t.throws(() => checkPayload("guard.decision", { path: "/a", op: "read", decision: "DENY" }));
});

test("integer fields refuse fractions and unsafe integers; number fields refuse NaN and Infinity", (t) => {
  t.throws(() => checkPayload("summary.drop", { summary_seq: 1.5 }), { message: /must be integer, got number/ });
  t.throws(() => checkPayload("summary.drop", { summary_seq: 2 ** 53 }));
  t.throws(() => checkPayload("turn.checkpoint", { dimension: "calls", used: NaN }), { message: /got NaN/ });
  t.throws(() => checkPayload("turn.checkpoint", { dimension: "calls", used: Infinity }));
});

test("a field set to undefined counts as absent", (t) => {
  t.notThrows(() => checkPayload("eval.req", { source: "1", origin: undefined }));
  t.throws(() => checkPayload("eval.req", { source: undefined }), { message: /required field "source"/ });
});

test("a payload must be a plain JSON object", (t) => {
  for (const p of [null, [], "text", 3, new Date(0), new Map()])
    t.throws(() => checkPayload("note", p), { instanceOf: LogPayloadError, message: /a JSON object expected/ });
});

test("an unknown kind is refused with its own code", (t) => {
  const e = t.throws(() => checkPayload("session.delete", {}), { instanceOf: LogPayloadError });
  t.is(e!.code, "LOG_UNKNOWN_KIND");
});

test("cred.register has no room for a secret value", (t) => {
  t.throws(() => checkPayload("cred.register", { class: "github", id: "h1", value: "tok" }), { message: /"value" is not part/ });
});
