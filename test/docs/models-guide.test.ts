// docs/guides/models.md stays true: its key tables are config.toml's schema, and every example in it reads.

import test from "ava";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { CONFIG_SCHEMA, parseConfig } from "../../host/config/index.js";
import { loadScript } from "../../host/model/index.js";
import type { Field } from "../../host/toml/index.js";

const root = resolve(new URL(".", import.meta.url).pathname, "..", "..", "..");
const guide = readFileSync(join(root, "docs", "guides", "models.md"), "utf8");

// The keys listed in the table under a "### [section]" heading.
function tableKeys(heading: string): string[] {
  const start = guide.indexOf(`### ${heading}\n`);
  if (start < 0) return [];
  const next = guide.indexOf("\n### ", start + 1);
  const part = guide.slice(start, next < 0 ? undefined : next);
  return [...part.matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1] as string);
}

function schemaKeys(f: Field | undefined): string[] {
  if (!f) return [];
  if (f.type === "named-tables" || f.type === "table-array") return Object.keys(f.each);
  if (f.type === "table") return Object.keys(f.fields);
  return [];
}

test("each table of the guide lists exactly the keys of its schema section, in order", (t) => {
  t.deepEqual(tableKeys("[servers.NAME]"), schemaKeys(CONFIG_SCHEMA.servers));
  t.deepEqual(tableKeys("[models.NAME]"), schemaKeys(CONFIG_SCHEMA.models));
  t.deepEqual(tableKeys("[control]"), schemaKeys(CONFIG_SCHEMA.control));
  t.deepEqual(tableKeys("[budget]"), schemaKeys(CONFIG_SCHEMA.budget));
  t.deepEqual(tableKeys("[shell]"), schemaKeys(CONFIG_SCHEMA.shell));
  t.deepEqual(
    Object.keys(CONFIG_SCHEMA).map((k) => guide.includes(`### [${k}`)),
    Object.keys(CONFIG_SCHEMA).map(() => true),
    "every top-level table has a section",
  );
});

test("every TOML example of the guide is a valid configuration or a valid script; the JSON Lines example reads too", (t) => {
  const dir = mkdtempSync(join(tmpdir(), "nodwyn-guide-"));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const blocks = [...guide.matchAll(/```(toml)?\n([^]*?)```/g)].map((m) => ({ toml: m[1] === "toml", text: m[2] as string }));
  let configs = 0;
  let scripts = 0;
  blocks.forEach((b, i) => {
    if (b.toml && /^\[\[reply\]\]/m.test(b.text)) {
      const f = join(dir, `s${i}.toml`);
      writeFileSync(f, b.text);
      t.true(loadScript(f).replies.length > 0);
      scripts++;
    } else if (b.toml) {
      t.notThrows(() => parseConfig(b.text, `models.md block ${i}`), b.text);
      configs++;
    } else if (b.text.trimStart().startsWith("{")) {
      const f = join(dir, `s${i}.jsonl`);
      writeFileSync(f, b.text);
      t.is(loadScript(f).replies.length, 2);
      scripts++;
    }
  });
  t.true(configs >= 6, `configs ${configs}`);
  t.is(scripts, 2);
});

test("the example script in examples/models reads", (t) => {
  const s = loadScript(join(root, "examples", "models", "hello.toml"));
  t.is(s.model, "hello-script");
  t.is(s.replies[0]!.toolCalls[0]!.name, "index-grep");
});
