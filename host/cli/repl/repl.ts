// `nodwyn repl`: read an entry, evaluate its forms in the session, print values and errors; the ,commands; Ctrl-C.
//
// On a terminal (stdin and stdout both TTYs) entries are edited with the
// terminal module (history, Tab, Ctrl-R), values are printed shortened and
// coloured, and Ctrl-C does one of three things: drops a half-typed entry,
// interrupts a running evaluation (its AbortSignal: a `limit` condition with
// code "aborted"; the session and its definitions stay), or at an empty prompt
// says how to leave (a second one leaves). Otherwise (a pipe, a file) there
// are no prompts, values go to stdout whole, errors to stderr, and the exit
// status says whether any form failed.

import { Condition, MultipleValues, SchemeError, UNSPECIFIED, formatLoc, makeCondition, formatRaised, type Interpreter, type Outcome, type ProcSpec, type SourceLoc } from "../../../interpreter/api.js";
import type { AskRequest } from "../../guard/index.js";
import { failureHints } from "../../session/diagnose.js";
import type { Session } from "../../session/session.js";
import { VERSION, sourcePath } from "../../session/node-interpreter.js";
import { EXIT, flag, type Invocation } from "../command.js";
import { backtraceOfOutcome, exitCodeOf, formatFailure, frameLine, isInterrupt } from "../report.js";
import { openSession, sessionFlags } from "../session-options.js";
import { splitForms } from "../source-forms.js";
import { History, historyFile } from "../terminal/history.js";
import { LineInput } from "../terminal/line-input.js";
import { colorEnabled, styleFor, type Style } from "../terminal/style.js";
import { ConsoleInterrupt, Terminal } from "../terminal/terminal.js";
import type { Completion } from "../terminal/editor.js";
import { describe, type DescribeContext } from "./describe.js";
import { findMeta, helpText, metaNames, unknownMeta } from "./meta.js";
import { indentAfter, isBlank, wordBefore } from "./scan.js";
import { TERMINAL_LIMITS, showValue, type ShowLimits } from "./show.js";
import { Tracer } from "./trace.js";
import { handleSignals } from "../signals.js";
import type { EvalPrint, ReplCore } from "./repl-core.js";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";

/** Frames shown under an error at the prompt (,bt shows every one). */
const FRAMES_SHOWN = 6;

class Quit {
  constructor(readonly code: number) {}
}

/** (help 'name) and (help): the REPL's and -e's documentation from code. */
export function helpPrimitive(context: () => DescribeContext | null): ProcSpec {
  return {
    name: "help",
    params: ["[name]"],
    doc: "Describes a procedure or syntax (help 'index-grep): its signature, documentation and examples, and for an agent primitive its tool schema and guard rules. Without a name, how to get help at the REPL.",
    impl(this: any, name: any) {
      const ctx = context();
      const port = this.currentOutputPort();
      if (ctx === null) {
        port.writeText("help is not available here\n");
        return UNSPECIFIED;
      }
      const text =
        name === undefined
          ? helpText(ctx) + "\n"
          : describe(ctx, typeof name?.name === "string" ? name.name : name?.toString?.() ?? String(name));
      port.writeText(text);
      return UNSPECIFIED;
    },
  };
}

export async function runRepl(inv: Invocation): Promise<number> {
  const flags = sessionFlags(inv);
  const stdin = inv.io.stdin as NodeJS.ReadStream;
  const stdout = inv.io.stdout as NodeJS.WriteStream;
  const tty = stdin.isTTY === true && stdout.isTTY === true;
  const style = styleFor(colorEnabled(stdout, inv.io.env, flag(inv, "--no-color") ? false : flag(inv, "--color") ? true : undefined));
  const terminal = tty ? new Terminal({ input: stdin, output: stdout }) : null;
  let repl: Repl | null = null;
  const session = await openSession(flags, "repl", inv, ["repl"], {
    extraPrimitives: [helpPrimitive(() => repl?.describeContext() ?? null)],
    ...(terminal !== null ? { ask: (req: AskRequest) => repl!.ask(req) } : {}),
  });
  inv.onExit((reason, code) => session.close(reason, code));
  // SIGTERM and SIGHUP close the log on the way out; Ctrl-C is the REPL's own.
  handleSignals(session, { interrupt: false });
  repl = new Repl(inv, session, style, terminal, flags.trace);
  return repl.run();
}

class Repl implements ReplCore {
  readonly interp: Interpreter;
  readonly tracer: Tracer;
  lastError: (Outcome & { ok: false }) | null = null;
  private entry = 0;
  /** The exit status of a piped REPL: 0 until a form fails. */
  private status: number = EXIT.ok;
  private readonly history: History | null;
  private readonly input: LineInput | null;
  private armed = false;
  private readonly values: unknown[] = [];

  constructor(
    private readonly inv: Invocation,
    readonly session: Session,
    readonly style: Style,
    private readonly terminal: Terminal | null,
    private readonly trace: boolean,
  ) {
    this.interp = session.interp;
    this.tracer = new Tracer(this.interp, (line) => this.print(line + "\n"));
    this.history =
      terminal === null ? null : new History({ file: historyFile(inv.io.env), onError: (m) => this.printError(style.warning(`nodwyn: ${m}; the history is kept for this session only`) + "\n") });
    this.input = terminal === null ? new LineInput(inv.io.stdin as NodeJS.ReadStream) : null;
    // The console: a program's read-line reads the next line typed (echoed) or the next line of the input.
    this.interp.stdin.source = {
      read: () => {
        const line = terminal !== null ? this.readConsoleLine(terminal) : (this.input as LineInput).readLineSync();
        return line;
      },
    };
    if (terminal !== null) terminal.freshLine = () => this.freshLine();
  }

  private readConsoleLine(terminal: Terminal): string | null {
    try {
      return terminal.readLineSync();
    } catch (e) {
      if (e instanceof ConsoleInterrupt) {
        // The evaluation is interrupted (its signal is aborted too, so it ends even if this is caught).
        const c = makeCondition("limit", "evaluation aborted");
        c.code = "aborted";
        throw new SchemeError(c);
      }
      throw e;
    }
  }

  // ---- output ------------------------------------------------------------------------------------

  private width(): number {
    return this.terminal?.columns() ?? 80;
  }

  /** A newline when the program's output left the cursor mid-line. */
  private freshLine(): string {
    this.interp.flushPorts();
    const col = this.interp.stdout.column;
    this.interp.stdout.column = 0;
    const echoed = this.caretEchoed;
    this.caretEchoed = false;
    return col > 0 || echoed ? "\n" : "";
  }

  /** The terminal echoed ^C where the cursor was (an interrupted evaluation): what follows starts a line of its own. */
  private caretEchoed = false;

  print(s: string): void {
    this.inv.io.stdout.write(this.freshLine() + s);
  }

  printError(s: string): void {
    const fresh = this.freshLine();
    this.inv.io.stderr.write(fresh + s);
  }

  show(v: unknown, whole: boolean, limits?: ShowLimits): string {
    if (this.terminal === null && limits === undefined && !whole) return showValue(v, { width: Number.MAX_SAFE_INTEGER });
    return showValue(v, { limits: whole ? null : (limits ?? TERMINAL_LIMITS), width: this.width(), style: this.style });
  }

  errorHeadline(out: Outcome & { ok: false }): string {
    if (isInterrupt(out.condition)) {
      const c = out.condition as Condition;
      return `${c.loc ? formatLoc(c.loc) + ": " : ""}interrupted (Ctrl-C)`;
    }
    return formatRaised(out.error);
  }

  printFailure(out: Outcome & { ok: false }): void {
    const st = this.style;
    const hints = failureHints(out, this.interp, { lookup: (f) => this.session.sources.get(f) });
    if (isInterrupt(out.condition)) {
      const bt = backtraceOfOutcome(out).slice(0, 3);
      const where = bt.map((f) => frameLine(f).trim()).join(", ");
      this.printError(st.warning(`interrupted (Ctrl-C)${where ? `: ${where}` : ""}; the session and its definitions are kept`) + "\n");
      return;
    }
    if (this.terminal === null) {
      this.printError(formatFailure(out, { trace: this.trace, hints }));
      return;
    }
    const text = formatFailure(out, { trace: this.trace, hints, maxFrames: FRAMES_SHOWN, moreHint: ",bt shows them all" });
    const [first, ...rest] = text.replace(/\n$/, "").split("\n");
    const lines = [st.error(first as string), ...rest.map((l) => (hints.some((h) => l === `  ${h}`) ? st.warning(l) : st.dim(l)))];
    this.printError(lines.join("\n") + "\n");
  }

  /** The source line of a location with a caret under its column, when the text is known. */
  sourceExcerpt(loc: SourceLoc): string | null {
    let text = this.session.sources.get(loc.file);
    if (text === undefined && !loc.file.startsWith("<")) {
      try {
        text = readFileSync(resolve(this.inv.io.cwd, sourcePath(loc.file)), "utf8");
      } catch {
        text = undefined;
      }
    }
    if (text === undefined) return null;
    const line = text.split("\n")[loc.line - 1];
    if (line === undefined) return null;
    const num = `${loc.line} | `;
    return `  ${this.style.dim(num)}${line}\n  ${" ".repeat(num.length + [...line].slice(0, loc.col - 1).length)}${this.style.error("^")}`;
  }

  describeContext(): DescribeContext {
    return { interp: this.interp, session: this.session, style: this.style, width: Math.min(this.width(), 100) };
  }

  nextFile(): string {
    return `<repl-${++this.entry}>`;
  }

  quit(code: number): never {
    throw new Quit(code);
  }

  // ---- the guard's ask ----------------------------------------------------------------------------

  /** A checker asks whether a file may be read: the person at the prompt answers. */
  async ask(req: AskRequest): Promise<"allow" | "deny"> {
    const terminal = this.terminal;
    if (terminal === null) return "deny";
    const st = this.style;
    terminal.write(this.freshLine().replace(/\n/g, "\r\n") + st.warning(`checker ${req.checker} asks about ${req.path}: ${req.reason}`) + "\r\n");
    for (;;) {
      const a = await terminal.question(st.prompt(`let ${req.actor === "user" ? "it" : req.actor} read ${req.path}? [y/N] `));
      if (a === null) return "deny";
      const t = a.trim().toLowerCase();
      if (t === "y" || t === "yes") return "allow";
      if (t === "" || t === "n" || t === "no") return "deny";
      terminal.write("answer y or n\r\n");
    }
  }

  // ---- evaluation ----------------------------------------------------------------------------------

  /** Runs an evaluation with Ctrl-C interrupting it (a terminal's key, or SIGINT when piped). */
  private async evaluating<T>(work: () => Promise<T>): Promise<T> {
    this.tracer.reset();
    const interrupt = () => {
      if (this.terminal !== null) this.caretEchoed = true;
      void this.session.interrupt();
    };
    try {
      if (this.terminal !== null) return await this.terminal.busy(interrupt, work);
      // Not a terminal: the first SIGINT interrupts the evaluation, a second ends the REPL.
      let count = 0;
      const onSigint = () => {
        if (++count > 1) {
          this.session.close("interrupted", EXIT.interrupted);
          process.exit(EXIT.interrupted);
        }
        interrupt();
      };
      process.on("SIGINT", onSigint);
      try {
        return await work();
      } finally {
        process.off("SIGINT", onSigint);
      }
    } finally {
      // A console read ended by Ctrl-D is the end of that read, not of the console.
      const port = this.interp.stdin as unknown as { eofSeen?: boolean };
      if (this.terminal !== null) port.eofSeen = false;
    }
  }

  /** Evaluates one form of an entry (its text padded so that locations are those of the entry). */
  private async evalForm(padded: string, file: string, whole: string): Promise<Outcome> {
    const out = await this.evaluating(() => this.session.evaluate(padded, { file, origin: "repl", whole }));
    if (this.session.exitRequested !== null) this.quit(this.session.exitRequested);
    return out;
  }

  private remember(v: unknown): void {
    const vals = v instanceof MultipleValues ? v.vals : [v];
    for (const x of vals) {
      this.values.unshift(x);
      this.values.length = Math.min(this.values.length, 3);
    }
    const top = this.interp.interactionEnvironment();
    this.values.forEach((x, i) => {
      top.cellFor(this.interp.symbols.intern(`$${i + 1}`)).v = x;
    });
  }

  private failed(out: Outcome & { ok: false }): void {
    this.lastError = out;
    this.status = exitCodeOf(out);
    this.printFailure(out);
  }

  /** Prints a form's values (none for unspecified); each becomes $1. */
  private printValues(v: unknown, whole: boolean): void {
    if (v === UNSPECIFIED) return;
    const vals = v instanceof MultipleValues ? v.vals : [v];
    this.remember(v);
    for (const x of vals) {
      let text = this.show(x, whole);
      if (this.terminal !== null && !whole && text !== this.show(x, true)) text += "\n" + this.style.dim("(shortened: ,pp $1 prints it whole)");
      this.print(text + "\n");
    }
  }

  /** An entry of Scheme forms: each evaluated in turn; the first failure ends the entry. */
  private async evaluateEntry(text: string): Promise<void> {
    const file = this.nextFile();
    const split = splitForms(text, file);
    if (!split.ok) return this.failed({ ok: false, error: split.condition, condition: split.condition });
    for (const form of split.forms) {
      const out = await this.evalForm(form.padded, file, text);
      if (!out.ok) {
        this.failed(out);
        // At a terminal the rest of the entry is dropped with the error; piped input has no
        // entries a person typed, only forms, and each one runs (as a file of forms would).
        if (this.terminal !== null) return;
        continue;
      }
      this.printValues(out.value, false);
    }
  }

  async evaluateAndPrint(text: string, o: EvalPrint = {}): Promise<void> {
    const file = this.nextFile();
    const out = await this.evalForm(text, file, text);
    if (!out.ok) return this.failed(out);
    if (o.quiet) {
      if (o.after) this.print(this.style.dim(o.after()) + "\n");
      return;
    }
    if (o.render) {
      let s: string;
      try {
        s = o.render(out.value);
      } catch (e: any) {
        this.printError(this.style.error(String(e?.message ?? e)) + "\n");
        return;
      }
      this.print(s + "\n");
      return;
    }
    this.printValues(out.value, o.whole === true);
  }

  async timed(text: string): Promise<void> {
    const { PerformanceObserver, performance } = process.getBuiltinModule("node:perf_hooks") as typeof import("node:perf_hooks");
    const v8 = process.getBuiltinModule("node:v8") as typeof import("node:v8");
    let gcMs = 0;
    let gcs = 0;
    const obs = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        gcMs += e.duration;
        gcs++;
      }
    });
    obs.observe({ entryTypes: ["gc"] });
    const heap0 = v8.getHeapStatistics().used_heap_size;
    const cpu0 = process.cpuUsage();
    const steps0 = this.interp.rt.stepsCounted;
    const t0 = performance.now();
    const file = this.nextFile();
    const out = await this.evalForm(text, file, text);
    const wall = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    const steps = this.interp.rt.stepsCounted - steps0;
    const heap1 = v8.getHeapStatistics().used_heap_size;
    // GC entries arrive on a later tick.
    await new Promise<void>((r) => setImmediate(r));
    obs.disconnect();
    if (!out.ok) this.failed(out);
    else this.printValues(out.value, false);
    const ms = (x: number) => (x < 10 ? x.toFixed(2) : x < 100 ? x.toFixed(1) : x.toFixed(0));
    const mb = (b: number) => `${b < 0 ? "-" : "+"}${(Math.abs(b) / 1048576).toFixed(1)} MB`;
    this.print(
      this.style.dim(
        `;; ${ms(wall)} ms wall, ${ms((cpu.user + cpu.system) / 1000)} ms CPU, ${steps.toLocaleString("en-US")} steps, ` +
          `${gcs} GC${gcs === 1 ? "" : "s"} (${ms(gcMs)} ms), heap ${mb(heap1 - heap0)}`,
      ) + "\n",
    );
  }

  /** A ,command (or .help / .exit). */
  private async meta(text: string): Promise<void> {
    const m = /^[,.]([^\s]*)\s*([\s\S]*)$/.exec(text.trim()) as RegExpExecArray;
    const word = m[1] as string;
    const arg = (m[2] as string).trim();
    const c = findMeta(word);
    if (c === undefined) return this.printError(unknownMeta(word));
    await c.run(this, arg);
  }

  /** Whether a line is a REPL command: starts with , or with . and a command's name. */
  private isMeta(text: string): boolean {
    const t = text.trimStart();
    if (t.startsWith(",")) return true;
    const m = /^\.([a-z?-]+)(\s|$)/.exec(t);
    return m !== null && findMeta(m[1] as string) !== undefined;
  }

  private isComplete(text: string): boolean {
    if (this.isMeta(text) || isBlank(text)) return true;
    try {
      this.interp.read(text, "<repl>");
      return true;
    } catch (e: any) {
      return e?.condition?.code !== "incomplete";
    }
  }

  private complete(text: string, cursor: number): Completion | null {
    const before = text.slice(0, cursor);
    if (/^\s*,[^\s]*$/.test(before)) {
      const start = before.indexOf(",");
      const typed = before.slice(start);
      return { start, candidates: metaNames().filter((n) => n.startsWith(typed)) };
    }
    const load = /^\s*[,.]l(?:oad)?\s+"?([^"\s]*)$/.exec(before);
    const inString = /"([^"\s]*)$/.exec(before);
    if (load !== null || (inString !== null && /\((load|include|open-input-file|call-with-input-file|with-input-from-file|fs-read|file-exists\?)\s+"[^"\s]*$/.test(before))) {
      return fileCompletion(this.inv.io.cwd, before, ((load ?? inString) as RegExpExecArray)[1] as string);
    }
    const { start, word } = wordBefore(text, cursor);
    if (word === "") return null;
    const names = new Set<string>();
    for (const s of this.interp.interactionEnvironment().table.keys()) {
      if (s.name.startsWith(word) && !s.name.startsWith("%")) names.add(s.name);
    }
    return { start, candidates: [...names].sort() };
  }

  // ---- the loop -------------------------------------------------------------------------------------

  async run(): Promise<number> {
    try {
      if (this.terminal !== null) await this.runTerminal();
      else await this.runPiped();
    } catch (e) {
      if (!(e instanceof Quit)) throw e;
      this.end();
      this.session.close("exit", e.code);
      return e.code;
    }
    this.end();
    const code = this.terminal !== null ? EXIT.ok : this.status;
    this.session.close("eof", code);
    return code;
  }

  private end(): void {
    this.terminal?.close();
  }

  private banner(): void {
    const st = this.style;
    const width = this.describeContext().width;
    // The hints as one line, or more on a narrow terminal (never cut mid-hint).
    const hints: [string, string][] = [
      [",help for commands", `${st.code(",help")} for commands`],
      ["(help 'fs-read) for a procedure", `${st.code("(help 'fs-read)")} for a procedure`],
      ["results are $1 $2 $3", "results are $1 $2 $3"],
      ["Ctrl-D leaves", "Ctrl-D leaves"],
    ];
    const lines: string[] = [];
    let plain = "";
    let styled = "";
    for (const [p, s] of hints) {
      if (plain !== "" && plain.length + 3 + p.length > width) {
        lines.push(styled);
        plain = styled = "";
      }
      plain += (plain === "" ? "" : " · ") + p;
      styled += (styled === "" ? "" : " · ") + s;
    }
    lines.push(styled);
    const title = `nodwyn ${VERSION} — R7RS Scheme with agent primitives (fs-read, fs-find, index-grep, …)`;
    this.print(
      (title.length <= width ? st.bold(`nodwyn ${VERSION}`) + title.slice(`nodwyn ${VERSION}`.length) : `${st.bold(`nodwyn ${VERSION}`)} — R7RS Scheme with agent primitives`) +
        "\n" +
        lines.map((l) => st.dim(l)).join("\n") +
        "\n",
    );
  }

  private async runTerminal(): Promise<void> {
    const terminal = this.terminal as Terminal;
    terminal.start();
    this.banner();
    for (;;) {
      const r = await terminal.readEntry({
        prompt: this.style.prompt("> "),
        continuation: this.style.prompt(". "),
        isComplete: (t) => this.isComplete(t),
        complete: (t, c) => this.complete(t, c),
        indent: (b) => indentAfter(b),
        history: this.history,
      });
      if (r.kind === "eof") {
        terminal.write("\r\n");
        return;
      }
      if (r.kind === "interrupt") {
        if (r.text.trim() !== "") {
          this.armed = false;
          continue;
        }
        if (this.armed) return;
        this.armed = true;
        this.print(this.style.dim("(To leave, press Ctrl-C again or Ctrl-D, or type ,q)") + "\n");
        continue;
      }
      this.armed = false;
      await this.handleEntry(r.text);
    }
  }

  private async handleEntry(text: string): Promise<void> {
    if (isBlank(text)) return;
    if (this.isMeta(text)) return this.meta(text);
    // A newcomer's first words: help, exit, quit typed without parentheses.
    const word = text.trim();
    if (this.terminal !== null && (word === "help" || word === "exit" || word === "quit")) {
      if (word === "help") return this.print(helpText(this.describeContext()));
      return this.print(this.style.dim(`${word} is a procedure here: (exit) or ,q leaves, and so does Ctrl-D`) + "\n");
    }
    return this.evaluateEntry(text);
  }

  private async runPiped(): Promise<void> {
    const input = this.input as LineInput;
    // Waiting for input, Ctrl-C ends the REPL (status 130) with its log closed; during an evaluation it interrupts it.
    const onIdleInt = () => {
      if (this.session.busy) return;
      this.session.close("interrupted", EXIT.interrupted);
      process.exit(EXIT.interrupted);
    };
    process.on("SIGINT", onIdleInt);
    try {
      let buffer = "";
      for (;;) {
        const line = await input.nextLine();
        if (line === null) break;
        if (buffer === "" && this.isMeta(line)) {
          await this.meta(line);
          continue;
        }
        buffer += line;
        if (!this.isComplete(buffer)) continue;
        const text = buffer;
        buffer = "";
        await this.handleEntry(text);
      }
      // An entry the input ended inside: its read error is reported.
      if (!isBlank(buffer)) await this.handleEntry(buffer);
    } finally {
      process.off("SIGINT", onIdleInt);
    }
  }
}

/** File names for ,load "… and (load "… completion. */
function fileCompletion(cwd: string, before: string, typed: string): Completion | null {
  const dir = typed.includes("/") ? typed.slice(0, typed.lastIndexOf("/") + 1) : "";
  const base = typed.slice(dir.length);
  let names: string[];
  try {
    names = readdirSync(resolve(cwd, dir || "."));
  } catch {
    return null;
  }
  const candidates = names
    .filter((n) => n.startsWith(base) && (base.startsWith(".") || !n.startsWith(".")))
    .map((n) => {
      let isDir = false;
      try {
        isDir = statSync(join(resolve(cwd, dir || "."), n)).isDirectory();
      } catch {
        isDir = false;
      }
      return dir + n + (isDir ? "/" : "");
    })
    .sort();
  return { start: before.length - typed.length, candidates };
}

