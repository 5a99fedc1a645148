// The text of `nodwyn --help` and of every `nodwyn COMMAND --help`, made from the commands' declarations.

import { EXIT_CODES_HELP, type Command, type OptionSpec } from "./command.js";
import { GLOBAL_OPTIONS, chainName } from "./parse-args.js";

/** The environment variables the command reads, for --help. */
export const ENVIRONMENT_HELP = `environment:
  NODWYN_DATA_DIR       where session logs live (default $XDG_DATA_HOME/nodwyn, else ~/.local/share/nodwyn)
  NODWYN_PATH           library directories searched after -I, colon-separated
  NODWYN_REPL_HISTORY   the REPL's history file (default ~/.nodwyn_history); empty: no history is kept
  NODWYN_CHAT_HISTORY   chat's history file (default ~/.nodwyn_chat_history); empty: none
  NO_COLOR              set: no colour (FORCE_COLOR=1 forces it)`;

function optionLine(o: OptionSpec): [string, string] {
  const names = [o.short, o.name].filter(Boolean).join(", ");
  return [`${names}${o.value !== undefined ? ` ${o.value}` : ""}`, o.help];
}

/** Two columns, the first padded to the widest entry (at most 24 characters). */
function columns(rows: readonly [string, string][], indent = "  "): string {
  const w = Math.min(24, Math.max(0, ...rows.map((r) => r[0].length)));
  return rows.map(([a, b]) => (a.length > w ? `${indent}${a}\n${indent}${" ".repeat(w)}  ${b}` : `${indent}${a.padEnd(w)}  ${b}`)).join("\n");
}

function visible(cs: readonly Command[]): Command[] {
  return cs.filter((c) => !c.hidden);
}

/** `nodwyn --help`: what nodwyn is, the commands, the global options, exit codes, environment. */
export function mainHelp(registry: readonly Command[], version: string): string {
  const rows: [string, string][] = [];
  for (const c of visible(registry)) {
    rows.push([c.name, c.summary]);
  }
  return `nodwyn ${version} — an embeddable Scheme (R7RS-small) for AI agents

usage: nodwyn [COMMAND] [options] [ARGS...]
       nodwyn FILE.scm [ARGS...]        run a program (as nodwyn run)
       nodwyn                           the REPL (as nodwyn repl)

commands:
${columns(rows)}

options of every command:
${columns(GLOBAL_OPTIONS.map(optionLine))}

Options may come anywhere before \`--\`; what follows \`--\` goes to the command as it is.
\`nodwyn COMMAND --help\` shows a command's own options.

${EXIT_CODES_HELP}

${ENVIRONMENT_HELP}
`;
}

/** `nodwyn COMMAND --help`. */
export function commandHelp(chain: readonly Command[]): string {
  const c = chain[chain.length - 1] as Command;
  const out: string[] = [];
  out.push(`usage: ${c.usage.split("\n").join("\n       ")}`, "");
  out.push(c.summary.replace(/^./, (ch) => ch.toUpperCase()) + (c.summary.endsWith(".") ? "" : "."));
  if (c.description) out.push("", c.description.trimEnd());
  const subs = visible(c.subcommands ?? []);
  if (subs.length > 0) {
    out.push("", "commands:", columns(subs.map((s) => [s.name, s.summary])));
    out.push("", `\`nodwyn ${chainName(chain)} COMMAND --help\` shows a command's own options.`);
  }
  const own: OptionSpec[] = [];
  for (const k of chain) for (const o of k.options ?? []) if (!own.includes(o)) own.push(o);
  if (own.length > 0) out.push("", "options:", columns(own.map(optionLine)));
  out.push("", "options of every command:", columns(GLOBAL_OPTIONS.map(optionLine)));
  if (c.examples && c.examples.length > 0) out.push("", "examples:", ...c.examples.map((e) => `  ${e}`));
  out.push("", EXIT_CODES_HELP);
  return out.join("\n") + "\n";
}
