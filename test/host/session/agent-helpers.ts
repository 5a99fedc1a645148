// Helpers of the agent session's tests: a real temporary git repository, and the session's records.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { ExecutionContext } from "ava";
import { AgentSession, type AgentOptions } from "../../../host/session/agent.js";
import { FakeModel, type FakeReply } from "../../helpers/fake-model.js";

/** A git repository in a temp folder with the given files, removed after the test. */
export function gitRepo(t: ExecutionContext, files: Record<string, string>): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "nodwyn-agent-repo-")));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  execFileSync("git", ["init", "-q", root]);
  return root;
}

/** A temp data directory, removed after the test. */
export function dataDir(t: ExecutionContext): string {
  const d = mkdtempSync(join(tmpdir(), "nodwyn-agent-data-"));
  t.teardown(() => rmSync(d, { recursive: true, force: true }));
  return d;
}

/** The records of one session's log (parsed JSON lines). */
export function records(data: string, session?: string): any[] {
  const dir = join(data, "sessions");
  const files = readdirSync(dir).filter((f) => f.endsWith(".jsonl") && (session === undefined || f === `${session}.jsonl`));
  if (files.length !== 1) throw new Error(`expected one session log, found ${files.length}`);
  return readFileSync(join(dir, files[0]!), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
}

/** The kinds of records, without the guard's decisions and redaction events collapsed. */
export function kinds(recs: readonly any[]): string[] {
  return recs.map((r) => r.kind);
}

/**
 * An agent session over the repository `root` with a fake model answering
 * `replies`: a fresh data directory, an environment of PATH, HOME and the data
 * directory, no one to ask for approvals; `o` overrides any option, and
 * `open(more)` opens it with more.
 */
export function fakeAgent(t: ExecutionContext, root: string, replies: FakeReply[], o: Partial<AgentOptions> = {}) {
  const data = dataDir(t);
  const provider = new FakeModel(replies);
  const opts: AgentOptions = {
    origin: "ask",
    cwd: root,
    env: { PATH: process.env.PATH, HOME: root, NODWYN_DATA_DIR: data },
    provider,
    model: { id: "fake-1", server: "fake", contextWindow: 100_000 },
    askApproval: null,
    ...o,
  };
  return { root, data, provider, opts, open: (more: Partial<AgentOptions> = {}) => AgentSession.open({ ...opts, ...more }) };
}
