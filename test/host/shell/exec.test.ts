// runShell: bash -c in a process group, the timeout and cancellation that kill the whole group, the output caps.
import test from "ava";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runShell, scrubEnv, secretName } from "../../../host/shell/index.js";

function dir(t: any): string {
  const d = mkdtempSync(join(tmpdir(), "nodwyn-shell-"));
  t.teardown(() => rmSync(d, { recursive: true, force: true }));
  return d;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: tmpdir() };

test("a command's exit code, stdout and stderr", async (t) => {
  const cwd = dir(t);
  const r = await runShell("echo out; echo err >&2; pwd; exit 3", { cwd, env, timeoutMs: 30_000 });
  t.is(r.exit, 3);
  t.is(r.stdout, `out\n${cwd}\n`);
  t.is(r.stderr, "err\n");
  t.false(r.timedOut);
  t.false(r.truncated);
});

test("stdin is empty: a command that reads it does not wait", async (t) => {
  const r = await runShell("cat; echo read-nothing", { cwd: dir(t), env, timeoutMs: 30_000 });
  t.is(r.stdout, "read-nothing\n");
});

test("a timeout kills the whole process tree: the child and the grandchild it spawned", async (t) => {
  const cwd = dir(t);
  // The child starts a grandchild that ignores SIGTERM, writes its pid, and both sleep.
  const cmd = `bash -c 'trap "" TERM; echo $$ > grandchild.pid; exec sleep 600' & echo $! > child.pid; sleep 600`;
  const r = await runShell(cmd, { cwd, env, timeoutMs: 500, graceMs: 300 });
  t.true(r.timedOut);
  t.is(r.exit, 128 + 15, "bash ended by SIGTERM");
  t.true(existsSync(join(cwd, "grandchild.pid")));
  const grandchild = Number(readFileSync(join(cwd, "grandchild.pid"), "utf8"));
  const child = Number(readFileSync(join(cwd, "child.pid"), "utf8"));
  t.false(alive(child), "the child is gone");
  t.false(alive(grandchild), "the grandchild, which ignored SIGTERM, was killed too");
});

test("cancellation kills the group and says so", async (t) => {
  const ac = new AbortController();
  const p = runShell("sleep 600", { cwd: dir(t), env, timeoutMs: 60_000, signal: ac.signal });
  setTimeout(() => ac.abort(), 200);
  const r = await p;
  t.true(r.cancelled);
  t.false(r.timedOut);
  t.not(r.exit, 0);
});

test("output over the cap is counted, not kept", async (t) => {
  const r = await runShell("head -c 5000 /dev/zero | tr '\\0' a", { cwd: dir(t), env, timeoutMs: 30_000, maxBytes: 1000 });
  t.is(r.stdout, "a".repeat(1000));
  t.is(r.stdoutBytes, 5000);
  t.true(r.truncated);
});

test("a command that cannot start (no such directory) is reported, not thrown", async (t) => {
  const r = await runShell("true", { cwd: join(dir(t), "missing"), env, timeoutMs: 30_000 });
  t.is(r.exit, null);
  t.truthy(r.spawnError);
});

test("scrubEnv removes variables named like credentials, and those holding a secret", (t) => {
  const { env: out, removed } = scrubEnv(
    { PATH: "/bin", GITHUB_TOKEN: "x", OPENAI_API_KEY: "y", DB_PASSWORD: "z", awsSecretAccessKey: "w", KEYBOARD: "k", MONKEY: "m", HOLDER: "has s3cr3tvalue in it", URL: "postgres://u:p4ssw0rd@h/db" },
    ["s3cr3tvalue"],
    (v) => v.includes(":p4ssw0rd@"),
  );
  t.deepEqual(Object.keys(out).sort(), ["KEYBOARD", "MONKEY", "PATH"]);
  t.deepEqual(removed, ["DB_PASSWORD", "GITHUB_TOKEN", "HOLDER", "OPENAI_API_KEY", "URL", "awsSecretAccessKey"]);
  t.true(secretName("NPM_AUTH_TOKEN"));
  t.true(secretName("ssh_private_key"));
  t.false(secretName("TOKENIZER_PATH"));
});
