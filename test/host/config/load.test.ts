// config.toml: where it is, what it may hold, and every mistake named with its file, line and key.

import test from "ava";
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import {
  BUDGET_DEFAULTS,
  ConfigError,
  configLocation,
  loadConfig,
  parseConfig,
  SHELL_DEFAULTS,
} from "../../../host/config/index.js";

const ISSUE_EXAMPLE = `[servers.local]
kind = "openai"          # or "ollama", "anthropic"
url = "http://127.0.0.1:8080/v1"
key_env = "OPENAI_API_KEY"   # optional: the variable holding the key

[models.small]
server = "local"
model = "qwen2.5-coder:7b"   # the id the server knows
context_window = 32768
price_input = 0.15           # USD per million tokens, optional
price_output = 0.60
price_cached = 0.075

[control]
model = "small"              # the default
`;

function invalid(t: import("ava").ExecutionContext, text: string): ConfigError {
  const e = t.throws(() => parseConfig(text, "/c/config.toml"), { instanceOf: ConfigError });
  return e!;
}

test("NODWYN_CONFIG, else XDG_CONFIG_HOME, else ~/.config", (t) => {
  t.deepEqual(configLocation({ NODWYN_CONFIG: "/a/b.toml", XDG_CONFIG_HOME: "/x", HOME: "/h" }), { path: "/a/b.toml", explicit: true });
  t.deepEqual(configLocation({ XDG_CONFIG_HOME: "/x", HOME: "/h" }), { path: "/x/nodwyn/config.toml", explicit: false });
  t.deepEqual(configLocation({ HOME: "/h" }), { path: "/h/.config/nodwyn/config.toml", explicit: false });
  t.is(configLocation({ XDG_CONFIG_HOME: "rel", HOME: "/h" }).path, "/h/.config/nodwyn/config.toml");
  t.is(configLocation({ NODWYN_CONFIG: "", HOME: "/h" }).path, "/h/.config/nodwyn/config.toml");
  t.is(configLocation({ NODWYN_CONFIG: "c.toml" }).path, resolve("c.toml"));
  t.is(configLocation({}).path, join(homedir(), ".config", "nodwyn", "config.toml"));
});

test("the issue's example reads as written", (t) => {
  const c = parseConfig(ISSUE_EXAMPLE, "/c/config.toml");
  t.deepEqual(c.servers.local, {
    name: "local",
    kind: "openai",
    url: "http://127.0.0.1:8080/v1",
    keyEnv: "OPENAI_API_KEY",
    timeoutMs: 600_000,
    idleTimeoutMs: 300_000,
    retries: 3,
    line: 1,
  });
  t.deepEqual(c.models.small, {
    name: "small",
    server: "local",
    model: "qwen2.5-coder:7b",
    contextWindow: 32768,
    prices: { input: 0.15, output: 0.6, cached: 0.075 },
    line: 6,
  });
  t.is(c.controlModel, "small");
  t.is(c.file, "/c/config.toml");
});

test("budgets and shell settings: defaults, and the file's values", (t) => {
  const d = parseConfig("", "/c/config.toml");
  t.deepEqual(d.budget, {
    modelCalls: BUDGET_DEFAULTS.modelCalls,
    toolCalls: BUDGET_DEFAULTS.toolCalls,
    tokens: BUDGET_DEFAULTS.tokens,
    wallMs: BUDGET_DEFAULTS.wallSeconds * 1000,
    spend: BUDGET_DEFAULTS.spend,
  });
  t.deepEqual(d.shell, { allow: [], timeoutMs: SHELL_DEFAULTS.timeoutSeconds * 1000 });
  const c = parseConfig(
    `[budget]\nmodel_calls = 5\ntool_calls = 9\ntokens = 1000\nwall_seconds = 30\nspend = 0.5\n[shell]\nallow = ["git status", "npm test"]\ntimeout = 10\n`,
    "/c/config.toml",
  );
  t.deepEqual(c.budget, { modelCalls: 5, toolCalls: 9, tokens: 1000, wallMs: 30_000, spend: 0.5 });
  t.deepEqual(c.shell, { allow: ["git status", "npm test"], timeoutMs: 10_000 });
});

test("servers without a url get their kind's default; a trailing slash is dropped", (t) => {
  const c = parseConfig(
    `[servers.o]\nkind = "ollama"\n[servers.a]\nkind = "anthropic"\nkey_env = "ANTHROPIC_API_KEY"\n[servers.p]\nkind = "openai"\nurl = "http://h:1/v1/"\n`,
    "/c/config.toml",
  );
  t.is(c.servers.o!.url, "http://127.0.0.1:11434");
  t.is(c.servers.a!.url, "https://api.anthropic.com");
  t.is(c.servers.p!.url, "http://h:1/v1");
});

test("an unknown key is an error naming the file, the line and the key", (t) => {
  const e = invalid(t, `[servers.local]\nkind = "ollama"\nurll = "http://x"\n`);
  t.is(e.code, "CONFIG_INVALID");
  t.is(e.file, "/c/config.toml");
  t.is(e.line, 3);
  t.is(e.key, "servers.local.urll");
  t.regex(e.message, /^\/c\/config\.toml:3:1: unknown key urll in \[servers\.local\] \(known keys: kind, url, key_env/);
});

test("an unknown top-level table and a key in a dotted or inline form are found too", (t) => {
  const e = invalid(t, `[server.local]\nkind = "ollama"\n`);
  t.regex(e.message, /config\.toml:1:1: unknown key server \(known keys: servers, models, control/);
  const f = invalid(t, `servers.local = { kind = "ollama", colour = "red" }\n`);
  t.is(f.key, "servers.local.colour");
  t.is(f.problems[0]!.col, 36);
});

test("a wrong type names the key, what it must be and what it is", (t) => {
  const e = invalid(t, `[models.small]\nserver = "s"\nmodel = "m"\ncontext_window = "32k"\n[servers.s]\nkind = "ollama"\n`);
  t.is(e.line, 4);
  t.is(e.key, "models.small.context_window");
  t.regex(e.message, /config\.toml:4:1: models\.small\.context_window must be an integer, got a string \("32k"\)/);
  const f = invalid(t, `[shell]\nallow = "git"\n`);
  t.regex(f.message, /2:1: shell\.allow must be an array of strings, got a string/);
  const g = invalid(t, `[budget]\nspend = 1979-05-27\n`);
  t.regex(g.message, /budget\.spend must be a number, got a date/);
});

test("every problem is reported, in the file's order", (t) => {
  const e = invalid(t, `[servers.s]\nkind = "gpt"\nretries = -1\n[models.m]\nserver = "nowhere"\nmodel = 3\n`);
  t.deepEqual(
    e.problems.map((p) => [p.line, p.key]),
    [
      [2, "servers.s.kind"],
      [3, "servers.s.retries"],
      [5, "models.m.server"],
      [6, "models.m.model"],
    ],
  );
  t.is(e.message.split("\n").length, 4);
  t.regex(e.message, /kind must be one of "openai", "ollama", "anthropic", got "gpt"/);
  t.regex(e.message, /models\.m\.server names no \[servers\.nowhere\] \(servers: s\)/);
});

test("control.model must name a model", (t) => {
  const e = invalid(t, `[control]\nmodel = "big"\n`);
  t.is(e.key, "control.model");
  t.regex(e.message, /2:1: control\.model names no \[models\.big\]/);
});

test("options of one kind on another kind's server are refused", (t) => {
  const e = invalid(t, `[servers.s]\nkind = "openai"\nanthropic_version = "2023-06-01"\n`);
  t.regex(e.message, /3:1: servers\.s\.anthropic_version is for kind = "anthropic", not "openai"/);
});

test("a credential in headers or in the url is refused: keys come from key_env", (t) => {
  const e = invalid(t, `[servers.s]\nkind = "openai"\nheaders = { Authorization = "Bearer sk-abc" }\n`);
  t.regex(e.message, /header "Authorization" carries a credential: name the environment variable/);
  const f = invalid(t, `[servers.s]\nkind = "openai"\nurl = "https://me:pw@example.com/v1"\n`);
  t.regex(f.message, /url holds a user name or password/);
  const g = invalid(t, `[servers.s]\nkind = "openai"\nkey_env = "sk-not-a-name"\n`);
  t.regex(g.message, /key_env must be the name of an environment variable/);
});

test("text that is not TOML is CONFIG_SYNTAX at smol-toml's place", (t) => {
  const e = t.throws(() => parseConfig(`[servers.s]\nkind = ollama\n`, "/c/config.toml"), { instanceOf: ConfigError });
  t.is(e!.code, "CONFIG_SYNTAX");
  t.regex(e!.message, /^\/c\/config\.toml:2:\d+: not valid TOML: /);
});

test("[guard] is checked by host/guard: its settings, or each problem at its line", (t) => {
  const c = parseConfig(`[servers.s]\nkind = "ollama"\n\n[guard]\ndeny = ["*.secret"]\nhard_links = "allow"\n`, "/c/config.toml");
  t.deepEqual(c.guard, {
    table: { deny: ["*.secret"], hard_links: "allow" },
    line: 4,
    settings: { hardLinks: "allow", denylist: { add: ["*.secret"] } },
  });
  invalid(t, `guard = 3\n`);
  const e = t.throws(() => parseConfig(`[guard]\ndeny = ["*.secret"]\nanything = { x = 1 }\nallow = ["[oops"]\n`, "/c/config.toml"), { instanceOf: ConfigError });
  t.is(e!.code, "CONFIG_INVALID");
  t.regex(e!.message, /^\/c\/config\.toml:3:1: guard\.anything is not a setting of the guard/m);
  t.regex(e!.message, /^\/c\/config\.toml:4:\d+: guard\.allow\[0\] "\[oops" has a '\[' without its '\]'/m);
});

test("loadConfig: a missing default file is no configuration; a missing NODWYN_CONFIG file is an error", (t) => {
  const dir = mkdtempSync(join(tmpdir(), "nodwyn-config-"));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const none = loadConfig({ env: { XDG_CONFIG_HOME: dir, HOME: dir } });
  t.is(none.file, null);
  t.is(none.path, join(dir, "nodwyn", "config.toml"));
  t.deepEqual(none.models, {});
  const e = t.throws(() => loadConfig({ env: { NODWYN_CONFIG: join(dir, "gone.toml") } }), { instanceOf: ConfigError });
  t.is(e!.code, "CONFIG_UNREADABLE");
  t.regex(e!.message, /gone\.toml: cannot read the configuration: no such file \(NODWYN_CONFIG names it\)/);
  mkdirSync(join(dir, "nodwyn"));
  writeFileSync(join(dir, "nodwyn", "config.toml"), ISSUE_EXAMPLE);
  const c = loadConfig({ env: { XDG_CONFIG_HOME: dir } });
  t.is(c.file, join(dir, "nodwyn", "config.toml"));
  t.is(c.controlModel, "small");
  const d = t.throws(() => loadConfig({ path: dir }), { instanceOf: ConfigError });
  t.regex(d!.message, /a directory, not a file/);
});

test("bounds: an idle_timeout beyond what Node's fetch waits, retries beyond 10, a negative price", (t) => {
  t.regex(invalid(t, `[servers.s]\nkind = "ollama"\nidle_timeout = 600\n`).message, /3:1: servers\.s\.idle_timeout must be at most 300, got 600/);
  t.regex(invalid(t, `[servers.s]\nkind = "ollama"\nretries = 11\n`).message, /retries must be at most 10, got 11/);
  t.regex(
    invalid(t, `[servers.s]\nkind = "ollama"\n[models.m]\nserver = "s"\nmodel = "x"\ncontext_window = 4096\nprice_input = -1\n`).message,
    /7:1: models\.m\.price_input must be at least 0, got -1/,
  );
});

test("[control] compact_threshold: compact.scm's threshold in estimated tokens, a positive integer", (t) => {
  t.is(parseConfig("[control]\ncompact_threshold = 6000\n", "/c.toml").compactThreshold, 6000);
  t.is(parseConfig("[control]\n", "/c.toml").compactThreshold, undefined);
  const e = t.throws(() => parseConfig("[control]\ncompact_threshold = 0\n", "/c.toml"));
  t.regex(String(e?.message), /compact_threshold/);
  t.throws(() => parseConfig('[control]\ncompact_threshold = "big"\n', "/c.toml"));
});
