// How the command reports an evaluation's end: the failure text, its JSON form, and the exit status.

import { Condition, formatRaised, backtraceOf, formatLoc, type Outcome, type TraceEntry, type SourceLoc } from "../../interpreter/api.js";
import { EXIT } from "./command.js";

/** The exit status for an outcome: 0, 1 for an error, 3 for a limit, 130 when interrupted. */
export function exitCodeOf(out: Outcome): number {
  if (out.ok) return EXIT.ok;
  const c = out.condition;
  if (c instanceof Condition && c.kind === "limit") return isInterrupt(c) ? EXIT.interrupted : EXIT.limit;
  return EXIT.error;
}

/** True for the condition an evaluation ends with when it is interrupted (Ctrl-C: the machine's AbortSignal). */
export function isInterrupt(c: unknown): boolean {
  return c instanceof Condition && c.kind === "limit" && c.code === "aborted";
}

/** The backtrace of a failed outcome (empty for a raised non-condition without frames). */
export function backtraceOfOutcome(out: Outcome & { ok: false }): TraceEntry[] {
  const c = out.condition;
  if (!(c instanceof Condition)) return [];
  return c.backtrace ?? backtraceOf(c);
}

/** One backtrace line: "  in f (file:3:8)". */
export function frameLine(e: TraceEntry): string {
  return `  ${e.tail ? "tail call: " : "in "}${e.name}${e.loc ? ` (${formatLoc(e.loc)})` : ""}`;
}

/** Options of formatFailure. */
export interface FailureFormat {
  /** Show the JS stack of an internal error. */
  readonly trace?: boolean;
  /** Backtrace lines shown at most (the rest is counted); default all. */
  readonly maxFrames?: number;
  /** Said after the count of frames left out ("  … 12 more frames (,bt shows them)"). */
  readonly moreHint?: string;
  /** Lines after the message (did-you-mean and import hints). */
  readonly hints?: readonly string[];
}

/** The report of an evaluation that failed: `file:line:col: message: irritants`, hints, then the backtrace. */
export function formatFailure(out: Outcome & { ok: false }, o: FailureFormat | boolean = {}): string {
  const opts: FailureFormat = typeof o === "boolean" ? { trace: o } : o;
  const lines = [formatRaised(out.error)];
  for (const h of opts.hints ?? []) lines.push(`  ${h}`);
  const c = out.condition;
  if (c instanceof Condition) {
    const bt = backtraceOfOutcome(out);
    const max = opts.maxFrames ?? Infinity;
    for (const e of bt.slice(0, max)) lines.push(frameLine(e));
    if (bt.length > max) lines.push(`  … ${bt.length - max} more frame${bt.length - max === 1 ? "" : "s"}${opts.moreHint ? ` (${opts.moreHint})` : ""}`);
    if (opts.trace && c.payload instanceof Error && c.payload.stack) lines.push(c.payload.stack);
  }
  return lines.join("\n") + "\n";
}

function locJson(l: SourceLoc | undefined): { file: string; line: number; column: number } | null {
  return l ? { file: l.file, line: l.line, column: l.col } : null;
}

/** A failure as the JSON object of `--json`: kind, code, message, location, backtrace, hints. */
export function failureJson(out: Outcome & { ok: false }, hints: readonly string[] = []): Record<string, unknown> {
  const c = out.condition;
  const text = formatRaised(out.error);
  if (!(c instanceof Condition)) return { kind: "raise", code: null, message: text, text, location: null, backtrace: [], hints };
  return {
    kind: c.kind,
    code: c.code ?? null,
    message: c.message,
    text,
    location: locJson(c.loc),
    backtrace: backtraceOfOutcome(out).map((e) => ({ name: e.name, location: locJson(e.loc), tail: e.tail === true })),
    hints,
  };
}
