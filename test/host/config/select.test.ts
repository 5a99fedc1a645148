// Choosing the session's model: --model, NODWYN_MODEL, [control], the only entry, scripted:FILE; and the explanation with no configuration.

import test from "ava";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigError, emptyConfig, noConfigHelp, parseConfig, selectModel, OLLAMA_EXAMPLE, OPENAI_EXAMPLE } from "../../../host/config/index.js";

const TWO = `[servers.local]
kind = "ollama"
[servers.cloud]
kind = "openai"
key_env = "OPENAI_API_KEY"
timeout = 30
retries = 1
[models.small]
server = "local"
model = "qwen2.5-coder:7b"
context_window = 32768
[models.big]
server = "cloud"
model = "gpt-4o"
context_window = 128000
max_output_tokens = 2048
temperature = 0.2
price_input = 2.5
price_output = 10
[control]
model = "small"
`;

const config = parseConfig(TWO, "/c/config.toml");

test("[control] model is the default; NODWYN_MODEL overrides it; --model overrides both", (t) => {
  t.is(selectModel(config, { env: {} }).name, "small");
  t.is(selectModel(config, { env: {} }).source, "control");
  t.is(selectModel(config, { env: { NODWYN_MODEL: "big" } }).name, "big");
  t.is(selectModel(config, { env: { NODWYN_MODEL: "big" } }).source, "env");
  const f = selectModel(config, { flag: "small", env: { NODWYN_MODEL: "big" } });
  t.is(f.name, "small");
  t.is(f.source, "flag");
});

test("the choice carries the provider spec, server, url, context window and prices", (t) => {
  const c = selectModel(config, { flag: "big", env: {} });
  t.deepEqual(c, {
    name: "big",
    source: "flag",
    server: "cloud",
    url: "https://api.openai.com/v1",
    model: "gpt-4o",
    contextWindow: 128000,
    contextSource: "config",
    contextWhere: "/c/config.toml [models.big]",
    maxOutputTokens: 2048,
    prices: { input: 2.5, output: 10 },
    spec: {
      kind: "openai",
      server: "cloud",
      url: "https://api.openai.com/v1",
      model: "gpt-4o",
      contextWindow: 128000,
      keyEnv: "OPENAI_API_KEY",
      maxOutputTokens: 2048,
      temperature: 0.2,
      timeoutMs: 30_000,
      idleTimeoutMs: 300_000,
      retries: 1,
    },
  });
});

test("an unknown name says which names there are", (t) => {
  const e = t.throws(() => selectModel(config, { flag: "huge", env: {} }), { instanceOf: ConfigError });
  t.is(e!.code, "CONFIG_UNKNOWN_MODEL");
  t.regex(e!.message, /--model names "huge", which is not a \[models\.NAME\] entry of \/c\/config\.toml \(models: small, big\); or use scripted:FILE/);
  const f = t.throws(() => selectModel(config, { env: { NODWYN_MODEL: "huge" } }), { instanceOf: ConfigError });
  t.regex(f!.message, /^NODWYN_MODEL names "huge"/);
});

test("without [control], the only model is the default; with several, the error says to choose", (t) => {
  const one = parseConfig(`[servers.s]\nkind = "ollama"\n[models.m]\nserver = "s"\nmodel = "x"\ncontext_window = 4096\n`, "/c/c.toml");
  t.is(selectModel(one, { env: {} }).source, "only");
  const two = parseConfig(TWO.replace(/\[control\][^]*$/, ""), "/c/c.toml");
  const e = t.throws(() => selectModel(two, { env: {} }), { instanceOf: ConfigError });
  t.is(e!.code, "CONFIG_NO_MODEL");
  t.regex(e!.message, /no default model: set \[control\] model to one of small, big/);
});

test("with no configuration, the error is the paragraph on writing one, with an Ollama and an OpenAI example", (t) => {
  const e = t.throws(() => selectModel(emptyConfig("/home/u/.config/nodwyn/config.toml"), { env: {} }), { instanceOf: ConfigError });
  t.is(e!.code, "CONFIG_NO_MODEL");
  t.is(e!.message, noConfigHelp("/home/u/.config/nodwyn/config.toml"));
  t.true(e!.message.startsWith("No model is configured. nodwyn reads /home/u/.config/nodwyn/config.toml"));
  t.true(e!.message.includes(OLLAMA_EXAMPLE));
  t.true(e!.message.includes(OPENAI_EXAMPLE));
  // The examples are themselves valid configurations naming a default model.
  for (const ex of [OLLAMA_EXAMPLE, OPENAI_EXAMPLE]) t.is(selectModel(parseConfig(ex, "/x.toml"), { env: {} }).source, "control");
});

test("scripted:FILE reads and checks the script; a relative one in [control] is taken from the config's folder", (t) => {
  const dir = mkdtempSync(join(tmpdir(), "nodwyn-select-"));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, "demo.toml"), `model = "demo-1"\ncontext_window = 8192\n[[reply]]\ntext = "hi"\n`);
  const c = selectModel(emptyConfig(), { flag: "scripted:demo.toml", env: {}, cwd: dir });
  t.deepEqual(c, {
    name: "scripted:demo.toml",
    source: "flag",
    spec: { kind: "scripted", file: join(dir, "demo.toml"), server: "scripted" },
    server: "scripted",
    url: join(dir, "demo.toml"),
    model: "demo-1",
    contextWindow: 8192,
    contextSource: "config",
    contextWhere: join(dir, "demo.toml"),
  });
  const fromControl = parseConfig(`[control]\nmodel = "scripted:demo.toml"\n`, join(dir, "config.toml"));
  t.is(selectModel(fromControl, { env: {}, cwd: "/" }).url, join(dir, "demo.toml"));
  const e = t.throws(() => selectModel(emptyConfig(), { flag: "scripted:missing.toml", env: {}, cwd: dir }), { instanceOf: ConfigError });
  t.is(e!.code, "CONFIG_SCRIPT");
  t.regex(e!.message, /missing\.toml: cannot read the script: no such file/);
});
