// The REPL's commands: ,help ,quit ,bt ,time ,expand ,trace ,untrace ,load ,describe ,apropos ,env ,pp ,json (and .help .exit).
//
// One table: each command's names, arguments, one-line summary and help, and
// what it does; ,help is made from it, and so are Tab's completions after ",".

import { Condition, MString, Procedure, writeToString } from "../../../interpreter/api.js";
import { schemeToJson } from "../../../primitives/agent/index.js";
import { nearest } from "../../session/near.js";
import { backtraceOfOutcome, frameLine } from "../report.js";
import { apropos, describe, wrap } from "./describe.js";
import { expandForms } from "./expand.js";
import type { ReplCore } from "./repl-core.js";

export interface MetaCommand {
  readonly names: readonly string[];
  /** As ,help shows the arguments: "EXPR", "[COMMAND]". */
  readonly args: string;
  readonly summary: string;
  /** More for ,help NAME. */
  readonly help?: string;
  run(repl: ReplCore, arg: string): Promise<void> | void;
}

const pluralS = (n: number) => (n === 1 ? "" : "s");

export const META_COMMANDS: readonly MetaCommand[] = [
  {
    names: ["help", "h", "?"],
    args: "[COMMAND | NAME]",
    summary: "this list; ,help COMMAND for one command; ,help NAME describes a procedure",
    run(repl, arg) {
      if (arg === "") return repl.print(helpText(repl.describeContext()));
      const name = arg.replace(/^[,.]/, "");
      const c = findMeta(name);
      if (c !== undefined) {
        const lines = [`,${c.names[0]}${c.args ? " " + c.args : ""}${c.names.length > 1 ? `   (also ${c.names.slice(1).map((n) => "," + n).join(" ")})` : ""}`, `  ${c.summary}`];
        if (c.help) lines.push(...c.help.split("\n").map((l) => `  ${l}`));
        return repl.print(lines.join("\n") + "\n");
      }
      return repl.print(describe(repl.describeContext(), name));
    },
  },
  {
    names: ["quit", "q", "exit"],
    args: "",
    summary: "leave the REPL (also Ctrl-D, .exit)",
    run(repl) {
      repl.quit(0);
    },
  },
  {
    names: ["describe", "d", "doc"],
    args: "NAME",
    summary: "what NAME is: signature, documentation, examples; for an agent primitive its tool schema and guard rules",
    help: "The same text as (help 'NAME) from code. A procedure of your own is documented by a string at the\nstart of its body: (define (f x) \"What f does.\" …).",
    run(repl, arg) {
      if (arg === "") return repl.printError("usage: ,describe NAME (for example ,describe index-grep)\n");
      return repl.print(describe(repl.describeContext(), arg.split(/\s+/)[0] as string));
    },
  },
  {
    names: ["apropos", "a"],
    args: "TEXT",
    summary: "the bound names that contain TEXT, with a line on each",
    run(repl, arg) {
      if (arg === "") return repl.printError("usage: ,apropos TEXT (for example ,apropos string)\n");
      return repl.print(apropos(repl.describeContext(), arg));
    },
  },
  {
    names: ["bt", "backtrace"],
    args: "",
    summary: "the backtrace of the last error, every frame with its location",
    run(repl) {
      const e = repl.lastError;
      if (e === null) return repl.print("no error yet\n");
      const bt = backtraceOfOutcome(e);
      const lines = [repl.style.error(repl.errorHeadline(e))];
      const c = e.condition;
      if (c instanceof Condition && c.loc) {
        const excerpt = repl.sourceExcerpt(c.loc);
        if (excerpt) lines.push(excerpt);
      }
      if (bt.length === 0) lines.push("  (no frames)");
      bt.forEach((f, i) => lines.push(`${String(i).padStart(3)}${frameLine(f).slice(1)}`));
      repl.print(lines.join("\n") + "\n");
    },
  },
  {
    names: ["time", "t"],
    args: "EXPR",
    summary: "evaluate EXPR and say how long it took: wall and CPU time, steps, garbage collection, heap",
    async run(repl, arg) {
      if (arg === "") return repl.printError("usage: ,time EXPR\n");
      await repl.timed(arg);
    },
  },
  {
    names: ["expand", "x"],
    args: "FORM",
    summary: "FORM with every macro expanded, printed as Scheme (core forms only)",
    run(repl, arg) {
      if (arg === "") return repl.printError("usage: ,expand FORM (for example ,expand (when (> x 1) (display x)))\n");
      let out: unknown[];
      try {
        out = expandForms(repl.interp, arg, repl.nextFile());
      } catch (e: any) {
        return repl.printFailure({ ok: false, error: e?.condition ?? e, condition: e?.condition ?? null });
      }
      for (const d of out) repl.print(repl.show(d, true) + "\n");
    },
  },
  {
    names: ["trace", "tr"],
    args: "NAME ...",
    summary: "print each call of the procedures named and what it returns, nested (,untrace stops)",
    async run(repl, arg) {
      const names = arg.split(/\s+/).filter(Boolean);
      if (names.length === 0) {
        const t = repl.tracer.names();
        return repl.print(t.length ? `traced: ${t.join(", ")}\n` : "usage: ,trace NAME (nothing is traced now)\n");
      }
      for (const n of names) repl.print((await repl.tracer.trace(n)) + "\n");
    },
  },
  {
    names: ["untrace"],
    args: "[NAME ...]",
    summary: "stop tracing the procedures named, or all of them",
    run(repl, arg) {
      const names = arg.split(/\s+/).filter(Boolean);
      if (names.length === 0) return repl.print(repl.tracer.untrace() + "\n");
      for (const n of names) repl.print(repl.tracer.untrace(n) + "\n");
    },
  },
  {
    names: ["load", "l"],
    args: "FILE",
    summary: "evaluate the forms of FILE here (as (load \"FILE\"))",
    async run(repl, arg) {
      const file = arg.trim().replace(/^"(.*)"$/, "$1");
      if (file === "") return repl.printError("usage: ,load FILE\n");
      await repl.evaluateAndPrint(`(load ${writeToString(new MString(file), "write")})`, { quiet: true, after: () => `loaded ${file}` });
    },
  },
  {
    names: ["env", "e"],
    args: "[TEXT]",
    summary: "the names you have defined here, with their values (TEXT: only those containing it)",
    run(repl, arg) {
      const top = repl.interp.interactionEnvironment();
      const mine: [string, unknown][] = [];
      let imported = 0;
      for (const [s, b] of top.table) {
        if (s.name.startsWith("%")) continue;
        if (top.imported.has(s) || b.k !== "global") {
          imported++;
          continue;
        }
        if (b.cell.v?.constructor?.name === "Unbound") continue;
        if (arg && !s.name.includes(arg)) continue;
        mine.push([s.name, b.cell.v]);
      }
      mine.sort((a, b) => (a[0] < b[0] ? -1 : 1));
      const lines = [`${mine.length} name${pluralS(mine.length)} defined here${arg ? ` containing "${arg}"` : ""}; ${imported} more from the libraries (,apropos TEXT searches them)`];
      const w = Math.min(24, Math.max(0, ...mine.map(([n]) => n.length)));
      for (const [n, v] of mine) {
        const shown = v instanceof Procedure ? writeToString(v, "write") : repl.show(v, false, { depth: 3, length: 8, string: 60, lines: 1 });
        lines.push(`  ${repl.style.code(n.padEnd(w))}  ${shown.split("\n")[0]}`);
      }
      repl.print(lines.join("\n") + "\n");
    },
  },
  {
    names: ["pp", "pretty-print"],
    args: "EXPR",
    summary: "evaluate EXPR and print its value whole, laid out over lines (,pp $1 for the last result)",
    async run(repl, arg) {
      if (arg === "") return repl.printError("usage: ,pp EXPR (for example ,pp $1)\n");
      await repl.evaluateAndPrint(arg, { whole: true });
    },
  },
  {
    names: ["json", "j"],
    args: "EXPR",
    summary: "evaluate EXPR and print its value as JSON (SRFI 180: alists with symbol keys are objects, vectors arrays, 'null null)",
    async run(repl, arg) {
      if (arg === "") return repl.printError("usage: ,json EXPR (for example ,json (fs-read \"README.md\" 1 3))\n");
      await repl.evaluateAndPrint(arg, {
        render: (v: unknown) => {
          try {
            return JSON.stringify(schemeToJson(v), null, 2);
          } catch (e: any) {
            throw new Error(`cannot be written as JSON (${String(e?.message ?? e).replace(/^not a JSON value: .*/, "not a JSON value")}): ${repl.show(v, false, { depth: 3, length: 5, string: 40, lines: 1 })}`);
          }
        },
      });
    },
  },
];

/** The command a word names (without its , or .), or undefined. */
export function findMeta(word: string): MetaCommand | undefined {
  return META_COMMANDS.find((c) => c.names.includes(word));
}

/** Every command name with its comma, for completion. */
export function metaNames(): string[] {
  return META_COMMANDS.flatMap((c) => c.names).map((n) => "," + n);
}

/** The text of ,help. */
export function helpText(repl: { readonly style: ReplCore["style"]; readonly width?: number }): string {
  const st = repl.style;
  // Filled to the terminal's width (at most 100 columns), the summaries in a column of their own.
  const width = Math.max(60, repl.width ?? 100);
  const rows = META_COMMANDS.map((c) => [`,${c.names[0]}${c.args ? " " + c.args : ""}`, c.summary] as const);
  const w = Math.max(...rows.map((r) => r[0].length));
  const hang = " ".repeat(w + 4);
  const para = (text: string) => wrap(text, width, "");
  return [
    para("REPL commands (also written .help, .exit; a command may be shortened to its alias, e.g. ,d for ,describe):"),
    ...rows.map(([a, b]) => `  ${st.code(a.padEnd(w))}  ${wrap(b, width, hang).slice(hang.length)}`),
    "",
    para("From code: (help 'fs-read) describes a procedure, (help) prints this. The last three results are $1 $2 $3."),
    para(
      "Keys: Tab completes names, Up/Down and Ctrl-R search the history, Ctrl-C drops the line or interrupts an evaluation, Alt-Enter starts a new line, Ctrl-D leaves. The reference: docs/reference/README.md.",
    ),
    "",
  ].join("\n");
}

/** The reply to an unknown command: the nearest one, and where to look. */
export function unknownMeta(word: string): string {
  const near = nearest(word, META_COMMANDS.flatMap((c) => c.names));
  return `unknown REPL command ,${word}${near !== undefined ? ` (did you mean ,${near}?)` : ""}; ,help lists them\n`;
}

