// What a subcommand of `nodwyn` declares: its name, options, arguments, help and the function that runs it.
//
// Adding a subcommand (docs/guides/cli.md): write host/cli/commands/NAME.ts
// exporting a `Command`, and add it to the list in host/cli/commands/index.ts.
// The parser (parse-args.ts) then gives it `--help`, unknown-option errors
// with hints, the global flags anywhere before `--`, and its line in
// `nodwyn --help`. Keep the file small: load heavy code inside `run` with
// `await import(...)`, so that other commands do not pay for it at start-up.

/** One option. Long names are canonical ("--json"); `short` is a one-letter alias ("-n"). */
export interface OptionSpec {
  readonly name: `--${string}`;
  readonly short?: `-${string}`;
  /** The value's placeholder ("N", "DIR"); absent for a boolean flag. */
  readonly value?: string;
  /** One line for --help. */
  readonly help: string;
  /** May be given more than once (each value is kept, in order); otherwise the last one counts. */
  readonly repeatable?: boolean;
  /** Checks a value: returns an error message (said as "--steps: ...") or undefined when it is good. */
  readonly check?: (value: string) => string | undefined;
}

/** Positional arguments: how many, and how --help names them. */
export interface ArgsSpec {
  readonly min: number;
  readonly max: number;
  /** As the usage line shows them: "FILE [ARGS...]". */
  readonly names: string;
}

/** The exit statuses every command uses (documented in --help and README). */
export const EXIT = {
  ok: 0,
  /** A Scheme error: the evaluation raised an uncaught condition, or a file could not be read. */
  error: 1,
  /** A usage error: unknown option or command, missing or bad argument. */
  usage: 2,
  /** A limit was reached: steps, time, memory or depth. */
  limit: 3,
  /** Interrupted by Ctrl-C (SIGINT), as a shell reports 128 + 2. */
  interrupted: 130,
} as const;

/** The exit-code paragraph shared by every --help and the README. */
export const EXIT_CODES_HELP = `exit status:
  0    success
  1    a Scheme error (an uncaught condition; a file that cannot be read)
  2    usage error (unknown option or command, missing or bad argument)
  3    a limit was reached (--steps, --timeout, memory, depth)
  130  interrupted (Ctrl-C)`;

/** Where a command writes and what it reads. Tests pass their own; the CLI passes the process's. */
export interface CommandIO {
  readonly stdout: NodeJS.WriteStream | NodeJS.WritableStream;
  readonly stderr: NodeJS.WriteStream | NodeJS.WritableStream;
  readonly stdin: NodeJS.ReadStream | NodeJS.ReadableStream;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  /** Aborted when the command should stop early (Ctrl-C for a command that waits, such as `log tail -f`). */
  readonly signal?: AbortSignal;
  /** How often a command that polls (`log tail -f`) looks again, in milliseconds (tests make it short). */
  readonly pollMs?: number;
}

/** A parsed command line, handed to `run`. */
export interface Invocation {
  /** The command's full name ("log show"). */
  readonly path: string;
  readonly command: Command;
  /** Options given: long name → values in order ("true" for a boolean flag). */
  readonly options: ReadonlyMap<string, readonly string[]>;
  /** Positional arguments, in order. */
  readonly args: readonly string[];
  /** Everything after `--`. */
  readonly rest: readonly string[];
  /** The whole argv (for the session log's session.start). */
  readonly argv: readonly string[];
  readonly io: CommandIO;
  /** Every registered command (for `nodwyn help`). */
  readonly registry: readonly Command[];
  /** Registers what to do before the process ends early (a closed stdout, a signal): close the session's log. */
  onExit(fn: (reason: string, code: number) => void): void;
}

export interface Command {
  /** The word that selects it ("repl"), or for a subcommand its own word ("show" under "log"). */
  readonly name: string;
  /** Other words that select it. */
  readonly aliases?: readonly string[];
  /** One line for the command list of `nodwyn --help`. */
  readonly summary: string;
  /** The usage line(s) after "usage: " ("nodwyn run [options] FILE [ARGS...]"). */
  readonly usage: string;
  /** Paragraphs for its --help, after the usage. */
  readonly description?: string;
  /** Its own options; the global ones (parse-args.ts GLOBAL_OPTIONS) come on top. */
  readonly options?: readonly OptionSpec[];
  readonly args?: ArgsSpec;
  /** Subcommands ("log list", "log show"); a command with subcommands has no `run` of its own unless given. */
  readonly subcommands?: readonly Command[];
  /** Example lines for --help. */
  readonly examples?: readonly string[];
  /** Not listed by `nodwyn --help` (still accepted, with its own --help). */
  readonly hidden?: boolean;
  run?(inv: Invocation): Promise<number>;
}

/** Helpers over an invocation's options. */
export function flag(inv: Pick<Invocation, "options">, name: string): boolean {
  return inv.options.has(name);
}

/** The last value of an option, or undefined. */
export function optionValue(inv: Pick<Invocation, "options">, name: string): string | undefined {
  return inv.options.get(name)?.at(-1);
}

/** Every value of a repeatable option. */
export function optionValues(inv: Pick<Invocation, "options">, name: string): readonly string[] {
  return inv.options.get(name) ?? [];
}

/** A usage error a command raises from `run` (reported like the parser's, with exit status 2). */
export class UsageError extends Error {
  /** The command chain the error is about, when the parser had found it. */
  chain: readonly Command[] | undefined;
  constructor(
    message: string,
    /** A line telling what to do instead, printed after the message. */
    readonly hint?: string,
  ) {
    super(message);
    this.name = "UsageError";
  }
}

/** A positive integer option value (steps, counts). */
export function positiveInteger(v: string): string | undefined {
  return /^[1-9][0-9]{0,15}$/.test(v) ? undefined : `a positive integer is expected, got ${JSON.stringify(v)}`;
}

/** A positive number (milliseconds, megabytes). */
export function positiveNumber(v: string): string | undefined {
  const n = Number(v);
  return v.trim() !== "" && Number.isFinite(n) && n > 0 ? undefined : `a positive number is expected, got ${JSON.stringify(v)}`;
}
