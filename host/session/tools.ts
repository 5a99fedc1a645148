// The tools offered to the model: the eval tool, and every agent primitive whose table entry has a tool view.
//
// A tool definition is generated from its table entry (primitives/agent/tool.ts):
// adding a model tool is adding an AgentToolSpec to the primitives a session
// registers; this module finds them in the session's interpreter. Running one
// never throws: a failing tool is a result marked as an error, with text the
// model can read.

import { Condition, DEFAULT_MEMORY_BYTES, Procedure, formatRaised, type Interpreter } from "../../interpreter/api.js";
import { toolArgName, toolCallArgs, type AgentToolSpec } from "../../primitives/agent/index.js";
import type { ToolDefinition } from "../model/types.js";
import { clipMiddle } from "../window/index.js";
import { showValue, type Session } from "./session.js";

/** What running one tool call gave: the text the model reads (output, then the error when it failed). */
export interface ToolRunResult {
  readonly ok: boolean;
  /** The tool's text, whole (the window may clip it). */
  readonly output?: string;
  readonly error?: string;
  /** The tool left part of its output out (an output cap). */
  readonly truncated?: boolean;
}

/** A tool as the loop runs it. */
export interface ModelTool {
  readonly definition: ToolDefinition;
  run(input: Record<string, unknown>, o: { readonly signal: AbortSignal }): Promise<ToolRunResult>;
}

/** The limits of one evaluation of the eval tool, unless the session sets others. */
export const DEFAULT_EVAL_LIMITS = Object.freeze({ steps: 10_000_000, timeoutMs: 30_000 });

/** Characters of an evaluation's printed output and of its value the eval tool keeps. */
export const EVAL_OUTPUT_CHARS = 32_000;
export const EVAL_VALUE_CHARS = 32_000;

/** The eval tool's definition (docs/reference/tools.md shows it with the others). */
export function evalToolDefinition(limits: { readonly steps: number; readonly timeoutMs: number; readonly memoryBytes?: number }): ToolDefinition {
  return {
    name: "eval",
    description:
      "Evaluate Scheme (R7RS) forms in this session's interpreter: a REPL whose definitions persist from call to call. " +
      "The agent procedures are in scope: (fs-read path [start count]), (fs-find path [glob]), (index-grep path pattern [glob context]), " +
      "(shell-exec command [timeout-seconds]), and every other tool. You read what the forms printed, then `=> ` and the " +
      `value of the last form, or the error. Limits per call: ${limits.steps} steps, ${limits.timeoutMs / 1000} s, ` +
      `${Math.round((limits.memoryBytes ?? DEFAULT_MEMORY_BYTES) / 1048576)} MiB of memory, ${EVAL_OUTPUT_CHARS} characters of output.`,
    inputSchema: {
      type: "object",
      properties: { code: { type: "string", description: "One or more Scheme forms, e.g. (vector-length (cdr (assq 'files (fs-find \"src\" \"*.ts\"))))." } },
      required: ["code"],
      additionalProperties: false,
    },
  };
}

/** The agent primitives of an interpreter that are model tools, by name. */
export function agentToolSpecs(interp: Interpreter): AgentToolSpec[] {
  const out: AgentToolSpec[] = [];
  for (const [sym, b] of interp.builtins.table) {
    if (b.k !== "global" || sym.name.startsWith("%")) continue;
    const p = b.cell.v;
    if (!(p instanceof Procedure)) continue;
    const d = p.data as AgentToolSpec | null;
    if (d !== null && typeof d === "object" && typeof d.render === "function" && typeof d.tool === "object") out.push(d);
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** A primitive's definition as offered. */
export function toolDefinitionOf(spec: AgentToolSpec): ToolDefinition {
  return { name: spec.name, description: spec.tool.description, inputSchema: spec.tool.inputSchema };
}

/** Collects what the model's evaluations print (the session's console), up to a cap. */
export class OutputCapture {
  private parts: string[] = [];
  private kept = 0;
  dropped = 0;
  readonly sink = {
    write: (c: string | Uint8Array) => {
      const s = typeof c === "string" ? c : Buffer.from(c).toString("utf8");
      const room = EVAL_OUTPUT_CHARS - this.kept;
      if (room <= 0) {
        this.dropped += s.length;
        return;
      }
      const part = s.length <= room ? s : s.slice(0, room);
      this.parts.push(part);
      this.kept += part.length;
      this.dropped += s.length - part.length;
    },
  };
  take(): { text: string; dropped: number } {
    const r = { text: this.parts.join(""), dropped: this.dropped };
    this.parts = [];
    this.kept = 0;
    this.dropped = 0;
    return r;
  }
}

function cap(text: string, max: number): { text: string; cut: boolean } {
  return text.length <= max ? { text, cut: false } : { text: clipMiddle(text, Math.floor(max / 4), max - Math.floor(max / 4)), cut: true };
}

/** The tools of an agent session, in the order offered: eval first, then the primitives by name. */
export function modelTools(
  session: Session,
  o: { readonly output: OutputCapture; readonly evalLimits: { readonly steps: number; readonly timeoutMs: number; readonly memoryBytes?: number }; readonly toolSteps?: number },
): ModelTool[] {
  const evalTool: ModelTool = {
    definition: evalToolDefinition(o.evalLimits),
    async run(input, { signal }) {
      const code = input.code;
      if (typeof code !== "string") return { ok: false, error: "eval needs a string argument code (Scheme forms)" };
      o.output.take();
      const out = await session.evaluate(code, { file: "<eval>", origin: "model", limits: { ...o.evalLimits, signal } });
      const printed = o.output.take();
      let text = printed.text;
      if (printed.dropped > 0) text += `\n[… ${printed.dropped} more characters of output not kept]`;
      if (text && !text.endsWith("\n")) text += "\n";
      if (!out.ok) return { ok: false, ...(text ? { output: text.replace(/\n$/, "") } : {}), error: formatRaised(out.error), truncated: printed.dropped > 0 };
      const value = cap(showValue(out.value), EVAL_VALUE_CHARS);
      text += value.text ? `=> ${value.text}` : text ? "" : "=> (no value)";
      return { ok: true, output: text.replace(/\n$/, ""), truncated: printed.dropped > 0 || value.cut };
    },
  };
  const prims = agentToolSpecs(session.interp).map((spec): ModelTool => {
    const names = spec.toolArgs !== undefined ? Object.keys((spec.tool.inputSchema as { properties?: object }).properties ?? {}) : spec.params.map(toolArgName);
    return {
      definition: toolDefinitionOf(spec),
      async run(input, { signal }) {
        const unknown = Object.keys(input).filter((k) => !names.includes(k));
        if (unknown.length > 0) return { ok: false, error: `${spec.name} has no argument ${unknown.map((k) => JSON.stringify(k)).join(", ")}; its arguments are ${names.join(", ")}` };
        let args: any[];
        try {
          args = spec.toolArgs !== undefined ? spec.toolArgs(session.interp.ctx, input) : toolCallArgs(session.interp.ctx, spec, input);
        } catch (e) {
          return { ok: false, error: (e as Error).message };
        }
        const proc = session.interp.lookup(spec.name);
        if (!(proc instanceof Procedure)) return { ok: false, error: `${spec.name} is not defined in this session` };
        // The signal goes to the primitive (a command is killed, a search stops, each saying so), not to the call.
        const out = await session.callProcedure(proc, args, { steps: o.toolSteps ?? 10_000_000 }, signal);
        if (!out.ok) return { ok: false, error: out.condition instanceof Condition ? formatRaised(out.condition) : formatRaised(out.error) };
        try {
          const text = spec.render(out.value);
          const failed = spec.failed?.(out.value) ?? null;
          return failed === null ? { ok: true, output: text } : { ok: false, output: text, error: failed };
        } catch (e) {
          return { ok: false, error: `${spec.name}: its result could not be shown: ${(e as Error).message}` };
        }
      },
    };
  });
  return [evalTool, ...prims];
}

/** The arguments of a tool call as the model wrote them: a JSON object, or an error the model can read. */
export function parseToolArguments(text: string): { ok: true; value: Record<string, unknown> } | { ok: false; error: string } {
  if (text.trim() === "") return { ok: true, value: {} };
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: `the arguments are not valid JSON (${(e as Error).message}): send one JSON object` };
  }
  if (v === null || typeof v !== "object" || Array.isArray(v)) return { ok: false, error: "the arguments must be one JSON object" };
  return { ok: true, value: v as Record<string, unknown> };
}

