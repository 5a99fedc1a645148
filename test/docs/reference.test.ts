// docs/reference/ is generated: it must match what the generator makes from the live tables, and cover every procedure.
import test from "ava";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Procedure } from "../../interpreter/api.js";
import { Session } from "../../host/session/session.js";
import { REFERENCE_FILES, REPO_ROOT, GENERATED_NOTICE, anchorOf, generateReference, summaryOf } from "../../host/cli/gen-reference.js";

const REFERENCE_DIR = join(REPO_ROOT, "docs", "reference");

function firstDifference(a: string, b: string): string {
  const la = a.split("\n");
  const lb = b.split("\n");
  for (let i = 0; i < Math.max(la.length, lb.length); i++) {
    if (la[i] !== lb[i]) return `line ${i + 1}:\n  committed: ${la[i] ?? "(end of file)"}\n  generated: ${lb[i] ?? "(end of file)"}`;
  }
  return "";
}

test("docs/reference/ is exactly what `npm run docs` generates from the current tables", async (t) => {
  const out = mkdtempSync(join(tmpdir(), "nodwyn-reference-test-"));
  try {
    await generateReference(out);
    const committed = readdirSync(REFERENCE_DIR).filter((f) => f.endsWith(".md")).sort();
    t.deepEqual(committed, [...REFERENCE_FILES].sort(), "docs/reference/ holds other files than the generated ones: run npm run docs");
    for (const f of REFERENCE_FILES) {
      const want = readFileSync(join(out, f), "utf8");
      const have = readFileSync(join(REFERENCE_DIR, f), "utf8");
      if (have !== want) t.fail(`docs/reference/${f} is out of date: run npm run docs (first difference at ${firstDifference(have, want)})`);
      else t.pass();
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test("generating twice gives the same files (no timestamps, no temp paths, sorted)", async (t) => {
  const a = mkdtempSync(join(tmpdir(), "nodwyn-reference-a-"));
  const b = mkdtempSync(join(tmpdir(), "nodwyn-reference-b-"));
  try {
    await generateReference(a);
    await generateReference(b);
    for (const f of REFERENCE_FILES) {
      const text = readFileSync(join(a, f), "utf8");
      t.is(text, readFileSync(join(b, f), "utf8"), f);
      t.true(text.startsWith(GENERATED_NOTICE + "\n"), `${f} starts with the generated-file notice`);
      t.false(text.includes(tmpdir() + "/nodwyn-"), `${f} names no temporary directory`);
    }
  } finally {
    rmSync(a, { recursive: true, force: true });
    rmSync(b, { recursive: true, force: true });
  }
});

test("every procedure bound in a session's interaction environment is in the reference, with a documentation", async (t) => {
  const index = readFileSync(join(REFERENCE_DIR, "README.md"), "utf8");
  // Index rows: | [`name`](file.md#anchor) | `(signature)` | summary |
  const rows = new Map<string, { file: string; anchor: string; summary: string }>();
  for (const m of index.matchAll(/^\| \[`([^`]+)`\]\(([a-z]+\.md)#([a-z0-9-]+)\) \| `[^`]*` \| (.*) \|$/gm)) {
    rows.set(m[1] as string, { file: m[2] as string, anchor: m[3] as string, summary: (m[4] as string).trim() });
  }
  const root = mkdtempSync(join(tmpdir(), "nodwyn-reference-root-"));
  const quiet = { write: () => {} };
  const session = await Session.open({ origin: "test", cwd: root, root, log: false, stdout: quiet, stderr: quiet });
  try {
    const names: string[] = [];
    for (const [sym, b] of session.interp.interactionEnvironment().table) {
      if (sym.name.startsWith("%") || b.k !== "global" || !(b.cell.v instanceof Procedure)) continue;
      names.push(sym.name);
    }
    t.true(names.length > 300, `the interaction environment has ${names.length} procedures`);
    for (const name of ["car", "map", "fs-read", "index-grep", "condition-kind", "current-output-port", "promise?"]) {
      t.true(names.includes(name), `${name} is one of them`);
    }
    // register-check exists only in the checkers' own interpreter, and the reference still documents it.
    t.false(names.includes("register-check"));
    t.true(rows.has("register-check"));
    const missing = names.filter((n) => !rows.has(n));
    t.deepEqual(missing, [], "procedures missing from docs/reference/README.md");
    const texts = new Map(REFERENCE_FILES.map((f) => [f as string, readFileSync(join(REFERENCE_DIR, f), "utf8")]));
    for (const name of names) {
      const row = rows.get(name);
      if (row === undefined) continue;
      t.not(row.summary, "", `${name} has a one-line summary`);
      t.is(row.anchor, anchorOf(name));
      const text = texts.get(row.file) ?? "";
      const at = text.indexOf(`<a id="${row.anchor}"></a>`);
      t.true(at >= 0, `${row.file} has the entry of ${name}`);
      // The entry: anchor, heading, signature line, then the documentation paragraph.
      const para = text.slice(at).split("\n\n")[3] ?? "";
      t.true(para.trim().length > 0 && !para.startsWith("<a id="), `${name} has documentation in ${row.file}`);
    }
    t.is(rows.size, names.length + 1, "the index lists nothing that is not bound (but register-check)");
  } finally {
    session.close();
    rmSync(root, { recursive: true, force: true });
  }
});

test("a summary is the doc's first sentence; a dotted pair or e.g. does not end it", (t) => {
  t.is(summaryOf("Returns ((path . p) (line . n)): the lines. More text."), "Returns ((path . p) (line . n)): the lines.");
  t.is(summaryOf("Globs, e.g. *.ts, are matched. Then more."), "Globs, e.g. *.ts, are matched.");
  t.is(summaryOf("No full stop at all"), "No full stop at all");
  t.is(summaryOf("Ends with 1.5 inside. Second."), "Ends with 1.5 inside.");
});

test("anchors of names with punctuation are readable and distinct", (t) => {
  t.is(anchorOf("string->number"), "string-to-number");
  t.is(anchorOf("char-ci<=?"), "char-ci-lt-eq-p");
  t.is(anchorOf("set-car!"), "set-car-bang");
  t.is(anchorOf("call/cc"), "call-slash-cc");
  t.is(anchorOf("-"), "minus");
  t.not(anchorOf("="), anchorOf("eq?"));
});
