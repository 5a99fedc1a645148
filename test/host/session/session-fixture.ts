// Test helpers for sessions: a repository in a temp folder, a data dir beside it, and the records of its log.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { ExecutionContext } from "ava";
import { Session, type SessionOptions } from "../../../host/session/session.js";

/** A repository (with a .git folder) holding `files`, and a data dir; both removed when the test ends. */
export function repoFixture(t: ExecutionContext, files: Record<string, string> = {}): { root: string; dataDir: string } {
  const base = mkdtempSync(join(tmpdir(), "nodwyn-session-"));
  t.teardown(() => rmSync(base, { recursive: true, force: true }));
  const root = join(base, "repo");
  const dataDir = join(base, "data");
  mkdirSync(join(root, ".git"), { recursive: true });
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  return { root, dataDir };
}

/** Output written to a session's console, kept. */
export function sink(): { write(c: string | Uint8Array): void; text(): string } {
  let s = "";
  return {
    write: (c) => void (s += typeof c === "string" ? c : Buffer.from(c).toString("utf8")),
    text: () => s,
  };
}

/** Opens a session over the fixture's root with its data dir; closed when the test ends. */
export async function openSession(t: ExecutionContext, fx: { root: string; dataDir: string }, o: Partial<SessionOptions> = {}): Promise<Session> {
  const out = sink();
  const s = await Session.open({
    origin: "test",
    cwd: fx.root,
    root: fx.root,
    stdout: out,
    stderr: out,
    ...o,
    env: { NODWYN_DATA_DIR: fx.dataDir, XDG_CONFIG_HOME: join(fx.dataDir, "config"), HOME: fx.dataDir, ...(o.env ?? {}) },
  });
  t.teardown(() => s.close());
  return s;
}

/** The records of the session logs in a data dir (JSON as written), log after log. */
export function logRecords(dataDir: string): any[] {
  const dir = join(dataDir, "sessions");
  const files = readdirSync(dir).filter((f) => f.endsWith(".jsonl")).sort();
  if (files.length === 0) throw new Error("no session log");
  return files.flatMap((f) =>
    readFileSync(join(dir, f), "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l)),
  );
}

/** The raw bytes of the one session log in a data dir, as text. */
export function logText(dataDir: string): string {
  const dir = join(dataDir, "sessions");
  const files = readdirSync(dir).filter((f) => f.endsWith(".jsonl"));
  return files.map((f) => readFileSync(join(dir, f), "utf8")).join("");
}
