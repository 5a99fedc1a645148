// `nodwyn -e` and `nodwyn run`: evaluate, print the value or the error, and say how it ended (text, --json or --jsonl).

import { MultipleValues, type Outcome } from "../../interpreter/api.js";
import { showValue, type Session } from "../session/session.js";
import { TERMINAL_LIMITS, showValue as show } from "./repl/show.js";
import { helpPrimitive } from "./repl/repl.js";
import { handleSignals } from "./signals.js";
import type { DescribeContext } from "./repl/describe.js";
import { colorEnabled, styleFor } from "./terminal/style.js";
import { stripAnsi } from "./terminal/width.js";
import { failureHints } from "../session/diagnose.js";
import { EXIT, flag, type Invocation, type OptionSpec } from "./command.js";
import { exitCodeOf, failureJson, formatFailure } from "./report.js";
import { openSession, sessionFlags, type SessionFlags } from "./session-options.js";

/** --json and --jsonl, for the commands that print a result. */
export const JSON_OPTIONS: readonly OptionSpec[] = [
  { name: "--json", help: "print the result (or the error) as one JSON object on stdout; the program's output goes in it" },
  { name: "--jsonl", help: "print one JSON object per top-level form (its value or its error), as the forms run" },
];

/** --color (true), --no-color (false), or neither (undefined: the environment and the terminal decide). */
export function colorChoice(inv: Pick<Invocation, "options">): boolean | undefined {
  return flag(inv, "--no-color") ? false : flag(inv, "--color") ? true : undefined;
}

/** How results are printed. */
export type ResultFormat = "text" | "json" | "jsonl";

export function resultFormat(inv: Pick<Invocation, "options">): ResultFormat {
  return flag(inv, "--jsonl") ? "jsonl" : flag(inv, "--json") ? "json" : "text";
}

/** A sink that collects what the program writes (for --json). */
export class Capture {
  private readonly parts: string[] = [];
  readonly sink = { write: (c: string | Uint8Array) => void this.parts.push(typeof c === "string" ? c : Buffer.from(c).toString("utf8")) };
  /** What was written since the last take. */
  take(): string {
    const s = this.parts.join("");
    this.parts.length = 0;
    return s;
  }
}

/** The session of a batch command: with --json or --jsonl the console output is captured, not printed. */
export async function openBatchSession(inv: Invocation, origin: string, commandLine: string[], format: ResultFormat, capture: Capture): Promise<{ session: Session; flags: SessionFlags }> {
  const flags = sessionFlags(inv);
  let opened: Session | null = null;
  let ctx: DescribeContext | null = null;
  // Made when (help ...) first asks: it looks at stdout (a terminal? how wide?),
  // and Node makes process.stdout on first use (a pipe loads the net module),
  // which a program that prints nothing need not pay for.
  const describeContext = (): DescribeContext | null => {
    if (ctx === null && opened !== null) {
      const out = inv.io.stdout as { isTTY?: boolean; columns?: number };
      ctx = { interp: opened.interp, session: opened, style: styleFor(format === "text" && colorEnabled(out, inv.io.env, colorChoice(inv))), width: Math.min(out.columns ?? 80, 100) };
    }
    return ctx;
  };
  const session = await openSession(flags, origin, inv, commandLine, {
    ...(format !== "text" ? { stdout: capture.sink } : {}),
    // (help 'name) works from -e too.
    extraPrimitives: [helpPrimitive(describeContext)],
    // Each record another follows at once shares that one's fdatasync.
    batch: true,
  });
  opened = session;
  inv.onExit((reason, code) => session.close(reason, code));
  // Ctrl-C interrupts the evaluation (exit status 130), SIGTERM and SIGHUP close the log on the way out.
  handleSignals(session, { interrupt: true });
  return { session, flags };
}

/** A newline when the program's output left the cursor mid-line, so the value starts a line. */
export function freshLine(session: Session): string {
  const col = session.interp.stdout.column;
  session.interp.stdout.column = 0;
  return col > 0 ? "\n" : "";
}

/** The JSON object of an outcome (--json, and each line of --jsonl); `session` gives the hints of an error. */
export function outcomeJson(out: Outcome, extra: Record<string, unknown> = {}, session?: Session, program = false): Record<string, unknown> {
  if (out.ok) {
    const value = showValue(out.value);
    return { ok: true, value: value === "" ? null : value, ...extra, exit: EXIT.ok };
  }
  const hints = session ? failureHints(out, session.interp, { program, lookup: (f) => session.sources.get(f) }) : [];
  return { ok: false, error: failureJson(out, hints), ...extra, exit: exitCodeOf(out) };
}

/** Prints an outcome in the text format: the value on stdout, or the error on stderr. */
export function printOutcome(inv: Invocation, session: Session, out: Outcome, flags: SessionFlags, printValue: boolean): void {
  if (!out.ok) {
    const hints = failureHints(out, session.interp, { program: !printValue, lookup: (f) => session.sources.get(f) });
    inv.io.stderr.write(freshLine(session) + formatFailure(out, { trace: flags.trace, hints }));
    return;
  }
  if (!printValue) return;
  const s = showValue(out.value);
  if (!s) return;
  const tty = (inv.io.stdout as { isTTY?: boolean }).isTTY === true;
  if (!tty) {
    inv.io.stdout.write(freshLine(session) + s + "\n");
    return;
  }
  // On a terminal: laid out to its width and shortened, as the REPL prints; a pipe or --json gets it whole.
  const style = styleFor(colorEnabled(inv.io.stdout as { isTTY?: boolean }, inv.io.env, colorChoice(inv)));
  const width = (inv.io.stdout as { columns?: number }).columns ?? 80;
  const vals = out.value instanceof MultipleValues ? out.value.vals : [out.value];
  const shown = vals.map((v) => show(v, { limits: TERMINAL_LIMITS, width, style }));
  const whole = vals.map((v) => show(v, { width }));
  const cut = shown.some((t, i) => stripAnsi(t) !== whole[i]);
  inv.io.stdout.write(freshLine(session) + shown.join("\n") + "\n" + (cut ? style.dim("(shortened on the terminal: pipe it or add --json for all of it)") + "\n" : ""));
}

/**
 * (exit) in a --sandbox session ended the evaluation instead of the process:
 * the command ends the session with that status, the log closed first. Null
 * when no exit was asked for.
 */
export function sandboxExit(inv: Invocation, session: Session, format: ResultFormat, capture: Capture): number | null {
  const code = session.exitRequested;
  if (code === null) return null;
  if (format !== "text") inv.io.stdout.write(JSON.stringify({ ok: code === 0, value: null, exited: true, output: capture.take(), exit: code }) + "\n");
  session.close("exit", code);
  return code;
}
