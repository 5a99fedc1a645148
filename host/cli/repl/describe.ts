// ,describe NAME, ,apropos TEXT and (help 'name): what a name is, its signature, documentation, examples, and for an agent primitive its tool schema and guard rules.
//
// Everything comes from the sources the reference is generated from
// (host/cli/docs.ts): a primitive's table entry, a Scheme procedure's `;;`
// comment or docstring (also for procedures defined at the REPL), the
// libraries' export lists; the examples of standard procedures are evaluated
// when shown.

import { readFileSync } from "node:fs";
import { Condition, MString, Procedure, formatRaised, writeToString, type Interpreter } from "../../../interpreter/api.js";
import { DEFAULT_DENYLIST } from "../../guard/index.js";
import type { Session } from "../../session/session.js";
import { INSTALL_DIR, createNodeInterpreter, isStdlibSource, sourcePath } from "../../session/node-interpreter.js";
import { relative } from "node:path";
import { nearestAll } from "../../session/near.js";
import { AGENT_EXAMPLES, SCHEME_EXAMPLES, isToolSpec, schemeDefinitions, schemeLibraryExports, specOf } from "../docs.js";
import { anchorOf, summaryOf } from "../gen-reference.js";
import type { Style } from "../terminal/style.js";
import { showValue } from "./show.js";

export interface DescribeContext {
  readonly interp: Interpreter;
  /** The session (its guard's root and checkers), when there is one. */
  readonly session: Session | null;
  readonly style: Style;
  readonly width: number;
}

/** The primitives that read files through the read guard. */
const GUARDED = new Set(["fs-read", "fs-find", "index-grep", "index-search"]);

/** One line on each special form a newcomer meets first. */
const SYNTAX_DOCS: Readonly<Record<string, string>> = {
  define: "(define name value) or (define (name param ...) body ...): binds a name at the top level or at the start of a body.",
  lambda: "(lambda (param ...) body ...): a procedure; (lambda args body ...) takes any number of arguments as a list.",
  let: "(let ((name value) ...) body ...): local names; (let loop ((i 0)) ...) names a loop.",
  "let*": "(let* ((name value) ...) body ...): like let, each value sees the names before it.",
  letrec: "(letrec ((name value) ...) body ...): local names that may refer to each other (mutual recursion).",
  "letrec*": "(letrec* ((name value) ...) body ...): like letrec, the values evaluated in order.",
  if: "(if test then [else]): then when test is not #f, else otherwise.",
  cond: "(cond (test expr ...) ... (else expr ...)): the first clause whose test is not #f; (test => proc) calls proc with its value.",
  case: "(case key ((datum ...) expr ...) ... (else expr ...)): the clause whose data contain key (by eqv?).",
  and: "(and expr ...): #f at the first #f, else the last value.",
  or: "(or expr ...): the first value that is not #f, else #f.",
  when: "(when test body ...): the body when test is not #f.",
  unless: "(unless test body ...): the body when test is #f.",
  begin: "(begin expr ...): the expressions in order, the value of the last.",
  do: "(do ((var init step) ...) (test result ...) body ...): a loop.",
  "set!": "(set! name value): assigns a variable that is already bound.",
  quote: "(quote datum) or 'datum: the datum itself, unevaluated.",
  quasiquote: "`(a ,b ,@c): a template; , inserts a value, ,@ splices a list.",
  "define-syntax": "(define-syntax name (syntax-rules (literal ...) (pattern template) ...)): a macro.",
  "syntax-rules": "(syntax-rules (literal ...) (pattern template) ...): hygienic pattern-based macro transformer.",
  "define-record-type": "(define-record-type point (make-point x y) point? (x point-x) (y point-y set-point-y!)): a record type.",
  "define-values": "(define-values (a b . rest) expr): binds the values expr returns.",
  "let-values": "(let-values (((a b) expr) ...) body ...): binds the values of each expr.",
  guard: "(guard (e (test handler ...) ...) body ...): catches a raised condition e; (else ...) catches all.",
  parameterize: "(parameterize ((param value) ...) body ...): rebinds parameters (current-output-port …) for the body.",
  delay: "(delay expr): a promise; force evaluates expr once.",
  "case-lambda": "(case-lambda ((x) ...) ((x y) ...)): a procedure choosing its clause by the number of arguments.",
  import: "(import (scheme base) (nodwyn agent) ...): makes a library's names visible.",
  "define-library": "(define-library (name ...) (export ...) (import ...) (begin ...)): a library.",
  include: '(include "file.scm"): the forms of a file, in place.',
  "cond-expand": "(cond-expand (feature body ...) ... (else ...)): the first clause whose feature requirement holds, see (features).",
};

/** A value's kind, as a person would name it. */
function typeName(v: unknown): string {
  if ((typeof v === "number" && Number.isInteger(v)) || typeof v === "bigint") return "an exact integer";
  if (typeof v === "boolean") return "a boolean";
  if (v instanceof MString) return "a string";
  if (Array.isArray(v)) return "a vector";
  if (v instanceof Uint8Array) return "a bytevector";
  if (v instanceof Condition) return "a condition";
  const t = writeToString(v, "write");
  if (t.startsWith("(") || t === "()") return "a list";
  if (t.startsWith("#<")) return "an object";
  return "a value";
}

/** Text filled into lines of at most `width` columns, each starting with `indent`. */
export function wrap(text: string, width: number, indent: string): string {
  const words = text.split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let line = "";
  for (const w of words) {
    if (line !== "" && indent.length + line.length + 1 + w.length > width) {
      lines.push(indent + line);
      line = w;
    } else line = line === "" ? w : `${line} ${w}`;
  }
  if (line !== "") lines.push(indent + line);
  return lines.join("\n");
}

let scratch: Interpreter | null = null;

/** What an example returns (or raises), evaluated in an interpreter of its own. */
function runExample(code: string): string {
  scratch ??= createNodeInterpreter();
  let printed = "";
  scratch.attachHost({ stdout: { write: (c) => void (printed += typeof c === "string" ? c : Buffer.from(c).toString()) } });
  const out = scratch.evaluateSyncOutcome(code, { file: "example", limits: { steps: 1_000_000 } });
  const shown = out.ok ? showValue(out.value, { width: 70 }) : `error: ${formatRaised(out.error).replace(/^example:\d+:\d+: /, "")}`;
  return (printed ? `prints ${JSON.stringify(printed)}, ` : "") + (out.ok && shown === "" ? "no value" : `⇒ ${shown}`);
}

/** Which part of the reference documents a name. */
function referenceLink(name: string, section: "scheme" | "agent" | "nodwyn"): string {
  return `docs/reference/${section}.md#${anchorOf(name)}`;
}

/** The text of ,describe NAME. */
export function describe(ctx: DescribeContext, name: string): string {
  const { interp, style: st, width } = ctx;
  const sym = interp.symbols.intern(name);
  const b = interp.interactionEnvironment().table.get(sym);
  const libs = schemeLibraryExports(interp.symbols).get(name) ?? [];
  const lines: string[] = [];
  const head = (what: string) => lines.push(`${st.bold(name)}: ${what}`);
  const para = (t: string) => lines.push(wrap(t, width, "  "));
  if (b === undefined || (b.k === "global" && b.cell.v?.constructor?.name === "Unbound")) {
    const names = [...interp.interactionEnvironment().table.keys()].map((s) => s.name).filter((n) => !n.startsWith("%"));
    const near = nearestAll(name, names, 3);
    return `nothing is bound to ${name} here${near.length ? `; did you mean ${near.join(", ")}?` : ""}\n  ,apropos ${name.slice(0, 4)} lists the names that contain "${name.slice(0, 4)}"\n`;
  }
  if (b.k !== "global") {
    head(`syntax (a special form)${libs.length ? `, in ${libs.join(", ")}` : ""}`);
    const doc = SYNTAX_DOCS[name];
    if (doc) para(doc);
    lines.push(st.dim(`  see R7RS chapters 4 and 5; docs/reference/scheme.md#syntax`));
    return lines.join("\n") + "\n";
  }
  const v = b.cell.v;
  if (!(v instanceof Procedure)) {
    head(`a variable, ${typeName(v)}`);
    lines.push("  " + showValue(v, { limits: { depth: 4, length: 10, string: 200, lines: 5 }, width: width - 2, style: st }).replace(/\n/g, "\n  "));
    return lines.join("\n") + "\n";
  }
  const spec = specOf(v);
  const tool = spec !== null && isToolSpec(spec) ? spec : null;
  if (spec !== null) {
    const section = tool !== null || GUARDED.has(name) ? "agent" : libs.length > 0 ? "scheme" : "nodwyn";
    head(`${tool ? "an agent primitive (a procedure and a model tool)" : "a procedure"}${libs.length ? `, in ${libs.join(", ")}` : ""}${spec.async ? "; asynchronous" : ""}`);
    lines.push("  " + st.code(`(${[name, ...spec.params].join(" ")})`));
    para(spec.doc);
    examples(name, !!tool, lines, st);
    if (tool) {
      lines.push("  " + st.bold("As a model tool:"));
      lines.push(wrap(tool.tool.description, width, "    "));
      lines.push(...schemaLines(tool.tool.inputSchema as Schema, width, st));
    }
    if (GUARDED.has(name)) guardRules(ctx, lines);
    lines.push(st.dim(`  reference: ${referenceLink(name, section)}`));
    return lines.join("\n") + "\n";
  }
  if (v.info.kind === "lambda") {
    const loc = v.info.loc;
    const text = loc ? (ctx.session?.sources.get(loc.file) ?? readText(loc.file)) : undefined;
    let params: string[] | null = null;
    let doc: string | null = null;
    if (loc && text !== undefined) {
      try {
        const def = schemeDefinitions(interp.symbols, loc.file, text).get(name);
        if (def) {
          params = def.params;
          doc = def.docstring ?? def.comment;
        }
      } catch {
        // a text that no longer reads: the signature below comes from the arity
      }
    }
    const file = loc ? sourcePath(loc.file) : "";
    const inLib = loc !== undefined && file.startsWith(INSTALL_DIR + "/");
    const where = loc ? `${inLib ? relative(INSTALL_DIR, file) : loc.file}:${loc.line}:${loc.col}` : "";
    head(`a procedure${libs.length ? `, in ${libs.join(", ")}` : ""}${where ? `; ${inLib ? "written in Scheme in" : "defined at"} ${where}` : ""}`);
    lines.push("  " + st.code(`(${[name, ...(params ?? arityParams(v))].join(" ")})`));
    if (doc) para(doc);
    else if (!(loc && isStdlibSource(loc.file))) lines.push(st.dim('  no documentation: a string at the start of its body, (define (f x) "What f does." …), documents it'));
    examples(name, false, lines, st);
    if (loc && isStdlibSource(loc.file)) lines.push(st.dim(`  reference: ${referenceLink(name, libs.length > 0 ? "scheme" : "nodwyn")}`));
    return lines.join("\n") + "\n";
  }
  head(v.info.kind === "parameter" ? "a parameter (call it for its value; parameterize rebinds it)" : v.info.kind === "continuation" ? "a continuation" : "a procedure");
  return lines.join("\n") + "\n";
}

function readText(file: string): string | undefined {
  if (file.startsWith("<")) return undefined;
  try {
    return readFileSync(sourcePath(file), "utf8");
  } catch {
    return undefined;
  }
}

/** Parameter names from a procedure's arity, when its source cannot be read. */
function arityParams(p: Procedure): string[] {
  const out: string[] = [];
  for (let i = 0; i < p.info.minArgs; i++) out.push(`arg${i + 1}`);
  if (p.info.maxArgs < 0) out.push("rest ...");
  else for (let i = p.info.minArgs; i < p.info.maxArgs; i++) out.push(`[arg${i + 1}]`);
  return out;
}

function examples(name: string, agent: boolean, lines: string[], st: Style): void {
  if (agent) {
    const ex = AGENT_EXAMPLES.find(([n]) => n === name)?.[1] ?? [];
    if (ex.length > 0) {
      lines.push("  " + st.bold(ex.length === 1 ? "Example:" : "Examples:"));
      for (const e of ex) lines.push("    " + st.code(e));
    }
    return;
  }
  const ex = SCHEME_EXAMPLES[name] ?? [];
  if (ex.length === 0) return;
  lines.push("  " + st.bold(ex.length === 1 ? "Example:" : "Examples:"));
  for (const e of ex) lines.push(`    ${st.code(e)}  ${st.dim(runExample(e))}`);
}

interface Schema {
  readonly properties?: Readonly<Record<string, { type?: string; description?: string; minimum?: number; maximum?: number; maxLength?: number }>>;
  readonly required?: readonly string[];
}

/** A tool's input schema, one argument a line: name, type, bounds, whether required, what it is. */
function schemaLines(schema: Schema, width: number, st: Style): string[] {
  const props = Object.entries(schema.properties ?? {});
  const out = [`    input (JSON Schema, ${props.length} argument${props.length === 1 ? "" : "s"}; ,json shows a result as the model would get it):`];
  const w = Math.max(0, ...props.map(([n]) => n.length));
  for (const [name, p] of props) {
    const facts = [p.type ?? "any", (schema.required ?? []).includes(name) ? "required" : "optional"];
    if (p.minimum !== undefined || p.maximum !== undefined) facts.push(`${p.minimum ?? ""}..${p.maximum ?? ""}`);
    if (p.maxLength !== undefined) facts.push(`at most ${p.maxLength} characters`);
    const head = `      ${st.code(name.padEnd(w))}  ${facts.join(", ")}`;
    out.push(head);
    if (p.description) out.push(wrap(p.description, width, " ".repeat(w + 8)));
  }
  return out;
}

/** The guard's rules as they apply in this session. */
function guardRules(ctx: DescribeContext, lines: string[]): void {
  const st = ctx.style;
  const s = ctx.session;
  lines.push("  " + st.bold("The read guard decides every file it reads (docs/security.md):"));
  lines.push(`    root      only files under ${s ? s.root : "the repository root"}; no "..", no symbolic links, no devices or FIFOs`);
  const shown = DEFAULT_DENYLIST.filter((p) => !p.startsWith("!")).slice(0, 10).join(" ");
  lines.push(`    denylist  ${DEFAULT_DENYLIST.length} secret-file patterns are never read, e.g.`);
  lines.push(wrap(`${shown} …`, ctx.width, "              "));
  const checkers = s ? s.checkers.list().map((c) => c.name) : [];
  lines.push(`    checkers  ${checkers.length ? `${checkers.join(", ")} (from .nodwyn/checks.scm), asked before each read` : "none registered (.nodwyn/checks.scm registers project checkers)"}`);
  lines.push("    ask       a checker's ask verdict is put to you at this prompt; the answer is logged");
  lines.push("    log       every decision is recorded in the session log (guard.decision)");
}

/** The text of ,apropos TEXT: the bound names that contain it, each with its first sentence. */
export function apropos(ctx: DescribeContext, text: string): string {
  const { interp, style: st, width } = ctx;
  const q = text.toLowerCase();
  const hits: { name: string; what: string }[] = [];
  for (const [s, b] of interp.interactionEnvironment().table) {
    if (s.name.startsWith("%") || !s.name.toLowerCase().includes(q)) continue;
    if (b.k !== "global") {
      hits.push({ name: s.name, what: "syntax" });
      continue;
    }
    const v = b.cell.v;
    if (v?.constructor?.name === "Unbound") continue;
    const spec = specOf(v);
    hits.push({ name: s.name, what: spec ? summaryOf(spec.doc) : v instanceof Procedure ? "procedure" : typeName(v) });
  }
  if (hits.length === 0) return `no bound name contains "${text}"\n`;
  hits.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const w = Math.min(28, Math.max(...hits.map((h) => h.name.length)));
  const lines = hits.map((h) => {
    const left = h.name.padEnd(w);
    const room = Math.max(10, width - w - 4);
    const what = h.what.length > room ? h.what.slice(0, room - 1) + "…" : h.what;
    return `  ${st.code(left)}  ${st.dim(what)}`;
  });
  return `${hits.length} name${hits.length === 1 ? "" : "s"} containing "${text}" (,describe NAME for one):\n${lines.join("\n")}\n`;
}
