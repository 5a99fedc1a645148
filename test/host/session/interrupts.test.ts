// SIGINT and SIGTERM close the session's log with session.end (reason interrupted) before the process exits (finding 13); host/cli/signals.ts installs the handlers.

import test from "ava";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readLog } from "../../../host/log/index.js";
import { BIN } from "../../helpers/cli.js";
import { waitExit } from "../../helpers/wait-exit.js";

/** The status a shell reports for a process ended by the signal: 128 + its number. */
const signalExitCode = (s: "SIGINT" | "SIGTERM"): number => (s === "SIGINT" ? 130 : 143);

/** Waits until the data dir's one log holds a record of `kind`. */
async function waitForRecord(dataDir: string, kind: string): Promise<void> {
  const dir = join(dataDir, "sessions");
  for (let i = 0; i < 600; i++) {
    if (existsSync(dir)) {
      const f = readdirSync(dir).find((n) => n.endsWith(".jsonl"));
      if (f !== undefined && readFileSync(join(dir, f), "utf8").includes(`"kind":"${kind}"`)) return;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no ${kind} record after 30 s`);
}

for (const [signal, args] of [
  ["SIGINT", ["-e", "(let loop () (loop))"]],
  ["SIGTERM", ["-e", "(let loop ((i 0)) (loop (+ i 1)))"]],
  ["SIGINT", ["run", "spin.scm"]],
  ["SIGTERM", ["--sandbox", "run", "spin.scm"]],
  ["SIGTERM", ["repl"]],
] as const) {
  test(`${signal} during nodwyn ${args.join(" ")} writes session.end (interrupted) and exits ${signalExitCode(signal)}`, async (t) => {
    const base = mkdtempSync(join(tmpdir(), "nodwyn-interrupt-"));
    t.teardown(() => rmSync(base, { recursive: true, force: true }));
    const dataDir = join(base, "data");
    const repo = join(base, "repo");
    mkdirSync(join(repo, ".git"), { recursive: true });
    writeFileSync(join(repo, "spin.scm"), "(import (scheme base))\n(let loop () (loop))\n");
    const child = spawn(BIN, [...args], { cwd: repo, env: { ...process.env, NODWYN_DATA_DIR: dataDir, XDG_CONFIG_HOME: join(base, "config") }, stdio: [args[0] === "repl" ? "pipe" : "ignore", "pipe", "pipe"] });
    // The REPL reads its program from standard input (piped: no terminal) and stays open.
    if (args[0] === "repl") child.stdin!.write("(define x 1)\n");
    let stderr = "";
    child.stderr!.setEncoding("utf8").on("data", (s: string) => (stderr += s));
    const exited = waitExit(child, `nodwyn ${args.join(" ")} (${signal})`, { on: "close", t, output: () => stderr });
    await waitForRecord(dataDir, "eval.req");
    child.kill(signal);
    const { code, signal: sig } = await exited;
    t.is(sig, null, `killed by the signal instead of exiting: ${stderr}`);
    t.is(code, signalExitCode(signal), stderr);
    const dir = join(dataDir, "sessions");
    const file = join(dir, readdirSync(dir).find((n) => n.endsWith(".jsonl")) as string);
    const records = [...readLog(file)];
    const last = records[records.length - 1]!;
    t.is(last.kind, "session.end");
    t.deepEqual(last.payload, { reason: "interrupted", exit_code: signalExitCode(signal) });
  });
}
