// ADR 0010: under Node 20's permission model fsync is disabled, so nodwyn refuses to start a logged session instead of acknowledging records it cannot make durable.
import test from "ava";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO_ROOT } from "./helpers.js";

test("nodwyn --sandbox under --experimental-permission fails at creating its log (fsync is refused) and evaluates nothing", (t) => {
  const base = mkdtempSync(join(tmpdir(), "nodwyn-permission-"));
  t.teardown(() => rmSync(base, { recursive: true, force: true }));
  const repo = join(base, "repo");
  const data = join(base, "data");
  mkdirSync(join(repo, ".git"), { recursive: true });
  mkdirSync(data);
  writeFileSync(join(repo, "a.txt"), "alpha\n");
  // What a session needs granted: the package, the repository, /proc/self (the guard's check after each open),
  // the data directory for writing, and the native addons (better-sqlite3, re2, fs-ext).
  const r = spawnSync(
    process.execPath,
    [
      "--experimental-permission",
      `--allow-fs-read=${REPO_ROOT}`,
      `--allow-fs-read=${base}/`,
      "--allow-fs-read=/proc/self/",
      `--allow-fs-write=${data}/`,
      "--allow-addons",
      join(REPO_ROOT, "bin", "nodwyn.mjs"),
      "--sandbox",
      "-e",
      '(display "evaluated")',
    ],
    { cwd: repo, env: { ...process.env, NODWYN_DATA_DIR: data, XDG_CONFIG_HOME: join(base, "config"), HOME: base }, encoding: "utf8", timeout: 120_000 },
  );
  t.is(r.status, 1, r.stderr);
  t.false(r.stdout.includes("evaluated"), "an evaluation ran without its log");
  t.regex(r.stderr, /nodwyn: session log .*\.jsonl: create failed: fsync API is disabled when Permission Model is enabled/);
  t.false(r.stderr.includes("    at "), "a stack trace instead of the error");
  // Nothing was acknowledged, and nothing is left as if it had been.
  t.deepEqual(readdirSync(join(data, "sessions")).filter((n) => n.endsWith(".jsonl")), []);
});
