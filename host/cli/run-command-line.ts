// Runs one command line against a command table: parse, --help, --version, argument counts, usage errors, then the command.

import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { EXIT, UsageError, flag, type Command, type CommandIO, type Invocation } from "./command.js";
import { commandHelp, mainHelp } from "./help.js";
import { chainName, findCommand, parseArgs } from "./parse-args.js";
import { nearest } from "../session/near.js";

/** What to do before the process ends early (closing a session's log); the CLI calls them on a closed stdout. */
export type ExitHook = (reason: string, code: number) => void;

/** Options that select a command when no command is named. */
const IMPLIED: Readonly<Record<string, string>> = { "-e": "eval", "--eval": "eval" };

/** A first word naming no command runs it as a program when it is a file, or looks like one (`nodwyn hello.scm`). */
function fileFallback(cwd: string): (word: string) => string | undefined {
  return (word) => {
    if (/\.(scm|ss|sps|sld)$/.test(word)) return "run";
    try {
      return existsSync(resolve(cwd, word)) && statSync(resolve(cwd, word)).isFile() ? "run" : undefined;
    } catch {
      return undefined;
    }
  };
}

function usageLine(c: Command | undefined): string {
  return c === undefined ? "usage: nodwyn [COMMAND] [options] [ARGS...]" : `usage: ${c.usage.split("\n").join("\n       ")}`;
}

function reportUsage(io: CommandIO, where: string, e: UsageError, c: Command | undefined): number {
  const help = c === undefined ? "nodwyn --help" : `${where} --help`;
  io.stderr.write(`${where}: ${e.message}\n${e.hint ? `hint: ${e.hint}\n` : ""}${usageLine(c)}\n(${help} for more)\n`);
  return EXIT.usage;
}

/**
 * Runs `argv` (the words after `nodwyn`) against `registry`. Returns the exit
 * status. `version` is printed by --version; `hooks` collects what commands
 * register with onExit.
 */
export async function runCommandLine(argv: readonly string[], registry: readonly Command[], io: CommandIO, version = "", hooks: ExitHook[] = []): Promise<number> {
  let chain: readonly Command[] = [];
  let where = "nodwyn";
  try {
    const p = parseArgs(argv, registry, IMPLIED, registry.some((c) => c.name === "run") ? fileFallback(io.cwd) : () => undefined);
    chain = p.chain;
    where = chain.length > 0 ? `nodwyn ${chainName(chain)}` : "nodwyn";
    const inv0 = { options: p.options };
    if (flag(inv0, "--version") && !flag(inv0, "--help")) {
      io.stdout.write(`nodwyn ${version}\n`);
      return EXIT.ok;
    }
    if (chain.length === 0) {
      if (flag(inv0, "--help")) {
        io.stdout.write(mainHelp(registry, version));
        return EXIT.ok;
      }
      const dflt = findCommand(registry, "repl");
      if (dflt === undefined) throw new UsageError("a command is required", "nodwyn --help lists the commands");
      chain = [dflt];
      where = "nodwyn repl";
    }
    if (flag(inv0, "--help")) {
      io.stdout.write(commandHelp(chain));
      return EXIT.ok;
    }
    const c = chain[chain.length - 1] as Command;
    const args = p.args;
    if (c.subcommands !== undefined && c.run === undefined) {
      const word = args[0];
      const names = c.subcommands.filter((s) => !s.hidden).map((s) => s.name);
      if (word === undefined) throw new UsageError("a command is required", `one of: ${names.join(", ")}`);
      const near = nearest(word, names);
      throw new UsageError(`unknown command '${word}'`, near !== undefined ? `did you mean '${near}'?` : `one of: ${names.join(", ")}`);
    }
    const spec = c.args ?? { min: 0, max: 0, names: "" };
    if (args.length < spec.min) throw new UsageError(`missing ${spec.names.split(" ")[args.length] ?? spec.names}`);
    if (args.length > spec.max) {
      const extra = args[spec.max] as string;
      throw new UsageError(spec.max === 0 ? `takes no arguments (got '${extra}')` : `unexpected argument '${extra}'`);
    }
    const inv: Invocation = {
      path: chainName(chain),
      command: c,
      options: p.options,
      args,
      rest: p.rest,
      argv,
      io,
      registry,
      onExit: (fn) => void hooks.push(fn),
    };
    return await (c.run as (inv: Invocation) => Promise<number>)(inv);
  } catch (e) {
    if (e instanceof UsageError) {
      if (e.chain !== undefined && e.chain.length > 0) {
        chain = e.chain;
        where = `nodwyn ${chainName(chain)}`;
      }
      return reportUsage(io, where, e, chain[chain.length - 1]);
    }
    throw e;
  }
}
