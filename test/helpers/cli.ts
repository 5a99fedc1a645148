// Test helpers: run the real `nodwyn` command as a child process, with its data dir in a temp folder.
import { spawn, spawnSync, type SpawnSyncReturns } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { waitExit } from "./wait-exit.js";

export const BIN = resolve(fileURLToPath(import.meta.url), "../../../../bin/nodwyn");

const made: string[] = [];
// Every temp dir a test file made is removed when its worker process ends.
process.on("exit", () => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

export function tempDir(prefix = "nodwyn-test-"): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  made.push(d);
  return d;
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs bin/nodwyn with args; NODWYN_DATA_DIR is `dataDir` (a fresh temp dir by default). */
export function nodwyn(args: string[], o: { cwd?: string; input?: string; dataDir?: string; env?: NodeJS.ProcessEnv } = {}): CliResult & { dataDir: string } {
  const dataDir = o.dataDir ?? tempDir("nodwyn-data-");
  const r: SpawnSyncReturns<string> = spawnSync(BIN, args, {
    cwd: o.cwd ?? process.cwd(),
    input: o.input ?? "",
    encoding: "utf8",
    // The person's configuration is the test's own (an empty one unless it writes one there).
    env: { ...process.env, NODWYN_DATA_DIR: dataDir, XDG_CONFIG_HOME: join(dataDir, "config"), ...o.env },
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, dataDir };
}

/** The records of the one session log in a data dir. */
export function sessionRecords(dataDir: string): any[] {
  const dir = join(dataDir, "sessions");
  const files = readdirSync(dir).filter((f) => f.endsWith(".jsonl"));
  if (files.length !== 1) throw new Error(`expected one session log, found ${files.length}`);
  return readFileSync(join(dir, files[0] as string), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

/** bin/nodwyn as an asynchronous child (tests of one file then run side by side). */
export function nodwynAsync(args: string[], o: { cwd?: string; input?: string; dataDir?: string; env?: NodeJS.ProcessEnv } = {}): Promise<CliResult & { dataDir: string }> {
  const dataDir = o.dataDir ?? tempDir("nodwyn-data-");
  return new Promise((resolveRun, reject) => {
    const child = spawn(BIN, args, { cwd: o.cwd ?? process.cwd(), env: { ...process.env, NODWYN_DATA_DIR: dataDir, ...o.env }, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    // At most 90 s: then the child is killed and the run fails naming the command, with its output.
    waitExit(child, `nodwyn ${args.join(" ")}`, { on: "close", output: () => `${stdout}\nstderr: ${stderr}` }).then(({ code }) => resolveRun({ code, stdout, stderr, dataDir }), reject);
    child.stdin.end(o.input ?? "");
  });
}
