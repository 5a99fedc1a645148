// The transcript of a session log as a person reads it (`nodwyn replay SESSION`): one heading per record, its text below.
//
// Made from the records alone — no configuration, no clock, no locale — so the
// same file always gives the same bytes. Summaries, drops, narrowings and folds
// are shown as the records they are; nothing is reapplied: what the model saw
// at a request is `nodwyn replay SESSION --window SEQ`.

import type { LogRecord } from "../log/index.js";

/** One record of the transcript: its heading line and the lines of its text. */
export interface TranscriptEntry {
  readonly seq: number;
  readonly ts: string;
  readonly kind: string;
  readonly head: string;
  readonly body: readonly string[];
}

const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
const compact = (v: unknown): string => JSON.stringify(v);

// A text's lines; a final newline ends the last line rather than starting an empty one.
function lines(text: string): string[] {
  if (text === "") return [];
  const out = text.split("\n");
  if (out.length > 1 && out[out.length - 1] === "") out.pop();
  return out;
}

function parts(...xs: (string | false | undefined | null)[]): string {
  return xs.filter((x): x is string => typeof x === "string" && x !== "").join(" · ");
}

function contextOf(c: unknown): string | undefined {
  if (c === null || typeof c !== "object") return undefined;
  const o = c as Record<string, unknown>;
  const recipe = str(o.recipe);
  if (recipe === undefined) return undefined;
  return `${recipe}${num(o.context_window) !== undefined ? ` (context ${o.context_window}, reserve ${num(o.reserve) ?? "?"})` : ""}`;
}

/** The transcript entry of one record. */
export function transcriptEntry(r: LogRecord): TranscriptEntry {
  const p = r.payload as Record<string, unknown>;
  let head = "";
  let body: string[] = [];
  switch (r.kind) {
    case "session.start":
    case "session.resume":
      head = parts(str(p.origin), str(p.model) && `model ${p.model}${str(p.server) ? ` on ${p.server}` : ""}`, str(p.strategy) && `strategy ${p.strategy}`, contextOf(p.context), str(p.version) && `nodwyn ${p.version}`);
      break;
    case "session.end":
      head = parts(str(p.reason), num(p.exit_code) !== undefined && `exit ${p.exit_code}`, str(p.error));
      break;
    case "session.model":
      head = parts(`${str(p.model) ?? "?"}${str(p.server) ? ` on ${p.server}` : ""}${str(p.name) ? ` (${p.name})` : ""}`, str(p.from) && `from ${p.from}`, str(p.actor) && `chosen by ${p.actor}`, contextOf(p.context));
      break;
    case "user.msg":
      head = str(p.actor) ?? "person";
      body = lines(str(p.text) ?? "");
      break;
    case "llm.req": {
      const recipe = p.recipe as Record<string, unknown> | string | undefined;
      const name = typeof recipe === "string" ? recipe : str(recipe?.name);
      head =
        p.recipe === undefined || p.digest === undefined
          ? parts(num(p.turn) !== undefined && `turn ${p.turn}`, `to ${str(p.model) ?? "?"}`, "no recipe: exact reconstruction cannot be established")
          : parts(num(p.turn) !== undefined && `turn ${p.turn}`, `to ${str(p.model) ?? "?"}`, name, typeof recipe === "object" && num(recipe.tokens) !== undefined && `${recipe.tokens} tokens`, str(p.digest));
      break;
    }
    case "llm.resp": {
      const u = (p.usage ?? {}) as Record<string, unknown>;
      head = parts(str(p.model), num(p.req_seq) !== undefined && `to llm.req ${p.req_seq}`, str(p.stop_reason) && `stop ${p.stop_reason}`, num(u.input_tokens) !== undefined && `${u.input_tokens} in / ${num(u.output_tokens) ?? 0} out`);
      if (str(p.error) !== undefined) body.push(`error: ${p.error}`);
      if (str(p.thinking)) body.push(...lines(`[thinking]\n${p.thinking}\n[/thinking]`));
      body.push(...lines(str(p.text) ?? ""));
      if (Array.isArray(p.tool_calls)) for (const c of p.tool_calls as Record<string, unknown>[]) body.push(`→ ${str(c.name) ?? "?"} ${str(c.id) ?? ""} ${typeof c.arguments === "string" ? c.arguments : compact(c.arguments)}`);
      break;
    }
    case "tool.call":
      head = parts(str(p.call_id), str(p.tool), compact(p.args));
      break;
    case "tool.result":
      head = parts(str(p.call_id), str(p.tool), p.ok === false ? "failed" : "ok", num(p.duration_ms) !== undefined && `${p.duration_ms} ms`, p.recovered === true && "recovered", p.truncated === true && "truncated");
      body = lines(typeof p.output === "string" ? p.output : p.output === undefined ? "" : compact(p.output));
      if (str(p.error) !== undefined) body.push(`error: ${p.error}`);
      break;
    case "turn.end":
      head = parts(str(p.outcome), num(p.turn) !== undefined && `turn ${p.turn}`, num(p.elapsed_ms) !== undefined && `${p.elapsed_ms} ms`, str(p.error));
      break;
    case "summary":
      head = parts(`of seq ${p.from}-${p.through}`, `by ${str(p.actor) ?? "person"}`, `source ${str(p.digest) ?? "?"}`);
      body = lines(str(p.text) ?? "");
      break;
    case "summary.drop":
      head = parts(`revokes summary ${p.summary_seq}`, `by ${str(p.actor) ?? "person"}`, str(p.reason));
      break;
    case "context.narrow":
      head = parts(str(p.reason), p.lasting === true ? "lasting" : "sub-context", str(p.label) && `label ${p.label}`, num(p.from) !== undefined && `from seq ${p.from}`, num(p.resp_seq) !== undefined && `note: the reply at seq ${p.resp_seq}`);
      body = lines(str(p.note) ?? "");
      break;
    case "context.fold":
      head = parts(num(p.narrow_seq) !== undefined && `ends the context of seq ${p.narrow_seq}`, str(p.reason));
      break;
    case "head.move":
      head = parts(str(p.reason), `${p.from === 0 ? "the start" : `turn ${p.from}`} → ${p.to === 0 ? "the start" : `turn ${p.to}`}`, `files ${str(p.files) ?? "?"}`, str(p.actor) && `by ${p.actor}`);
      if (Array.isArray(p.restored)) body.push(`restored: ${(p.restored as unknown[]).join(", ")}`);
      if (Array.isArray(p.kept)) body.push(`kept: ${(p.kept as unknown[]).join(", ")}`);
      break;
    case "checkpoint":
      head = parts(`turn ${p.turn}`, str(p.store), `${Array.isArray(p.files) ? p.files.length : 0} files changed`, `${String(p.before).slice(0, 12)}..${String(p.after).slice(0, 12)}`);
      if (Array.isArray(p.files)) body = (p.files as unknown[]).map(String);
      break;
    case "note":
      head = str(p.topic) ?? "";
      body = lines(str(p.text) ?? "");
      break;
    case "eval.req":
      head = parts(str(p.origin), str(p.actor), str(p.file));
      body = lines(str(p.source) ?? "");
      break;
    case "eval.result":
      head = parts(p.ok === false ? "failed" : "ok", num(p.req_seq) !== undefined && `to eval.req ${p.req_seq}`, num(p.elapsed_ms) !== undefined && `${p.elapsed_ms} ms`);
      body = [...lines(str(p.output) ?? ""), ...lines(str(p.value) ?? ""), ...(str(p.error) !== undefined ? [`error: ${p.error}`] : [])];
      break;
    default:
      head = compact(p);
  }
  return { seq: r.seq, ts: r.ts, kind: r.kind, head, body };
}

/** The text of one entry: `#seq ts kind  head`, then its lines indented by four spaces. */
export function formatEntry(e: TranscriptEntry): string {
  let out = `#${e.seq} ${e.ts} ${e.kind}${e.head ? `  ${e.head}` : ""}\n`;
  for (const l of e.body) out += `    ${l}\n`;
  return out;
}
