// nodwyn chat's /context in a real pseudo-terminal: the window's size and source, its usage, and /context set recording an override.
import test from "ava";
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Pty } from "../../helpers/pty.js";
import { tempDir } from "../../helpers/cli.js";

test("chat: /context says the context window, where it came from and what the window takes; /context set records the model's", async (t) => {
  const root = tempDir();
  spawnSync("git", ["init", "-q", root]);
  writeFileSync(join(root, "script.toml"), `model = "demo-1"\n[[reply]]\ntext = "Hello there."\n`);
  const home = tempDir("nodwyn-pty-home-");
  const p = new Pty({ cwd: root, args: ["chat", "--model", "scripted:script.toml"], cols: 200, env: { HOME: home, XDG_CACHE_HOME: join(home, ".cache"), NODWYN_CHAT_HISTORY: "", NODWYN_CONTEXT_TOKENS: "8000" } });
  t.teardown(() => p.kill());
  t.regex(await p.waitFor(/\n> $/), /context 8,000 tokens/);
  p.write("hi\r");
  await p.waitFor("Hello there.");
  await p.waitFor(/\n> $/);
  p.write("/context\r");
  const out = await p.waitFor(/strategy: [^\n]*\n[^]*> $/);
  t.regex(out, /context window: 8,000 tokens of demo-1, from NODWYN_CONTEXT_TOKENS/);
  // 8,000 less the reply's reserve (a quarter, 2,000) may be sent.
  t.regex(out, /the window: [\d,]+ tokens of the 6,000 a request may take \(\d+%; 2,000 kept for the reply\), 2 messages/);
  p.write("/context set 12000\r");
  t.regex(await p.waitFor(/from the next session[^\n]*\n[^]*> $/), /recorded: demo-1 on scripted has a context window of 12,000 tokens/);
  p.write("/context set 12\r");
  t.regex(await p.waitFor(/e\.g\. \/context set 128000\n[^]*> $/), /give a whole number of tokens ≥ 256/);
  p.write("\x04");
  t.is((await p.exit()).code, 0);
  t.deepEqual(JSON.parse(readFileSync(join(p.dataDir, "context-overrides.json"), "utf8")), { version: 1, models: { "scripted/demo-1": 12000 } });

  // The next session without NODWYN_CONTEXT_TOKENS: the script has no context_window, so the override counts.
  const q = new Pty({ cwd: root, dataDir: p.dataDir, args: ["chat", "--model", "scripted:script.toml"], cols: 200, env: { HOME: home, XDG_CACHE_HOME: join(home, ".cache"), NODWYN_CHAT_HISTORY: "" } });
  t.teardown(() => q.kill());
  t.regex(await q.waitFor(/\n> $/), /context 12,000 tokens/);
  q.write("/context\r");
  t.regex(await q.waitFor(/strategy: [^\n]*\n[^]*> $/), /context window: 12,000 tokens of demo-1, from an override recorded with \/context set/);
  q.write("/context unset\r");
  await q.waitFor(/taken back[^\n]*\n[^]*> $/);
  q.write("\x04");
  t.is((await q.exit()).code, 0);

  // No source: the window is unknown, said at the start and by /context.
  const u = new Pty({ cwd: root, dataDir: p.dataDir, args: ["chat", "--model", "scripted:script.toml"], cols: 240, env: { HOME: home, XDG_CACHE_HOME: join(home, ".cache"), NODWYN_CHAT_HISTORY: "" } });
  t.teardown(() => u.kill());
  t.regex(await u.waitFor(/\n> $/), /context unknown: \/context says how to give it; sized at 32,768 tokens meanwhile/);
  u.write("/context\r");
  const un = await u.waitFor(/strategy: [^\n]*\n[^]*> $/);
  t.regex(un, /context window: unknown — no source knows the context window of demo-1 on scripted: set NODWYN_CONTEXT_TOKENS/);
  t.regex(un, /the eviction strategy evicts nothing/);
  u.write("\x04");
  t.is((await u.exit()).code, 0);
});
