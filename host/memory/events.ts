// The conversation's events as memory reads them: which records are events, their text in numbered lines, their headings.
//
// This is the reading interface the conversation memory (index-search
// "conversation"/"earlier", recall) and issue 16's recall forms share
// (docs/memory-format.md, "Reading events"):
//
//   - eventOf(record, call) says whether a record is a conversation event the
//     memory indexes, and what it is (EventInfo), or null;
//   - eventLines(record, call) is its text as numbered lines: the lines recall
//     shows and the lines a search picks its three best from;
//   - eventHeading(info, ...) names it in one line;
//   - callText(call) is the words of the call a result answers (counted three
//     times by the ranking).
//
// Events: the person's messages (user.msg), attached files (attach), plans
// (gate.plan), summaries (summary), a narrowing's written note
// (context.narrow with note), nodwyn's replies with their tool calls (llm.resp,
// never its thinking, never a failed request's error), and tool results with
// the call each answers (tool.result). Never: guard, egress, request (llm.req)
// or note records, thinking, and earlier searches and recalls: a result of
// recall or of index-search "conversation"/"earlier", the calls of a reply to
// them, and an eval whose code calls them (a search would otherwise find its
// own call).

import type { LogRecord } from "../log/index.js";

/** What an event is. */
export type EventType = "message" | "attach" | "plan" | "summary" | "note" | "reply" | "result";

/** The codes of EventType in the .mem file (docs/memory-format.md). */
export const EVENT_CODES: readonly EventType[] = ["message", "attach", "plan", "summary", "note", "reply", "result"];

/** The tool.call a result answers, as the log recorded it. */
export interface CallInfo {
  readonly seq: number;
  readonly tool: string;
  readonly args: unknown;
}

/** A record that is a conversation event. */
export interface EventInfo {
  readonly seq: number;
  readonly type: EventType;
  /** For a result: the tool; for a reply: the names of its calls (kept ones). */
  readonly tool?: string;
  /** For a result: ok false, or a shell exit code other than 0. */
  readonly failed?: boolean;
}

/** Tools whose results repeat other events: never indexed. */
export const MEMORY_TOOLS = new Set(["recall"]);
/** index-search scopes whose results repeat other events. */
export const MEMORY_SCOPES = new Set(["conversation", "earlier"]);

/** Scheme code calling a memory primitive (an eval tool call that searches or recalls the conversation). */
const MEMORY_CODE = /\((?:recall|recall-log|recall-entry|recall-search)[\s)]|\(index-search\b[^)]*"(?:conversation|earlier)"/;

/** The last arguments text parsed, and what it gave: a fold asks for a result's call arguments twice in a row (eventOf, callText). */
let lastArgs: string | null = null;
let lastObject: Record<string, unknown> | null = null;

function argsObject(args: unknown): Record<string, unknown> | null {
  if (typeof args === "string") {
    if (args === lastArgs) return lastObject;
    let o: Record<string, unknown> | null;
    try {
      const v = JSON.parse(args);
      o = v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
    } catch {
      o = null;
    }
    lastArgs = args;
    lastObject = o;
    return o;
  }
  return args !== null && typeof args === "object" && !Array.isArray(args) ? (args as Record<string, unknown>) : null;
}

/** True when a call of `tool` with `args` searches or recalls the conversation (its call and result are never indexed). */
export function isMemoryCall(tool: string, args: unknown): boolean {
  if (MEMORY_TOOLS.has(tool) || tool === "recall-log" || tool === "recall-entry" || tool === "recall-search") return true;
  const a = argsObject(args);
  if (tool === "index-search") return a !== null && typeof a.scope === "string" && MEMORY_SCOPES.has(a.scope);
  if (tool === "eval") {
    const code = a !== null && typeof a.code === "string" ? a.code : typeof args === "string" ? args : "";
    return MEMORY_CODE.test(code);
  }
  return false;
}

interface ReplyCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
}

/** A reply's tool calls as recorded ({id, name, arguments}). */
export function replyCalls(p: Record<string, unknown>): ReplyCall[] {
  const v = p.tool_calls;
  if (!Array.isArray(v)) return [];
  const out: ReplyCall[] = [];
  for (const c of v) {
    if (c === null || typeof c !== "object") continue;
    const o = c as Record<string, unknown>;
    out.push({ id: String(o.id ?? ""), name: String(o.name ?? ""), arguments: typeof o.arguments === "string" ? o.arguments : JSON.stringify(o.arguments ?? {}) });
  }
  return out;
}

/** The exit code a shell result's text starts with (`exit N`), or null. */
export function shellExit(text: string): number | null {
  const m = /^exit (-?\d+)/.exec(text);
  return m === null ? null : Number(m[1]);
}

/** Whether a record is a conversation event the memory indexes (see the header), and what it is. */
export function eventOf(r: LogRecord, call: CallInfo | null): EventInfo | null {
  const p = r.payload as Record<string, unknown>;
  switch (r.kind) {
    case "user.msg":
      return { seq: r.seq, type: "message" };
    case "attach":
      return { seq: r.seq, type: "attach" };
    case "gate.plan":
      return { seq: r.seq, type: "plan" };
    case "summary":
      return { seq: r.seq, type: "summary" };
    case "context.narrow":
      return typeof p.note === "string" && p.note.trim() !== "" ? { seq: r.seq, type: "note" } : null;
    case "llm.resp": {
      if (p.error !== undefined && typeof p.text !== "string") return null;
      const calls = replyCalls(p).filter((c) => !isMemoryCall(c.name, c.arguments));
      const text = typeof p.text === "string" ? p.text : "";
      if (text.trim() === "" && calls.length === 0) return null;
      return { seq: r.seq, type: "reply", ...(calls.length > 0 ? { tool: calls.map((c) => c.name).join(", ") } : {}) };
    }
    case "tool.result": {
      const tool = String(p.tool ?? "");
      if (isMemoryCall(tool, call?.args ?? null) || MEMORY_TOOLS.has(tool)) return null;
      const out = outputText(p);
      const failed = p.ok === false || (tool === "shell-exec" && (shellExit(out) ?? 0) !== 0);
      return { seq: r.seq, type: "result", tool, ...(failed ? { failed: true } : {}) };
    }
    default:
      return null;
  }
}

/** A shell result as the model read it: `exit N`, the output, then `[stderr]` and the errors (shell.scm's rendering). */
function shellText(o: Record<string, unknown>): string {
  let s = `exit ${o.exit === null || o.exit === undefined ? "none" : String(o.exit)}\n`;
  const out = typeof o.stdout === "string" ? o.stdout : "";
  const err = typeof o.stderr === "string" ? o.stderr : "";
  if (out) s += out.endsWith("\n") ? out : `${out}\n`;
  if (err) s += `[stderr]\n${err.endsWith("\n") ? err : `${err}\n`}`;
  return s.endsWith("\n") ? s.slice(0, -1) : s;
}

/** A tool result's output as text: a string as recorded (a JSON object or array in it indented), a shell's object rendered, other JSON indented. */
export function outputText(p: Record<string, unknown>): string {
  const out = p.output;
  if (out === undefined || out === null) return "";
  if (typeof out === "string") {
    const t = out.trimStart();
    // Only a text that could be JSON is parsed (fs-read's "[lines 1-60 of 75]" starts with a bracket too, and a failed parse costs).
    if (p.tool !== "shell-exec" && (t.startsWith("{") || t.startsWith("[")) && endsWithBracket(t)) {
      try {
        return JSON.stringify(JSON.parse(out), null, 2);
      } catch {
        return out;
      }
    }
    return out;
  }
  if (typeof out === "object" && !Array.isArray(out) && ("stdout" in out || "exit" in out)) return shellText(out as Record<string, unknown>);
  return JSON.stringify(out, null, 2);
}

/**
 * The text ends with } or ] before any trailing white space. Read from the
 * end: the same test as /[}\]]\s*$/, which, unanchored at its start, tries
 * every position of the text (a fold meets thousands of fs-read results
 * starting with "[lines ").
 */
function endsWithBracket(t: string): boolean {
  let i = t.length - 1;
  while (i >= 0 && /\s/.test(t[i]!)) i--;
  return i >= 0 && (t[i] === "}" || t[i] === "]");
}

function splitLines(text: string): string[] {
  if (text === "") return [];
  const t = text.endsWith("\n") ? text.slice(0, -1) : text;
  return t.split("\n");
}

/** A call's arguments as one line of JSON (as the model wrote them). */
export function argsLine(args: unknown): string {
  if (typeof args === "string") {
    try {
      return JSON.stringify(JSON.parse(args));
    } catch {
      return args;
    }
  }
  return JSON.stringify(args ?? {});
}

/** The text of the call a result answers, whose words count three times: the tool's name and its arguments. */
export function callText(call: CallInfo | null, tool: string): string {
  if (call === null) return tool;
  const a = argsObject(call.args);
  if (a === null) return `${call.tool} ${argsLine(call.args)}`;
  return [call.tool, ...Object.values(a).map((v) => (typeof v === "string" ? v : JSON.stringify(v)))].join("\n");
}

/**
 * An event's text in lines, numbered from 1 as recall numbers them: a
 * message's or summary's text; an attachment's name then its text; a plan's
 * steps; a reply's text then a line `→ NAME ARGS` per call; a result's output
 * (a shell's as the model read it, whole; other JSON indented) then, when it
 * failed, `error: …`.
 */
export function eventLines(r: LogRecord): string[] {
  const p = r.payload as Record<string, unknown>;
  switch (r.kind) {
    case "user.msg": {
      const lines = splitLines(String(p.text ?? ""));
      if (Array.isArray(p.attachments))
        for (const a of p.attachments) {
          const o = a !== null && typeof a === "object" ? (a as Record<string, unknown>) : {};
          lines.push(`[attached: ${String(o.name ?? o.path ?? o.type ?? "a file")}]`);
        }
      return lines;
    }
    case "attach":
      return [`[attached ${String(p.type ?? "file")}: ${String(p.name ?? p.path ?? "")}]`, ...splitLines(typeof p.text === "string" ? p.text : "")];
    case "gate.plan": {
      const steps = Array.isArray(p.steps) ? p.steps : [];
      const lines = steps.map((s, i) => `${i + 1}. ${typeof s === "string" ? s : s !== null && typeof s === "object" && typeof (s as any).text === "string" ? (s as any).text : JSON.stringify(s)}`);
      if (typeof p.note === "string" && p.note !== "") lines.push(...splitLines(p.note));
      return lines;
    }
    case "summary":
      return splitLines(String(p.text ?? ""));
    case "context.narrow":
      return splitLines(String(p.note ?? ""));
    case "llm.resp": {
      const lines = splitLines(typeof p.text === "string" ? p.text : "");
      for (const c of replyCalls(p)) if (!isMemoryCall(c.name, c.arguments)) lines.push(`→ ${c.name} ${argsLine(c.arguments)}`);
      return lines;
    }
    case "tool.result": {
      const lines = splitLines(outputText(p));
      if (p.ok === false) lines.push(...splitLines(`error: ${typeof p.error === "string" ? p.error : "the tool failed"}`));
      return lines;
    }
    default: {
      // Not a conversation event: its payload as the log recorded it, indented.
      return splitLines(JSON.stringify(p, null, 2));
    }
  }
}

/** text without its one trailing newline (a line list's join, as splitLines cuts it). */
function withoutLastNewline(text: string): string {
  return text.endsWith("\n") ? text.slice(0, -1) : text;
}

/**
 * eventLines(r).join("\n"), made without the array for the kinds a log holds
 * most of (a tool result, a reply): the text the fold splits into words.
 */
export function eventText(r: LogRecord): string {
  const p = r.payload as Record<string, unknown>;
  switch (r.kind) {
    case "tool.result": {
      const out = outputText(p);
      if (p.ok !== false) return out === "" ? "" : withoutLastNewline(out);
      const err = withoutLastNewline(`error: ${typeof p.error === "string" ? p.error : "the tool failed"}`);
      return out === "" ? err : `${withoutLastNewline(out)}\n${err}`;
    }
    case "llm.resp": {
      let text = typeof p.text === "string" && p.text !== "" ? withoutLastNewline(p.text) : null;
      for (const c of replyCalls(p)) if (!isMemoryCall(c.name, c.arguments)) text = text === null ? `→ ${c.name} ${argsLine(c.arguments)}` : `${text}\n→ ${c.name} ${argsLine(c.arguments)}`;
      return text ?? "";
    }
    default:
      return eventLines(r).join("\n");
  }
}

/** A call's arguments for a heading: one line of JSON, cut at `max` characters. */
export function shortArgs(args: unknown, max = 120): string {
  const s = argsLine(args);
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}

/** What a heading says of a record: "the person's message", "the result of shell-exec {…}, which failed", … */
export function describeEvent(r: LogRecord, call: CallInfo | null): string {
  const p = r.payload as Record<string, unknown>;
  switch (r.kind) {
    case "user.msg":
      return "the person's message";
    case "attach":
      return `an attached ${String(p.type ?? "file")} (${String(p.name ?? p.path ?? "")})`;
    case "gate.plan":
      return "the turn's plan";
    case "summary":
      return `a summary of seq ${String(p.from)}-${String(p.through)}`;
    case "context.narrow":
      return `the note the window narrowed to (${String(p.reason ?? "")})`;
    case "llm.resp": {
      const calls = replyCalls(p).filter((c) => !isMemoryCall(c.name, c.arguments));
      return calls.length === 0 ? "nodwyn's reply" : `nodwyn's reply with ${calls.length === 1 ? "1 tool call" : `${calls.length} tool calls`}`;
    }
    case "tool.result": {
      const tool = String(p.tool ?? "");
      const what = call !== null ? `${tool} ${shortArgs(call.args)}` : tool;
      let how = "";
      if (p.ok === false) how = ", which failed";
      else if (tool === "shell-exec") {
        const code = shellExit(outputText(p));
        if (code !== null && code !== 0) how = `, which failed (exit ${code})`;
      }
      return `the result of ${what}${how}`;
    }
    default:
      return `a ${r.kind} record`;
  }
}

/** How a heading names the sub-context an event was recorded in (", in the explorer's context"), or "". */
export function contextPhrase(label: string | null): string {
  if (label === null) return "";
  return label.trim() === "" ? ", in a sub-context" : `, in the ${label.trim()}'s context`;
}
