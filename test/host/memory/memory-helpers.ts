// Helpers of the memory tests: real sessions recorded by the agent loop with the scripted provider (--model scripted:FILE).
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { ExecutionContext } from "ava";
import { createScriptedProvider } from "../../../host/model/scripted.js";
import { AgentSession, type AgentOptions } from "../../../host/session/agent.js";
import { createSessionLog } from "../../../host/log/index.js";

/** A git repository in a temp folder with the given files, removed after the test. */
export function gitRepo(t: ExecutionContext, files: Record<string, string>): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "nodwyn-mem-repo-")));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  execFileSync("git", ["init", "-q", root]);
  return root;
}

/** A temp folder, removed after the test. */
export function tempDir(t: ExecutionContext, prefix = "nodwyn-mem-"): string {
  const d = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  t.teardown(() => rmSync(d, { recursive: true, force: true }));
  return d;
}

/** One scripted reply (the JSON Lines form of docs/guides/models.md). */
export interface Reply {
  readonly text?: string;
  readonly reasoning?: string;
  readonly tool_calls?: readonly { readonly name: string; readonly arguments: Record<string, unknown>; readonly id?: string }[];
  readonly usage?: { readonly input: number; readonly output: number; readonly cost?: number };
}

/** The environment of a test's sessions: its own data dir, config dir and home. */
export function testEnv(t: ExecutionContext, home?: string): NodeJS.ProcessEnv {
  const h = home ?? tempDir(t, "nodwyn-mem-home-");
  return { PATH: process.env.PATH, HOME: h, NODWYN_DATA_DIR: join(h, "data"), XDG_CONFIG_HOME: join(h, "config") };
}

/** Runs a session of the agent loop: each message a turn, the model's replies from a script. Returns the open session (close it). */
export async function scriptedSession(t: ExecutionContext, o: { root: string; env: NodeJS.ProcessEnv; replies: readonly Reply[]; messages: readonly string[]; keepOpen?: boolean; more?: Partial<AgentOptions> }): Promise<{ agent: AgentSession; id: string; log: string }> {
  const dir = tempDir(t, "nodwyn-mem-script-");
  const file = join(dir, "script.jsonl");
  writeFileSync(file, o.replies.map((r) => JSON.stringify(r)).join("\n") + "\n");
  const provider = createScriptedProvider({ kind: "scripted", file });
  const agent = await AgentSession.open({
    origin: "ask",
    cwd: o.root,
    env: o.env,
    provider,
    model: { id: "scripted", server: "scripted", contextWindow: 32768 },
    askApproval: null,
    shellAllow: ["echo", "printf", "cat", "ls", "false", "sh"],
    ...o.more,
  });
  for (const m of o.messages) await agent.turn(m);
  const id = agent.id;
  const log = join(o.env.NODWYN_DATA_DIR!, "sessions", `${id}.jsonl`);
  if (!o.keepOpen) agent.close();
  return { agent, id, log };
}

/** The records of a log (parsed JSON lines). */
export function logRecords(log: string): any[] {
  return readFileSync(log, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
}

export function sessionLogs(env: NodeJS.ProcessEnv): string[] {
  const d = join(env.NODWYN_DATA_DIR!, "sessions");
  return readdirSync(d).filter((f) => f.endsWith(".jsonl")).map((f) => join(d, f));
}

/** A log written record by record (a hand-made corpus), through the real writer. */
export function handLog(dataDir: string, session: string, repo: string, records: readonly (readonly [string, Record<string, unknown>])[]): string {
  const w = createSessionLog(session, { version: "test", origin: "test", repo, cwd: repo }, { dataDir });
  for (const [kind, payload] of records) w.append(kind as any, payload);
  w.close();
  return w.file;
}

/** One whole turn of a hand-made corpus: the message, a reply calling `tool` with `args`, its result `output`, a last reply, turn.end. */
export function handTurn(turn: number, message: string, call: { tool: string; args: Record<string, unknown>; output: string; ok?: boolean } | null, answer: string): [string, Record<string, unknown>][] {
  const out: [string, Record<string, unknown>][] = [["user.msg", { text: message, actor: "person" }]];
  if (call !== null) {
    const id = `c${turn}`;
    out.push(["llm.resp", { req_seq: 1, tool_calls: [{ id, name: call.tool, arguments: JSON.stringify(call.args) }] }]);
    out.push(["tool.call", { call_id: id, tool: call.tool, args: call.args }]);
    out.push(["tool.result", { call_id: id, tool: call.tool, ok: call.ok ?? true, output: call.output, duration_ms: 1 }]);
  }
  if (answer !== "") out.push(["llm.resp", { req_seq: 1, text: answer }]);
  out.push(["turn.end", { outcome: "done", turn, elapsed_ms: 1000 }]);
  return out;
}
