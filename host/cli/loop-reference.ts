// The agent loop's part of docs/reference/ (loop.md): the tools offered to the model and the procedures of a strategy, from their tables.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ProcSpec } from "../../interpreter/api.js";
import { fileWritePrimitives, shellExecPrimitive } from "../../primitives/agent/index.js";
import type { ToolDefinition } from "../model/types.js";
import { DEFAULT_SHELL_TIMEOUT_MS } from "../shell/index.js";
import { MAX_SHELL_TIMEOUT_MS } from "../session/agent.js";
import { Session } from "../session/session.js";
import { DEFAULT_EVAL_LIMITS, OutputCapture, modelTools } from "../session/tools.js";
import { strategyPrimitives, type StrategyLoop } from "../session/strategy-api.js";
import { STDLIB_DIR } from "../session/node-interpreter.js";

/** What loop.md shows. */
export interface LoopReference {
  /** The tools as an agent session offers them, in order. */
  readonly tools: readonly ToolDefinition[];
  /** The strategy procedures of host/session/strategy-api.ts. */
  readonly procedures: readonly Pick<ProcSpec, "name" | "params" | "doc" | "async">[];
  /** The accessors written in Scheme in stdlib/nodwyn/strategy.sld: name, signature, comment. */
  readonly accessors: readonly { readonly name: string; readonly params: readonly string[]; readonly doc: string }[];
}

/** The `(define (name . params) …)` forms of strategy.sld with the `;;` lines above each (one group may document several). */
function accessors(): LoopReference["accessors"] {
  const lines = readFileSync(join(STDLIB_DIR, "nodwyn", "strategy.sld"), "utf8").split("\n");
  const out: { name: string; params: string[]; doc: string }[] = [];
  let comment: string[] = [];
  for (const raw of lines) {
    const l = raw.trim();
    if (l.startsWith(";;") && !l.startsWith(";;;")) {
      comment.push(l.replace(/^;;\s?/, ""));
      continue;
    }
    const m = /^\(define \(([^\s()]+)((?:\s+[^\s()]+)*)\)/.exec(l);
    if (m !== null) {
      const params = (m[2] ?? "").trim().split(/\s+/).filter(Boolean);
      const dot = params.indexOf(".");
      if (dot >= 0) params.splice(dot, 2, `[${params[dot + 1]}]`);
      out.push({ name: m[1] as string, params, doc: comment.join(" ") });
      continue; // a group's comment stays for the definitions that follow it directly
    }
    comment = [];
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : 1));
}

/** Collects loop.md's content from a session over `root` (a throw-away repository). */
export async function collectLoopReference(root: string): Promise<LoopReference> {
  const quiet = { write: () => {} };
  const shell = shellExecPrimitive({ defaultTimeoutMs: DEFAULT_SHELL_TIMEOUT_MS, maxTimeoutMs: MAX_SHELL_TIMEOUT_MS, run: async () => ({ refused: "not in the reference" }) });
  const writes = fileWritePrimitives({ read: async () => "", write: async () => ({ refused: "not in the reference", code: "not-approved" }) });
  const session = await Session.open({ origin: "docs", cwd: root, root, log: false, sandbox: true, actor: "model", stdout: quiet, stderr: quiet, extraPrimitives: [shell, ...writes] });
  try {
    const tools = modelTools(session, { output: new OutputCapture(), evalLimits: DEFAULT_EVAL_LIMITS }).map((t) => t.definition);
    const procedures = strategyPrimitives(null as unknown as StrategyLoop).map((s) => ({ name: s.name, params: s.params, doc: s.doc, ...(s.async ? { async: true } : {}) }));
    return { tools, procedures, accessors: accessors() };
  } finally {
    session.close();
  }
}

/** loop.md, given the rendering helpers of the generator (Markdown escaping, code fences, anchors). */
export function renderLoop(
  ref: LoopReference,
  h: { header: (title: string, intro: string[]) => string[]; md: (s: string) => string; fence: (lang: string, text: string) => string; anchor: (name: string) => string },
): string {
  const out = h.header("The agent loop: tools and strategy procedures", [
    "What `nodwyn chat`, `ask` and `resume` offer the model, and what a strategy drives a turn with " +
      "(docs/guides/strategies.md explains both). The tools are generated from their table entries: the eval tool " +
      "(host/session/tools.ts) and every agent primitive with a tool view (primitives/agent/), in the order offered; " +
      "a tool's arguments are its procedure's parameters.",
  ]);
  out.push("## Tools offered to the model", "");
  out.push("| Tool | Arguments | Description |", "|---|---|---|");
  for (const t of ref.tools) {
    const props = Object.keys(((t.inputSchema as { properties?: object }).properties ?? {}) as object);
    out.push(`| [\`${t.name}\`](#tool-${h.anchor(t.name)}) | ${props.map((p) => `\`${p}\``).join(", ")} | ${h.md(t.description.split(/(?<=\.)\s/)[0] ?? "")} |`);
  }
  out.push("");
  for (const t of ref.tools) {
    out.push(`<a id="tool-${h.anchor(t.name)}"></a>`, "", `### \`${t.name}\``, "", h.md(t.description), "", "Input schema:", "", h.fence("json", JSON.stringify(t.inputSchema, null, 2)), "");
  }
  out.push("## Strategy procedures", "", "Defined in a strategy's interpreter only, and exported by `(nodwyn strategy)` with the accessors below.", "");
  for (const p of ref.procedures) {
    out.push(`<a id="${h.anchor(p.name)}"></a>`, "", `### \`${p.name}\``, "", `\`(${[p.name, ...p.params].join(" ")})\`${p.async ? " — asynchronous" : ""}`, "", h.md(p.doc), "");
  }
  out.push("## Accessors", "", "Written in Scheme in `stdlib/nodwyn/strategy.sld`.", "", "| Procedure | Does |", "|---|---|");
  for (const a of ref.accessors) out.push(`| \`(${[a.name, ...a.params].join(" ")})\` | ${h.md(a.doc)} |`);
  return out.join("\n") + "\n";
}
