// The command-line parser and the command table: options anywhere before --, unknown options with hints.
import test from "ava";
import { parseArgs, optionsOf, GLOBAL_OPTIONS } from "../../../host/cli/parse-args.js";
import { UsageError, type Command } from "../../../host/cli/command.js";
import { COMMANDS } from "../../../host/cli/commands/index.js";

const run = COMMANDS.find((c) => c.name === "run") as Command;
const log = COMMANDS.find((c) => c.name === "log") as Command;

function usage(t: any, argv: string[], message: RegExp, hint?: RegExp): void {
  const e = t.throws(() => parseArgs(argv, COMMANDS, { "-e": "eval" }), { instanceOf: UsageError }) as UsageError;
  t.regex(e.message, message, argv.join(" "));
  if (hint) t.regex(e.hint ?? "", hint, argv.join(" "));
}

test("options come before or after the command's name, in both spellings", (t) => {
  for (const argv of [
    ["--sandbox", "run", "--steps", "5", "p.scm"],
    ["run", "p.scm", "--sandbox", "--steps=5"],
    ["run", "--steps", "5", "--sandbox", "p.scm"],
  ]) {
    const p = parseArgs(argv, COMMANDS);
    t.deepEqual(p.chain, [run], argv.join(" "));
    t.deepEqual(p.args, ["p.scm"]);
    t.deepEqual(p.options.get("--steps"), ["5"]);
    t.true(p.options.has("--sandbox"));
  }
});

test("-Idir and -I dir are the same repeatable option; -- ends the options", (t) => {
  const p = parseArgs(["run", "-Ia", "-I", "b", "p.scm", "x", "--", "--steps", "-I"], COMMANDS);
  t.deepEqual(p.options.get("--lib-dir"), ["a", "b"]);
  t.deepEqual(p.args, ["p.scm", "x"]);
  t.deepEqual(p.rest, ["--steps", "-I"]);
  t.false(p.options.has("--steps"));
});

test("-e selects the eval command when no command is named", (t) => {
  const p = parseArgs(["--no-log", "-e", "(+ 1 2)", "--json"], COMMANDS, { "-e": "eval" });
  t.is(p.chain[0]?.name, "eval");
  t.deepEqual(p.options.get("--eval"), ["(+ 1 2)"]);
  t.true(p.options.has("--json"));
  t.deepEqual(p.args, []);
});

test("subcommands are found after their command, with their own options", (t) => {
  const p = parseArgs(["log", "show", "last", "--kind", "eval.req", "--json"], COMMANDS);
  t.deepEqual(p.chain.map((c) => c.name), ["log", "show"]);
  t.deepEqual(p.args, ["last"]);
  t.deepEqual(p.options.get("--kind"), ["eval.req"]);
  t.is(p.chain[0], log);
});

test("an unknown option is an error that suggests the near one, never an argument", (t) => {
  usage(t, ["run", "--jsn", "p.scm"], /^unknown option --jsn$/, /did you mean --json\?/);
  usage(t, ["-e", "(+ 1 2)", "--sandbx"], /unknown option --sandbx/, /did you mean --sandbox\?/);
  usage(t, ["run", "p.scm", "--verbose"], /unknown option --verbose/, /put it after --/);
  usage(t, ["log", "list", "--sandbox"], /unknown option --sandbox/, /another command/);
});

test("an unknown command suggests the near one", (t) => {
  usage(t, ["rpl"], /unknown command 'rpl'/, /did you mean 'repl'\?/);
});

test("a value option without its value, a flag with one, and a bad value are errors", (t) => {
  usage(t, ["run", "p.scm", "--steps"], /--steps needs a value \(N\)/);
  usage(t, ["repl", "--sandbox=yes"], /--sandbox takes no value/);
  usage(t, ["repl", "--steps", "0"], /--steps: a positive integer is expected, got "0"/);
  usage(t, ["repl", "--timeout", "soon"], /--timeout: a positive number is expected/);
});

test("every command's options: one meaning per flag name, no clash with the global ones, help on each", (t) => {
  const seen = new Map<string, boolean>();
  const visit = (cs: readonly Command[], chain: Command[]) => {
    for (const c of cs) {
      const here = [...chain, c];
      t.truthy(c.summary, c.name);
      t.truthy(c.usage, c.name);
      t.true(c.run !== undefined || (c.subcommands ?? []).length > 0, `${c.name} runs or has subcommands`);
      const own = new Set<string>();
      for (const o of c.options ?? []) {
        t.truthy(o.help, o.name);
        t.false(GLOBAL_OPTIONS.some((g) => g.name === o.name || (g.short !== undefined && g.short === o.short)), `${o.name} of ${c.name} hides a global option`);
        for (const n of [o.name, o.short].filter((x): x is `-${string}` => x !== undefined)) {
          t.false(own.has(n), `${n} twice in ${c.name}`);
          own.add(n);
          const takes = o.value !== undefined;
          if (seen.has(n)) t.is(seen.get(n), takes, `${n} takes a value in one command and not in another`);
          seen.set(n, takes);
        }
      }
      t.true(optionsOf(here).has("--help"));
      visit(c.subcommands ?? [], here);
    }
  };
  visit(COMMANDS, []);
});
