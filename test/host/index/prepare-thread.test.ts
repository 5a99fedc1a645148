// The index's preparing thread: a large refresh stores exactly what one prepared in the main thread stores, secrets redacted alike.
import test from "ava";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { projectPaths, readManifest } from "../../../host/index/index.js";
import { DEFAULT_RULES, Redactor } from "../../../host/redact/index.js";
import { makeRepo, openIndex } from "./repo.js";

const AWS_KEY = "AKIAIOSFODNN7EXAMPLQ";
const REGISTERED = "hunter2-registered-credential-value";
const PEM = [
  "-----BEGIN RSA PRIVATE KEY-----",
  "MIIEowIBAAKCAQEA0Z3VS5JJcds3xfn/ygWyF8PbnGy0AHB7MhgHcTz6sE2I2yPB",
  "aZlqNpTU8aKvUbTJaY3Ws5hB5rXCLeTxsNxkTJz+QkUlpPJfiI6Yqyx7KQbHnAKQ",
  "-----END RSA PRIVATE KEY-----",
].join("\n");

/** 260 files (255 of them text, past the thread's 200): code, Markdown, CRLF, a BOM, secrets of three kinds, a binary and a protected file. */
function corpus(): Record<string, string | Uint8Array> {
  const files: Record<string, string | Uint8Array> = {};
  for (let i = 0; i < 250; i++) {
    const body = Array.from({ length: 15 + (i % 70) }, (_, k) => `  const value${k} = parseHTTPHeader_${i}(input, "line ${k}");`).join("\n");
    files[`src/dir${i % 7}/module${String(i).padStart(3, "0")}.ts`] = `export function handler${i}Alpha(input: string) {\n${body}\n}\n\nexport class Second${i}Beta {}\n`;
  }
  files["docs/guide.md"] = "# Guide\n\nSome text.\n\n## Second heading\n\nMore text about the index.\n";
  files["crlf.txt"] = "first line\r\nsecond line\r\nthird\r\n";
  files["bom.ts"] = "\ufeffexport const withBom = 1;\n";
  files["config/aws.ts"] = `const region = "eu";\nconst key = "${AWS_KEY}";\n${PEM}\nexport function afterTheKey() {}\n`;
  files["config/registered.txt"] = `the credential is ${REGISTERED} here\nand a second line\n`;
  files["image.bin"] = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]);
  files[".env"] = "SECRET=1\n";
  return files;
}

test("a refresh of 200 files or more prepares in a thread and stores row for row what the main thread stores; secrets never stored", async (t) => {
  const repo = makeRepo(corpus());
  t.teardown(repo.cleanup);
  const built = [];
  for (const threadMinFiles of [200, Number.POSITIVE_INFINITY]) {
    const redactor = new Redactor();
    redactor.registerSecret(REGISTERED);
    const dataDir = join(repo.base, `data-${threadMinFiles}`);
    const o = openIndex(repo.root, dataDir, { redactor, threadMinFiles });
    try {
      const r = await o.index.update();
      const store = (o.index as any).store;
      const p = projectPaths(repo.root, dataDir);
      const m = readManifest(join(p.indexDir, "trees", `${p.treeKey}.manifest`));
      if (m === null || m === "damaged") throw new Error(`manifest ${m}`);
      built.push({
        report: { files: r.files, read: r.read, skipped: r.skipped, refused: r.refused },
        inThread: o.index.preparedInThread,
        dump: store.dump(),
        manifest: [...m.files].map(([path, e]) => [path, e.state, e.hash, e.chunks]),
        decisions: o.decisions.length,
        hits: (await o.index.search("parse http header handler 17", { limit: 10, fresh: false })).hits,
        secretHit: (await o.index.search("credential after the key region", { limit: 5, fresh: false })).hits,
      });
      for (const f of readdirSync(p.indexDir)) {
        if (!f.startsWith("index.")) continue;
        const bytes = readFileSync(join(p.indexDir, f)).toString("latin1").toLowerCase();
        t.false(bytes.includes(AWS_KEY.toLowerCase()), `${f} holds the key`);
        t.false(bytes.includes("fodnn"), `${f} holds a piece of the key`);
        t.false(bytes.includes("hunter"), `${f} holds a piece of the registered secret`);
        t.false(bytes.includes("kcaqea0z3vs5jjcds3xfn"), `${f} holds the private key's text`);
      }
    } finally {
      o.index.close();
    }
  }
  const [thread, main] = built as [any, any];
  t.is(thread.inThread, 255, "every text file was prepared by the thread");
  t.is(main.inThread, 0);
  t.is(thread.report.files, 255);
  t.deepEqual(thread.report, main.report);
  t.deepEqual(thread.manifest, main.manifest);
  t.deepEqual(thread.dump, main.dump);
  t.true(thread.dump.words.length > 1000);
  t.is(thread.decisions, main.decisions, "every file logged its guard decision either way");
  t.true(thread.decisions >= 257, String(thread.decisions));
  t.deepEqual(thread.hits, main.hits);
  t.true(thread.hits.length > 0);
  const shown = JSON.stringify(thread.secretHit);
  t.true(shown.includes("[REDACTED:"), shown);
  t.false(shown.includes(AWS_KEY) || shown.includes(REGISTERED));
});

test("only a redactor of the default rules can be made again in a thread: its registered secrets are what it needs", (t) => {
  const r = new Redactor();
  t.deepEqual(r.threadSpec(), { secrets: [] });
  r.registerSecret(REGISTERED);
  t.deepEqual(r.threadSpec(), { secrets: [REGISTERED] });
  t.is(new Redactor({ rules: DEFAULT_RULES.slice(1) }).threadSpec(), null);
});

test("with a redactor of its own rules, a large refresh prepares in the main thread and still redacts by those rules", async (t) => {
  const repo = makeRepo(corpus());
  t.teardown(repo.cleanup);
  const redactor = new Redactor({ rules: [{ name: "greek", doc: "the word Beta", patterns: ["()(Beta)()"] }] });
  const o = openIndex(repo.root, repo.dataDir, { redactor, threadMinFiles: 200 });
  t.teardown(() => o.index.close());
  const r = await o.index.update();
  t.is(r.files, 255);
  t.is(o.index.preparedInThread, 0);
  const words: string[] = (o.index as any).store.dump().words;
  t.true(words.some((w) => / greek \d+$/.test(w)), "the placeholder's words stand where Beta was");
  t.false(words.some((w) => / beta \d+$/.test(w)), "the rule's secret is not stored");
  t.true(words.some((w) => / alpha \d+$/.test(w)));
});
