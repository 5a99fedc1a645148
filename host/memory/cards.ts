// Turn cards and compaction notes: what each turn did, made from the log at no model cost (seed 000, "Task memory").

import type { LogRecord } from "../log/index.js";
import { outputText, replyCalls, shellExit, type CallInfo } from "./events.js";

/** A command a turn ran and how it ended. */
export interface CardCommand {
  readonly command: string;
  /** The exit code, or null when it did not run to an exit (refused, timed out, not run). */
  readonly exit: number | null;
  readonly ok: boolean;
}

/** One turn, from its user.msg to its turn.end. */
export interface TurnCard {
  readonly turn: number;
  /** The user.msg's seq and the turn.end's (0 while the turn is open). */
  readonly first: number;
  end: number;
  /** The start of what the person asked (one line, at most ASKED_CHARS). */
  readonly asked: string;
  /** turn.end's outcome; "open" while no turn.end closes it. */
  outcome: string;
  error?: string;
  /** When it started and ended (the records' ts). */
  readonly started: string;
  ended?: string;
  ms?: number;
  cost?: number;
  inputTokens: number;
  outputTokens: number;
  plan?: { steps: string[]; marks: { step: number; state: string; note?: string }[] };
  files: string[];
  commands: CardCommand[];
  errors: string[];
  /** The start of the turn's last answer (text of its last reply that has text). */
  answer: string;
  /** The seq and type code of every event of the turn that memory indexes, in order. */
  events: [number, string][];
}

/** The note of one compaction (context.compact), with its handover text when the log holds it. */
export interface CompactionNote {
  readonly seq: number;
  readonly turn: number;
  readonly trigger: string;
  readonly compacted: boolean;
  readonly before: number;
  readonly after?: number;
  readonly focus?: string;
  readonly respSeq?: number;
  text: string;
}

export const ASKED_CHARS = 160;
export const ANSWER_CHARS = 240;
const ERROR_CHARS = 160;
const MAX_LIST = 40;

function oneLine(s: string, max: number): string {
  const t = s.replace(/\s+/g, " ").trim();
  return t.length <= max ? t : `${t.slice(0, max - 1)}…`;
}

/** Tools whose successful call writes the file its `path` argument names. */
const WRITING_TOOL = /(^|-)(write|edit|patch|create|append)(-|$)/;

/** Keeps the card of the open turn up to date as the turn's records come. */
export class CardBuilder {
  readonly card: TurnCard;
  constructor(r: LogRecord, turn: number) {
    const p = r.payload as Record<string, unknown>;
    this.card = {
      turn,
      first: r.seq,
      end: 0,
      asked: oneLine(String(p.text ?? ""), ASKED_CHARS),
      outcome: "open",
      started: r.ts,
      inputTokens: 0,
      outputTokens: 0,
      files: [],
      commands: [],
      errors: [],
      answer: "",
      events: [],
    };
  }

  private error(s: string): void {
    if (this.card.errors.length < MAX_LIST) this.card.errors.push(oneLine(s, ERROR_CHARS));
  }

  /** Folds one record of the turn in; `call` is the tool.call a result answers. */
  add(r: LogRecord, call: CallInfo | null): void {
    const c = this.card;
    const p = r.payload as Record<string, any>;
    switch (r.kind) {
      case "llm.resp":
        if (typeof p.error === "string") this.error(`model: ${p.error}`);
        if (typeof p.usage?.input_tokens === "number") c.inputTokens += p.usage.input_tokens;
        if (typeof p.usage?.output_tokens === "number") c.outputTokens += p.usage.output_tokens;
        if (typeof p.usage?.cost === "number") c.cost = (c.cost ?? 0) + p.usage.cost;
        if (typeof p.text === "string" && p.text.trim() !== "" && replyCalls(p).length === 0) c.answer = oneLine(p.text, ANSWER_CHARS);
        else if (typeof p.text === "string" && p.text.trim() !== "" && c.answer === "") c.answer = oneLine(p.text, ANSWER_CHARS);
        break;
      case "tool.result": {
        const tool = String(p.tool ?? "");
        const args = call !== null && call.args !== null && typeof call.args === "object" ? (call.args as Record<string, unknown>) : {};
        if (tool === "shell-exec") {
          const code = p.ok === false ? null : shellExit(outputText(p));
          if (c.commands.length < MAX_LIST) c.commands.push({ command: oneLine(String(args.command ?? "?"), 200), exit: code, ok: p.ok !== false && (code ?? 0) === 0 });
        }
        if (p.ok !== false && WRITING_TOOL.test(tool) && typeof args.path === "string" && !c.files.includes(args.path) && c.files.length < MAX_LIST) c.files.push(args.path);
        if (p.ok === false) this.error(`${tool}: ${typeof p.error === "string" ? p.error : "failed"}`);
        break;
      }
      case "gate.plan":
        c.plan = {
          steps: (Array.isArray(p.steps) ? p.steps : []).map((s: unknown) => oneLine(typeof s === "string" ? s : typeof (s as any)?.text === "string" ? (s as any).text : JSON.stringify(s), 160)),
          marks: [],
        };
        break;
      case "plan.step":
        (c.plan ??= { steps: [], marks: [] }).marks.push({ step: Number(p.step), state: String(p.state), ...(typeof p.note === "string" ? { note: oneLine(p.note, 160) } : {}) });
        break;
      case "turn.end":
        c.end = r.seq;
        c.outcome = String(p.outcome ?? "done");
        c.ended = r.ts;
        if (typeof p.elapsed_ms === "number") c.ms = p.elapsed_ms;
        if (typeof p.error === "string") {
          c.error = oneLine(p.error, ERROR_CHARS);
          this.error(p.error);
        }
        break;
      default:
        break;
    }
  }
}

function seconds(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const m = Math.floor(ms / 60_000);
  return `${m} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** A cost in USD as a card shows it. */
export function costText(usd: number): string {
  return usd >= 1 ? `$${usd.toFixed(2)}` : `$${usd.toFixed(4)}`;
}

/** The turn in one line: how it ended, how long it took, what it cost, what it asked. */
export function cardLine(c: TurnCard): string {
  const parts = [`turn ${c.turn} (seq ${c.first}${c.end > 0 ? `-${c.end}` : "-"})`, c.outcome === "open" ? "not ended" : c.outcome];
  if (c.ms !== undefined) parts.push(seconds(c.ms));
  parts.push(c.cost !== undefined ? costText(c.cost) : "cost not priced");
  parts.push(`asked: ${JSON.stringify(c.asked)}`);
  return parts.join(" · ");
}

/** A card whole, in lines: the line, then its plan, files, commands, errors and answer. */
export function cardText(c: TurnCard): string[] {
  const out = [cardLine(c)];
  if (c.inputTokens > 0 || c.outputTokens > 0) out.push(`tokens: ${c.inputTokens} in, ${c.outputTokens} out`);
  if (c.plan !== undefined) {
    const mark = (i: number) => {
      const m = [...c.plan!.marks].reverse().find((x) => x.step === i + 1);
      return m === undefined ? "" : ` [${m.state}${m.note ? `: ${m.note}` : ""}]`;
    };
    out.push(`plan: ${c.plan.steps.map((s, i) => `${i + 1}. ${s}${mark(i)}`).join("; ")}`);
  }
  if (c.files.length > 0) out.push(`files written: ${c.files.join(", ")}`);
  if (c.commands.length > 0) out.push(`commands: ${c.commands.map((x) => `${x.command} → ${x.exit === null ? "did not finish" : `exit ${x.exit}`}`).join("; ")}`);
  if (c.errors.length > 0) out.push(`errors: ${c.errors.join("; ")}`);
  if (c.answer !== "") out.push(`answer: ${c.answer}`);
  return out;
}

/** A compaction's note in lines. */
export function noteText(n: CompactionNote): string[] {
  const head = `compaction at seq ${n.seq} (turn ${n.turn}, ${n.trigger}${n.focus ? `, focus ${JSON.stringify(n.focus)}` : ""}): ${n.compacted ? `${n.before} → ${n.after ?? "?"} tokens` : `gave up at ${n.before} tokens`}`;
  return n.text === "" ? [head] : [head, ...n.text.split("\n")];
}
