// Fails when a layer imports past its boundary or when imports form a cycle.
//
// Rules (docs/architecture.md): primitives/ and host/ reach the interpreter only
// through interpreter/api.ts; interpreter/ imports nothing from primitives/ or
// host/; host services other than the composition root (host/session, host/cli)
// do not import the interpreter or primitives.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, dirname, resolve, relative, sep } from "node:path";

const root = resolve(dirname(new URL(import.meta.url).pathname), "..");
const layers = ["interpreter", "primitives", "host"];
const files = [];
function walk(d) {
  for (const name of readdirSync(d)) {
    const p = join(d, name);
    if (statSync(p).isDirectory()) walk(p);
    else if (p.endsWith(".ts") && !p.endsWith(".d.ts")) files.push(p);
  }
}
for (const l of layers) walk(join(root, l));

const importRe = /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;
const problems = [];
const graph = new Map();
for (const f of files) {
  const rel = relative(root, f).split(sep).join("/");
  const layer = rel.split("/")[0];
  const src = readFileSync(f, "utf8");
  const deps = [];
  for (const m of src.matchAll(importRe)) {
    const spec = m[1] ?? m[2];
    if (!spec.startsWith(".")) continue;
    const target = relative(root, resolve(dirname(f), spec.replace(/\.js$/, ".ts"))).split(sep).join("/");
    deps.push(target);
    const tlayer = target.split("/")[0];
    if (layer === "interpreter" && (tlayer === "primitives" || tlayer === "host"))
      problems.push(`${rel}: the interpreter must not import ${target}`);
    if ((layer === "primitives" || layer === "host") && tlayer === "interpreter" && target !== "interpreter/api.ts")
      problems.push(`${rel}: reach the interpreter through interpreter/api.ts, not ${target}`);
    if (layer === "host" && !/^host\/(session|cli)\//.test(rel) && (tlayer === "interpreter" || tlayer === "primitives"))
      problems.push(`${rel}: a host service must not import ${target} (only host/session and host/cli wire the interpreter)`);
    if (layer === "primitives" && tlayer === "host" && !src.includes("import type"))
      problems.push(`${rel}: primitives may import host services as types only (${target})`);
  }
  graph.set(rel, deps);
}

// Cycle check over value imports between files (type-only imports are erased, but keep the graph simple and strict).
const state = new Map();
const stack = [];
function visit(n) {
  state.set(n, 1);
  stack.push(n);
  for (const d of graph.get(n) ?? []) {
    if (!graph.has(d)) continue;
    const s = state.get(d);
    if (s === 1) problems.push(`import cycle: ${[...stack.slice(stack.indexOf(d)), d].join(" -> ")}`);
    else if (s === undefined) visit(d);
  }
  stack.pop();
  state.set(n, 2);
}
for (const n of graph.keys()) if (!state.has(n)) visit(n);

if (problems.length) {
  console.error(problems.join("\n"));
  process.exit(1);
}
console.log(`boundaries ok (${files.length} files)`);
