// Finding 10 of issue 11: reading N forms with places leaves no per-form entry in a weak table, whose cost in V8 grows superlinearly.
//
// The reader used to keep each form's place in a WeakMap keyed by its first pair; V8's
// ephemeron tables made 10^6 characters of "`," take 5.8 s, each doubling of the input
// costing about 3x. Time is not asserted here (test/bench/reader-scaling.mjs measures it
// under `npm run fuzz`); what is asserted is the cause, counted exactly: a heap snapshot
// names every live WeakMap entry ("… pair in WeakMap …"), so a child process reads N forms,
// keeps them alive and counts those entries before and after. On the old reader the count
// grew by one entry per form; now it must not grow at all.
import test from "ava";
import { spawnSync } from "node:child_process";

const READER = new URL("../../../interpreter/reader/reader.js", import.meta.url).href;
const SYMBOLS = new URL("../../../interpreter/values/symbol.js", import.meta.url).href;

const CHILD = `
import v8 from "node:v8";
const { Reader, locationOf } = await import(${JSON.stringify(READER)});
const { SymbolTable } = await import(${JSON.stringify(SYMBOLS)});
async function weakEntries() {
  const parts = [];
  for await (const c of v8.getHeapSnapshot()) parts.push(c);
  const s = JSON.parse(Buffer.concat(parts).toString("utf8"));
  const m = s.snapshot.meta, width = m.edge_fields.length, types = m.edge_types[0];
  let n = 0;
  for (let j = 0; j < s.edges.length; j += width) {
    const t = types[s.edges[j]];
    if (t === "element" || t === "hidden") continue;
    const name = s.strings[s.edges[j + 1]];
    if (typeof name === "string" && name.includes("pair in WeakMap")) n++;
  }
  return n;
}
const shape = process.argv[1];
const n = Number(process.argv[2]);
const text = shape === "quasi" ? "\`,".repeat(n - 1) + "\`x" : "(" + "(a) ".repeat(n) + ")";
new Reader("(warm 'up)", { symbols: new SymbolTable(), file: "warm.scm" }).readAll();
const before = await weakEntries();
const data = new Reader(text, { symbols: new SymbolTable(), file: "forms.scm" }).readAll();
const after = await weakEntries();
const located = locationOf(data[0]);
process.stdout.write(JSON.stringify({ before, after, line: located?.line, forms: data.length }));
`;

const N = 20_000;

for (const shape of ["quasi", "lists"]) {
  test(`reading ${N} ${shape === "quasi" ? "nested ` and , forms" : "lists"} with places adds no WeakMap entries`, (t) => {
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", CHILD, shape, String(N)], {
      encoding: "utf8",
      timeout: 120_000,
    });
    t.is(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout) as { before: number; after: number; line?: number; forms: number };
    t.is(out.forms, 1);
    t.is(out.line, 1, "the form still knows where it was read");
    // A few entries may come and go with Node's own bookkeeping; one per form would be >= N.
    t.true(out.after - out.before < 100, `weak-table entries grew from ${out.before} to ${out.after}`);
  });
}
