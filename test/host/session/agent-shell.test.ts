// shell-exec in a turn: refused without an approval, granted by the allow-list or the person, clipped, without credentials.
import test from "ava";
import { AgentSession, type AgentOptions } from "../../../host/session/agent.js";
import type { ApprovalRequest } from "../../../host/shell/index.js";
import type { FakeReply } from "../../helpers/fake-model.js";
import { fakeAgent, gitRepo, records } from "./agent-helpers.js";

function open(t: any, replies: FakeReply[], o: Partial<AgentOptions> = {}) {
  const root = gitRepo(t, { "README.md": "# demo\n" });
  return fakeAgent(t, root, replies, { ...o });
}

const shell = (command: string): FakeReply => ({ calls: [{ name: "shell-exec", args: { command } }] });

test("headless, a command without a policy is refused with an error the model reads; the turn goes on", async (t) => {
  const s = open(t, [shell("touch made-it"), { text: "It was refused." }]);
  const agent = await s.open();
  const r = await agent.turn("make a file");
  agent.close();
  t.is(r.outcome, "done");
  const result = records(s.data).find((x) => x.kind === "tool.result");
  t.like(result.payload, { tool: "shell-exec", ok: false });
  t.regex(result.payload.error, /not-approved|was not run: this command needs the person's approval/);
  const second = s.provider.requests[1]!.messages.at(-1)!;
  t.is(second.role, "tool");
  t.regex(second.content, /^error: shell-exec: the command was not run/);
  t.true((second as any).isError);
});

test("a configured prefix runs a simple command without asking; a compound one is still asked about", async (t) => {
  const s = open(t, [shell("echo hello; echo oops >&2; exit 2"), { text: "ok" }], { shellAllow: ["echo"] });
  const agent = await s.open();
  // A compound command never matches a prefix: this one is refused.
  await agent.turn("echo");
  agent.close();
  const result = records(s.data).find((x) => x.kind === "tool.result");
  t.is(result.payload.ok, false, "compound commands are asked about, and no one can answer");
  const s2 = open(t, [shell("echo hello"), { text: "ok" }], { shellAllow: ["echo"] });
  const a2 = await s2.open();
  await a2.turn("echo");
  a2.close();
  const r2 = records(s2.data).find((x) => x.kind === "tool.result");
  t.like(r2.payload, { tool: "shell-exec", ok: true, output: "exit 0\nhello" });
  t.false(records(s2.data).some((x) => x.kind === "approval.change"));
});

test("the person approves once, then always for the prefix; each answer is an approval.change before the command runs", async (t) => {
  const asked: ApprovalRequest[] = [];
  const answers = ["once", "session"] as const;
  let i = 0;
  const s = open(t, [shell("printf 'a%.0s' 1 2 3; echo; echo err >&2; exit 1"), shell("printf again"), shell("printf third"), { text: "done" }], {
    askApproval: async (r) => (asked.push(r), answers[i++]!),
  });
  const agent = await s.open();
  const r = await agent.turn("run things");
  agent.close();
  t.is(r.outcome, "done");
  t.is(asked.length, 2, "the third command matched the prefix allowed for the session");
  const recs = records(s.data);
  const changes = recs.filter((x) => x.kind === "approval.change");
  t.deepEqual(changes.map((x) => x.payload.scope), ["once", "session"]);
  t.is(changes[1].payload.prefix, "printf");
  const results = recs.filter((x) => x.kind === "tool.result");
  t.is(results[0].payload.output, "exit 1\naaa\n[stderr]\nerr");
  t.true(recs.indexOf(changes[0]) < recs.indexOf(results[0]));
  t.deepEqual(results.map((x) => x.payload.ok), [true, true, true]);
  t.is(results[2].payload.output, "exit 0\nthird");
});

test("never: the command is refused, and so is the prefix for the rest of the session", async (t) => {
  let asked = 0;
  const s = open(t, [shell("rm -rf build"), shell("rm other"), { text: "ok" }], { askApproval: async () => (asked++, "never") });
  const agent = await s.open();
  await agent.turn("clean");
  agent.close();
  const results = records(s.data).filter((x) => x.kind === "tool.result");
  t.is(asked, 1);
  t.deepEqual(results.map((x) => x.payload.ok), [false, false]);
  t.regex(results[0].payload.error, /the person refused/);
  t.regex(results[1].payload.error, /refused commands starting with "rm"/);
});

test("long output is recorded whole and reaches the model as its first 1,500 and last 6,000 characters, the cut counted", async (t) => {
  const s = open(t, [shell("printf %010000d 0"), { text: "ok" }], { shellAllow: ["printf"] });
  const agent = await s.open();
  await agent.turn("big output");
  agent.close();
  const result = records(s.data).find((x) => x.kind === "tool.result");
  const whole = "exit 0\n" + "0".repeat(10000);
  t.true(result.payload.output === whole, "recorded whole");
  const seen = s.provider.requests[1]!.messages.at(-1)!.content;
  const cut = whole.length - 7500;
  // window-v2 names the seq that holds the whole result in the cut's line.
  t.true(seen === whole.slice(0, 1500) + `\n[… ${cut} characters cut: seq ${result.seq} holds the whole result …]\n` + whole.slice(-6000), seen.slice(1400, 1600));
});

test("a credential in the environment is not visible to the command", async (t) => {
  const s = open(t, [shell("env"), { text: "ok" }], { shellAllow: ["env"] });
  const agent = await AgentSession.open({
    origin: "ask",
    cwd: s.root,
    env: { PATH: process.env.PATH, HOME: s.root, NODWYN_DATA_DIR: s.data, SERVICE_API_KEY: "sk-test-123456", PLAIN: "visible", HOLDS: "value-of-the-key-abcdef" },
    provider: s.provider,
    model: { id: "fake-1", server: "fake", contextWindow: 100_000 },
    askApproval: null,
    shellAllow: ["env"],
    credentials: [{ class: "api-key", id: "fake", value: "value-of-the-key-abcdef" }],
  });
  await agent.turn("env");
  agent.close();
  const recs = records(s.data);
  const out: string = recs.find((x) => x.kind === "tool.result").payload.output;
  t.regex(out, /^PLAIN=visible$/m);
  t.false(out.includes("SERVICE_API_KEY"));
  t.false(out.includes("HOLDS="));
  t.deepEqual(recs.filter((x) => x.kind === "cred.register").map((x) => x.payload), [{ class: "api-key", id: "fake" }]);
  t.false(JSON.stringify(recs).includes("value-of-the-key-abcdef"));
});

test("a timeout kills the command's group, and the model reads what it printed and that it timed out", async (t) => {
  const s = open(t, [{ calls: [{ name: "shell-exec", args: { command: "echo started; sleep 600", "timeout-seconds": 1 } }] }, { text: "ok" }], {
    askApproval: async () => "once",
  });
  const agent = await s.open();
  const r = await agent.turn("slow");
  agent.close();
  t.is(r.outcome, "done");
  const result = records(s.data).find((x) => x.kind === "tool.result");
  t.like(result.payload, { ok: false, output: "exit 143\nstarted", error: "timed out after 1 s: the command's process group was killed" });
  t.is(s.provider.requests[1]!.messages.at(-1)!.content, "exit 143\nstarted\nerror: timed out after 1 s: the command's process group was killed");
});
