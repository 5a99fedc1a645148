// An agent primitive is a Scheme procedure and a model tool at once: one table entry describes both.

import { MString, type Ctx, type ProcSpec } from "../../interpreter/api.js";
import { jsonToScheme } from "./json-value.js";

/**
 * A procedure entry extended with the model-tool view. The tool's argument
 * names are the entry's `params` without brackets ("[glob]" → "glob"), in the
 * same order, so a tool call maps onto a call of the procedure (toolCallArgs).
 */
export interface AgentToolSpec extends ProcSpec {
  readonly tool: {
    /** What the model reads to decide when to call it. */
    readonly description: string;
    /** JSON Schema (draft 2020-12 subset) of the tool's arguments: an object with one property per param. */
    readonly inputSchema: object;
  };
  /** How a result (the Scheme value impl returned) is shown to the model. */
  render(result: any): string;
  /**
   * When a result that impl returned is nonetheless a failure the model should
   * see as one (a command that timed out): the error's text; else null. The
   * rendering is still shown, before the error.
   */
  failed?(result: any): string | null;
  /**
   * The Scheme arguments of a tool call when they are not the params in order
   * (a procedure of keyword options: `{"match": "x"}` → `:match "x"`); the
   * tool's argument names are then its schema's properties.
   */
  toolArgs?(ctx: Ctx, input: Record<string, unknown>): any[];
}

/** A param's name as a tool argument: "[start-line]" → "start-line". */
export function toolArgName(param: string): string {
  return param.replace(/^\[/, "").replace(/\]$/, "").replace(/\s*\.\.\.$/, "");
}

/**
 * The positional Scheme arguments of a tool call: each param's argument from
 * the call's JSON object, converted by the SRFI 180 mapping. A missing optional
 * argument followed by a present one is passed as #f (the file primitives read
 * #f as "not given"); trailing missing ones are left off.
 */
export function toolCallArgs(ctx: Ctx, spec: AgentToolSpec, input: Record<string, unknown>): any[] {
  const args: any[] = [];
  let pending = 0;
  for (const p of spec.params) {
    const v = input[toolArgName(p)];
    if (v === undefined || v === null) {
      if (!p.startsWith("[")) throw new TypeError(`${spec.name}: missing argument ${toolArgName(p)}`);
      pending++;
      continue;
    }
    for (; pending > 0; pending--) args.push(false);
    args.push(typeof v === "string" ? new MString(v) : jsonToScheme(ctx, v));
  }
  return args;
}
