// The command-line parser: finds the (sub)command in argv, then checks every option against what it declares.
//
// Rules (docs/guides/cli.md): options may come anywhere before `--`, before
// or after the command's name; `--name=value` and `--name value` both work,
// and a short option's value may be attached (`-Ilib`); `--` ends the options
// and everything after it is handed to the command as it is. An option the
// command does not declare is a usage error with a hint, never a file name
// or Scheme source. A flag name means the same (takes a value or not) in every
// command, which is what lets the command be found before its options are known
// (a test checks the registry for it).

import { type Command, type OptionSpec, UsageError } from "./command.js";
import { nearest } from "../session/near.js";

/** Options every command accepts. */
export const GLOBAL_OPTIONS: readonly OptionSpec[] = [
  { name: "--help", short: "-h", help: "show this help and exit" },
  { name: "--no-color", help: "no colour, even on a terminal (also NO_COLOR=1)" },
  { name: "--color", help: "colour even when the output is not a terminal (also FORCE_COLOR=1)" },
  { name: "--version", short: "-v", help: "print the version and exit" },
];

/** What the parser found. */
export interface Parsed {
  /** The command chain, outermost first ([log, show]); empty when argv names none. */
  readonly chain: readonly Command[];
  readonly options: Map<string, string[]>;
  readonly args: string[];
  readonly rest: string[];
}

/** Every option a command accepts: its own, its ancestors' and the global ones, by every name. */
export function optionsOf(chain: readonly Command[]): Map<string, OptionSpec> {
  const m = new Map<string, OptionSpec>();
  const add = (o: OptionSpec) => {
    m.set(o.name, o);
    if (o.short !== undefined) m.set(o.short, o);
  };
  for (const o of GLOBAL_OPTIONS) add(o);
  for (const c of chain) for (const o of c.options ?? []) add(o);
  return m;
}

/** Every option of every command, for finding the command before its options are known. */
function allOptions(registry: readonly Command[]): Map<string, OptionSpec> {
  const m = optionsOf([]);
  const visit = (cs: readonly Command[]) => {
    for (const c of cs) {
      for (const o of c.options ?? []) {
        m.set(o.name, m.get(o.name) ?? o);
        if (o.short !== undefined) m.set(o.short, m.get(o.short) ?? o);
      }
      visit(c.subcommands ?? []);
    }
  };
  visit(registry);
  return m;
}

/** The command a word selects among `list`, or undefined. */
export function findCommand(list: readonly Command[], word: string): Command | undefined {
  return list.find((c) => c.name === word || (c.aliases ?? []).includes(word));
}

/** The full name of a chain: "log show". */
export function chainName(chain: readonly Command[]): string {
  return chain.map((c) => c.name).join(" ");
}

/** Splits `--name=value` and attached short values (`-Ilib`) into name and value. */
function splitWord(word: string, known: Map<string, OptionSpec>): { name: string; value: string | undefined } {
  if (word.startsWith("--")) {
    const eq = word.indexOf("=");
    return eq > 2 ? { name: word.slice(0, eq), value: word.slice(eq + 1) } : { name: word, value: undefined };
  }
  const short = word.slice(0, 2);
  if (word.length > 2 && known.get(short)?.value !== undefined) return { name: short, value: word.slice(2) };
  return { name: word, value: undefined };
}

function isOptionWord(w: string): boolean {
  return w.length > 1 && w.startsWith("-");
}

/**
 * Parses argv against the registry. `implied` maps an option word that selects
 * a command when none is named ("-e" selects "eval"). Throws UsageError.
 */
export function parseArgs(
  argv: readonly string[],
  registry: readonly Command[],
  implied: Readonly<Record<string, string>> = {},
  /** The command a first word that names none stands for (a file name runs it), or undefined. */
  fallback: (word: string) => string | undefined = () => undefined,
): Parsed {
  const all = allOptions(registry);
  // Pass 1: the command chain. Options are skipped with their values, as the union of all options says.
  const chain: Command[] = [];
  const chainWords = new Set<number>();
  let firstPositional: string | undefined;
  let dash = argv.length;
  for (let i = 0; i < argv.length; i++) {
    const w = argv[i] as string;
    if (w === "--") {
      dash = i;
      break;
    }
    if (isOptionWord(w)) {
      const { name, value } = splitWord(w, all);
      if (chain.length === 0 && implied[name] !== undefined) {
        const c = findCommand(registry, implied[name] as string);
        if (c !== undefined) chain.push(c);
      }
      if (all.get(name)?.value !== undefined && value === undefined) i++;
      continue;
    }
    // A command's name, or its subcommand's, comes before any argument.
    const list = chain.length === 0 ? registry : (chain[chain.length - 1] as Command).subcommands;
    const c = list !== undefined && firstPositional === undefined ? findCommand(list, w) : undefined;
    if (c !== undefined) {
      chain.push(c);
      chainWords.add(i);
      continue;
    }
    if (chain.length === 0 && firstPositional === undefined) {
      const f = fallback(w);
      const fc = f !== undefined ? findCommand(registry, f) : undefined;
      if (fc !== undefined) chain.push(fc);
    }
    firstPositional ??= w;
  }
  if (chain.length === 0 && firstPositional !== undefined) {
    const near = nearest(firstPositional, registry.filter((c) => !c.hidden).flatMap((c) => [c.name, ...(c.aliases ?? [])]));
    throw new UsageError(`unknown command '${firstPositional}'`, near !== undefined ? `did you mean '${near}'? (nodwyn --help lists the commands)` : "nodwyn --help lists the commands");
  }
  try {
    return checkOptions(argv, chain, chainWords, dash, all);
  } catch (e) {
    if (e instanceof UsageError) e.chain = chain;
    throw e;
  }
}

/** Pass 2: every option checked against the chain; the rest are arguments. */
function checkOptions(argv: readonly string[], chain: readonly Command[], chainWords: ReadonlySet<number>, dash: number, all: Map<string, OptionSpec>): Parsed {
  const known = optionsOf(chain);
  const options = new Map<string, string[]>();
  const args: string[] = [];
  const here = chain.length > 0 ? `nodwyn ${chainName(chain)}` : "nodwyn";
  for (let i = 0; i < dash; i++) {
    const w = argv[i] as string;
    if (chainWords.has(i)) continue;
    if (!isOptionWord(w)) {
      args.push(w);
      continue;
    }
    const { name, value } = splitWord(w, known);
    const spec = known.get(name);
    if (spec === undefined) {
      const elsewhere = all.get(name);
      const near = nearest(name, [...known.keys()].filter((k) => k.startsWith("--")));
      let hint: string;
      if (near !== undefined) hint = `did you mean ${near}?`;
      else if (elsewhere !== undefined) hint = `${name} is an option of another command; ${here} --help lists this one's`;
      else hint = `${here} --help lists its options`;
      if (args.length > 0 && chain.some((c) => c.name === "run")) hint += `; to pass ${w} to the program, put it after --`;
      throw new UsageError(`unknown option ${name}`, hint);
    }
    let v: string;
    if (spec.value === undefined) {
      if (value !== undefined) throw new UsageError(`${spec.name} takes no value (got ${JSON.stringify(w)})`, `${here} --help`);
      v = "true";
    } else if (value !== undefined) v = value;
    else {
      const next = argv[i + 1];
      if (next === undefined || i + 1 >= dash) throw new UsageError(`${name} needs a value (${spec.value})`, `for example: ${name} ${spec.value}`);
      v = next;
      i++;
    }
    const problem = spec.check?.(v);
    if (problem !== undefined) throw new UsageError(`${spec.name}: ${problem}`);
    const prev = options.get(spec.name);
    if (prev !== undefined && spec.repeatable) prev.push(v);
    else options.set(spec.name, [v]);
  }
  return { chain, options, args, rest: dash < argv.length ? argv.slice(dash + 1) : [] };
}
