// Generates docs/reference/ from the live procedure tables and the Scheme sources of stdlib/ (`npm run docs`).
//
// Nothing here is a second copy of the documentation: signatures and docs come
// from each procedure's table entry (ProcSpec, kept in `proc.data` by the
// registration layer), or, for procedures written in Scheme, from their
// `(define (name . params) …)` form and the `;;` comment block right above it.
// The few explicit tables below only say where a procedure belongs (a report
// chapter) and, as a marked fallback, document what has no source yet.

import { mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import {
  BASE_FEATURES,
  Condition,
  Procedure,
  UNSPECIFIED,
  formatRaised,
  writeToString,
  type Interpreter,
  type ProcSpec,
} from "../../interpreter/api.js";
import { schemeTables } from "../../primitives/index.js";
import { AGENT_EXAMPLES, isToolSpec, schemeDefinitions, schemeLibraryExports, specOf, type SchemeDefinition } from "./docs.js";
import type { AgentToolSpec } from "../../primitives/agent/index.js";
import { createNodeInterpreter, INSTALL_DIR, sourcePath } from "../session/node-interpreter.js";
import { Session } from "../session/session.js";
import { REGISTER_CHECK } from "../session/checks.js";
import { GENERATED_NOTICE, anchorOf, fence, md, signatureOf, summaryOf } from "./reference-text.js";
import { collectSrfiReference, renderSrfi, type SrfiReference } from "./gen-srfi-reference.js";

export { GENERATED_NOTICE, anchorOf, signatureOf, summaryOf };
import { collectLoopReference, renderLoop, type LoopReference } from "./loop-reference.js";

/** The repository this installation runs from: docs/ and stdlib/ are found there. */
export const REPO_ROOT = INSTALL_DIR;


/** The files this generator writes into docs/reference/. */
export const REFERENCE_FILES = ["README.md", "scheme.md", "agent.md", "nodwyn.md", "srfi.md", "loop.md"] as const;

/**
 * Report chapters of the procedures that are not in primitives/ tables: the
 * machine's and the interpreter's own primitives and those written in Scheme.
 * The primitives/scheme tables give every other chapter (primitives/index.ts).
 * A procedure in none of these stops the generator: add it here.
 */
const CHAPTER_OF: Readonly<Record<string, string>> = {
  // interpreter/machine/control.ts
  values: "6.10 Control features",
  apply: "6.10 Control features",
  "call-with-current-continuation": "6.10 Control features",
  "call/cc": "6.10 Control features",
  "procedure?": "6.10 Control features",
  raise: "6.11 Exceptions",
  "raise-continuable": "6.11 Exceptions",
  error: "6.11 Exceptions",
  "error-object?": "6.11 Exceptions",
  "error-object-message": "6.11 Exceptions",
  "error-object-irritants": "6.11 Exceptions",
  "file-error?": "6.11 Exceptions",
  "read-error?": "6.11 Exceptions",
  "condition-kind": "6.11 Exceptions",
  // interpreter/interpreter.ts (corePrimitives and the port parameters)
  eval: "6.12 Environments and evaluation",
  environment: "6.12 Environments and evaluation",
  "interaction-environment": "6.12 Environments and evaluation",
  "scheme-report-environment": "6.12 Environments and evaluation",
  "null-environment": "6.12 Environments and evaluation",
  load: "6.14 System interface",
  features: "6.14 System interface",
  "emergency-exit": "6.14 System interface",
  "current-input-port": "6.13 Input and output",
  "current-output-port": "6.13 Input and output",
  "current-error-port": "6.13 Input and output",
  // stdlib/nodwyn/prelude.scm
  "call-with-values": "6.10 Control features",
  "dynamic-wind": "6.10 Control features",
  map: "6.10 Control features",
  "for-each": "6.10 Control features",
  "vector-map": "6.10 Control features",
  "vector-for-each": "6.10 Control features",
  "string-map": "6.10 Control features",
  "string-for-each": "6.10 Control features",
  "with-exception-handler": "6.11 Exceptions",
  "make-parameter": "4.2.6 Dynamic bindings",
  "make-promise": "4.2.5 Delayed evaluation",
  force: "4.2.5 Delayed evaluation",
  "promise?": "4.2.5 Delayed evaluation",
  member: "6.4 Pairs and lists",
  assoc: "6.4 Pairs and lists",
  "call-with-port": "6.13 Input and output",
  exit: "6.14 System interface",
  // stdlib/nodwyn/io.scm
  "call-with-input-file": "6.13 Input and output",
  "call-with-output-file": "6.13 Input and output",
  "with-input-from-file": "6.13 Input and output",
  "with-output-to-file": "6.13 Input and output",
};

/**
 * FALLBACK DOCUMENTATION — used only for a procedure that has no table entry
 * and no `;;` comment above its definition in stdlib/. Each entry here is a
 * gap to close at the source (a comment in stdlib/nodwyn/*.scm, a doc on the
 * parameter); the generator warns when an entry is no longer used. `params`
 * is used only when the source gives no signature (parameters, record
 * procedures made by define-record-type).
 */
const FALLBACK_DOCS: Readonly<Record<string, { readonly doc: string; readonly params?: readonly string[] }>> = {
  // Parameters made by the interpreter (interpreter/interpreter.ts): no table entry.
  "current-input-port": { params: [], doc: "The current textual input port, a parameter: read, read-char, read-line … read from it by default. parameterize rebinds it." },
  "current-output-port": { params: [], doc: "The current textual output port, a parameter: write, display, newline … write to it by default. parameterize rebinds it." },
  "current-error-port": { params: [], doc: "The current error port, a parameter. parameterize rebinds it." },
  // Made by define-record-type in stdlib/nodwyn/prelude.scm.
  "promise?": { params: ["obj"], doc: "True when obj is a promise (made by delay, delay-force or make-promise)." },
};

/** register-check runs only in .nodwyn/checks.scm: the example's checks file, and a read it denies. */
const CHECKS_EXAMPLE = '(register-check "private-notes" (lambda (path info) (if (string=? path "notes.txt") \'(deny "notes are private") \'allow)))';
const CHECKS_EXAMPLE_READ = '(fs-read "notes.txt")';

/** The example repository: relative path → contents. */
const EXAMPLE_TREE: Readonly<Record<string, string>> = {
  "README.md": "# demo\n\nA small repository for the reference's examples.\n",
  "notes.txt": "remember the milk\n",
  "src/greet.scm": ";; Greets someone.\n(define (greet name)\n  (string-append \"hello, \" name))\n\n(display (greet \"world\"))\n",
  "src/count.scm": "(define (count-to n)\n  ;; TODO: a named let reads better\n  (do ((i 1 (+ i 1))) ((> i n)) (display i)))\n",
  "config/credentials.json": "{\"token\": \"not for the model\"}\n",
  ".env": "TOKEN=not-for-the-model\n",
  ".nodwyn/checks.scm": CHECKS_EXAMPLE + "\n",
};

/** One example call: its source and what it returned (write text and, for a model tool, the rendering) or raised. */
export interface RefExample {
  readonly code: string;
  readonly value?: string;
  readonly rendered?: string;
  readonly raised?: { readonly kind: string; readonly code: string | undefined; readonly message: string };
}

/** One documented procedure. */
export interface RefEntry {
  readonly name: string;
  readonly params: readonly string[];
  readonly doc: string;
  /** Where doc comes from: the table entry, the `;;` comment in stdlib/, or this generator's FALLBACK_DOCS. */
  readonly docSource: "table" | "comment" | "fallback";
  /** For procedures written in Scheme: their file, relative to the repository root. */
  readonly schemeFile?: string;
  readonly section: "scheme" | "agent" | "nodwyn";
  readonly chapter: string;
  /** The (scheme …) libraries that export it. */
  readonly libraries: readonly string[];
  readonly async: boolean;
  readonly tool?: AgentToolSpec["tool"];
  readonly examples?: readonly RefExample[];
}

/** Everything the reference shows. */
export interface Reference {
  readonly entries: readonly RefEntry[];
  /** Syntactic keywords (not procedures) and the (scheme …) libraries that export them. */
  readonly syntax: readonly { readonly name: string; readonly libraries: readonly string[] }[];
  readonly features: readonly string[];
  /** Scheme-defined procedures (not internal) with no `;;` comment above their definition. */
  readonly missingComments: readonly string[];
  /** FALLBACK_DOCS entries that nothing needs any more. */
  readonly unusedFallbacks: readonly string[];
  /** The SRFI table and the exports of each SRFI library. */
  readonly srfi: SrfiReference;
  /** The agent loop's tools and strategy procedures (loop.md). */
  readonly loop: LoopReference;
}

/** Code-unit order, the same on every machine and locale. */
function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** "6.10 Control features" → [6, 10], for ordering chapters by number. */
function chapterKey(ch: string): number[] {
  return (/^[\d.]+/.exec(ch)?.[0] ?? "99").split(".").filter(Boolean).map(Number);
}

function byChapter(a: string, b: string): number {
  const ka = chapterKey(a);
  const kb = chapterKey(b);
  for (let i = 0; i < Math.max(ka.length, kb.length); i++) {
    const d = (ka[i] ?? -1) - (kb[i] ?? -1);
    if (d !== 0) return d;
  }
  return byName(a, b);
}

/** Procedure-valued globals of an environment table, by name (internal `%` names left out). */
function procedures(interp: Interpreter): Map<string, Procedure> {
  const out = new Map<string, Procedure>();
  for (const [sym, b] of interp.builtins.table) {
    if (b.k !== "global" || sym.name.startsWith("%")) continue;
    if (b.cell.v instanceof Procedure) out.set(sym.name, b.cell.v);
  }
  return out;
}

/** Collects the reference from a fresh interpreter, a session over a temporary repository, and stdlib/. */
export async function collectReference(): Promise<Reference> {
  const interp = createNodeInterpreter();
  const exported = schemeLibraryExports(interp.symbols);
  const tableChapter = new Map<string, string>();
  for (const t of schemeTables) for (const s of t.specs) tableChapter.set(s.name, t.chapter);

  const usedFallbacks = new Set<string>();
  const missingComments: string[] = [];
  const definitions = new Map<string, Map<string, SchemeDefinition>>();
  const definitionsIn = (file: string) => {
    let m = definitions.get(file);
    if (m === undefined) definitions.set(file, (m = schemeDefinitions(interp.symbols, file, readFileSync(sourcePath(file), "utf8"))));
    return m;
  };

  /** Signature and documentation of one procedure, from its table entry, its Scheme source or the fallback table. */
  const describe = (name: string, p: Procedure): Pick<RefEntry, "params" | "doc" | "docSource" | "schemeFile" | "async"> & { spec: ProcSpec | null } => {
    const spec = specOf(p);
    if (spec !== null) return { params: spec.params, doc: spec.doc, docSource: "table", async: spec.async === true, spec };
    const fallback = FALLBACK_DOCS[name];
    const file = p.info.kind === "lambda" ? p.info.loc?.file : undefined;
    if (file !== undefined) {
      const def = definitionsIn(file).get(name);
      if (def === undefined) throw new Error(`gen-reference: ${name} is defined in ${file}, but not by a (define (${name} …) …) form the generator reads`);
      const schemeFile = relative(REPO_ROOT, sourcePath(file)).split(sep).join("/");
      if (def.comment !== null) return { params: def.params, doc: def.comment, docSource: "comment", schemeFile, async: false, spec };
      missingComments.push(name);
      if (fallback === undefined) throw new Error(`gen-reference: ${name} (${schemeFile}) has no ;; comment: write one above its definition`);
      usedFallbacks.add(name);
      return { params: def.params, doc: fallback.doc, docSource: "fallback", schemeFile, async: false, spec };
    }
    if (fallback === undefined || fallback.params === undefined) {
      throw new Error(`gen-reference: ${name} (a ${p.info.kind}) has no table entry, no Scheme definition and no FALLBACK_DOCS entry`);
    }
    usedFallbacks.add(name);
    return { params: fallback.params, doc: fallback.doc, docSource: "fallback", async: false, spec };
  };

  const chapterOf = (name: string): string => {
    const ch = tableChapter.get(name) ?? CHAPTER_OF[name];
    if (ch === undefined) throw new Error(`gen-reference: no report chapter for ${name}: add it to CHAPTER_OF in host/cli/gen-reference.ts`);
    return ch;
  };

  const entries: RefEntry[] = [];
  const base = procedures(interp);
  for (const [name, p] of base) {
    const { params, doc, docSource, schemeFile, async } = describe(name, p);
    const libraries = exported.get(name) ?? [];
    entries.push({ name, params, doc, docSource, ...(schemeFile !== undefined ? { schemeFile } : {}), async, section: libraries.length > 0 ? "scheme" : "nodwyn", chapter: chapterOf(name), libraries });
  }

  // The agent primitives: what a session adds to the standard interpreter, over a throw-away repository.
  const root = realpathSync(mkdtempSync(join(tmpdir(), "nodwyn-reference-")));
  let loop: LoopReference;
  try {
    for (const [rel, text] of Object.entries(EXAMPLE_TREE)) {
      mkdirSync(dirname(join(root, rel)), { recursive: true });
      writeFileSync(join(root, rel), text);
    }
    const quiet = { write: () => {} };
    // The repository index of the examples lives in a data directory of its own, outside the repository.
    const data = realpathSync(mkdtempSync(join(tmpdir(), "nodwyn-reference-data-")));
    const session = await Session.open({ origin: "docs", cwd: root, root, log: false, stdout: quiet, stderr: quiet, actor: "model", index: { dataDir: data } });
    try {
      const agentNames = [...procedures(session.interp).keys()].filter((n) => !base.has(n)).sort(byName);
      const examples = new Map<string, RefExample[]>();
      for (const [name, codes] of AGENT_EXAMPLES) {
        if (!agentNames.includes(name)) throw new Error(`gen-reference: AGENT_EXAMPLES names ${name}, which no session defines`);
        const spec = specOf(session.interp.lookup(name));
        const list: RefExample[] = [];
        for (const code of codes) {
          const out = await session.interp.evaluateOutcome(code, { file: "example.scm" });
          const scrub = (s: string) => s.split(root).join("<root>");
          if (out.ok) {
            const rendered = spec !== null && isToolSpec(spec) && code.startsWith(`(${name} `) ? scrub(spec.render(out.value)) : undefined;
            const value = out.value === UNSPECIFIED ? undefined : scrub(writeToString(out.value, "write"));
            list.push({ code, ...(value !== undefined ? { value } : {}), ...(rendered !== undefined ? { rendered } : {}) });
          } else {
            const c = out.condition instanceof Condition ? out.condition : null;
            list.push({ code, raised: { kind: c?.kind ?? "raise", code: c?.code, message: scrub(formatRaised(out.error)) } });
          }
        }
        examples.set(name, list);
      }
      for (const name of agentNames) {
        const p = session.interp.lookup(name) as Procedure;
        const { spec, params, doc, docSource, schemeFile, async } = describe(name, p);
        const ex = examples.get(name);
        entries.push({
          name,
          params,
          doc,
          docSource,
          ...(schemeFile !== undefined ? { schemeFile } : {}),
          async,
          section: "agent",
          chapter: spec !== null && isToolSpec(spec) ? "Model tools" : "Session procedures",
          libraries: [],
          ...(spec !== null && isToolSpec(spec) ? { tool: spec.tool } : {}),
          ...(ex !== undefined ? { examples: ex } : {}),
        });
      }
      // The checkers' own procedure, from its entry in host/session/checks.ts, with a read its checker denies.
      const denied = await session.interp.evaluateOutcome(CHECKS_EXAMPLE_READ, { file: "example.scm" });
      if (denied.ok) throw new Error("gen-reference: the example checker did not deny its read");
      const c = denied.condition instanceof Condition ? denied.condition : null;
      entries.push({
        name: REGISTER_CHECK.name,
        params: REGISTER_CHECK.params,
        doc: REGISTER_CHECK.doc,
        docSource: "table",
        async: false,
        section: "agent",
        chapter: "Checker procedures (.nodwyn/checks.scm only)",
        libraries: [],
        examples: [{ code: CHECKS_EXAMPLE }, { code: CHECKS_EXAMPLE_READ, raised: { kind: c?.kind ?? "raise", code: c?.code, message: formatRaised(denied.error).split(root).join("<root>") } }],
      });
    } finally {
      session.close();
      rmSync(data, { recursive: true, force: true });
    }
    loop = await collectLoopReference(root);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }

  // Syntax: bindings of the builtins that are not variables, listed with the libraries that export them.
  const syntax: { name: string; libraries: string[] }[] = [];
  for (const [sym, b] of interp.builtins.table) {
    if (b.k === "global" || sym.name.startsWith("%")) continue;
    syntax.push({ name: sym.name, libraries: exported.get(sym.name) ?? [] });
  }

  entries.sort((a, b) => byName(a.name, b.name));
  syntax.sort((a, b) => byName(a.name, b.name));
  const documented = new Map(entries.filter((e) => e.section !== "agent").map((e) => [e.name, linkOf(e)]));
  const syntaxNames = new Set(syntax.filter((s) => s.libraries.length > 0).map((s) => s.name));
  const srfi = collectSrfiReference(interp, REPO_ROOT, (name) => documented.get(name) ?? (syntaxNames.has(name) ? "scheme.md#syntax" : null));
  return {
    srfi,
    entries,
    syntax,
    features: [...BASE_FEATURES],
    missingComments: [...new Set(missingComments)].sort(byName),
    unusedFallbacks: Object.keys(FALLBACK_DOCS).filter((n) => !usedFallbacks.has(n)).sort(byName),
    loop,
  };
}

// ---- rendering ----------------------------------------------------------------------------------

const FILE_OF: Readonly<Record<RefEntry["section"], string>> = { scheme: "scheme.md", agent: "agent.md", nodwyn: "nodwyn.md" };

function linkOf(e: RefEntry): string {
  return `${FILE_OF[e.section]}#${anchorOf(e.name)}`;
}

function entryBlock(e: RefEntry, level: string): string[] {
  const out: string[] = [];
  out.push(`<a id="${anchorOf(e.name)}"></a>`, "", `${level} \`${e.name}\``, "");
  const facts = [`\`${signatureOf(e)}\``];
  if (e.async) facts.push("asynchronous (the evaluation waits for it; an error in evaluateSync)");
  if (e.libraries.length > 0) facts.push(`in ${e.libraries.map((l) => `\`${l}\``).join(", ")}`);
  out.push(facts.join(" — "), "", md(e.doc), "");
  if (e.schemeFile !== undefined) {
    const note =
      e.docSource === "fallback"
        ? `Written in Scheme in \`${e.schemeFile}\`; documented by the fallback table of host/cli/gen-reference.ts until a \`;;\` comment is written above its definition.`
        : `Written in Scheme in \`${e.schemeFile}\`.`;
    out.push(`*${note}*`, "");
  } else if (e.docSource === "fallback") {
    out.push("*Documented by the fallback table of host/cli/gen-reference.ts (it has no table entry).*", "");
  }
  return out;
}

function header(title: string, intro: string[]): string[] {
  return [GENERATED_NOTICE, "", `# ${title}`, "", ...intro, ""];
}

function chapters(entries: readonly RefEntry[]): [string, RefEntry[]][] {
  const m = new Map<string, RefEntry[]>();
  for (const e of entries) m.set(e.chapter, [...(m.get(e.chapter) ?? []), e]);
  return [...m.entries()].sort((a, b) => byChapter(a[0], b[0]));
}

function renderIndex(ref: Reference): string {
  const count = (s: RefEntry["section"]) => ref.entries.filter((e) => e.section === s).length;
  const out = header("nodwyn reference", [
    `Every procedure an interpreter of a \`nodwyn\` session defines: ${ref.entries.length} in all — ` +
      `${count("scheme")} of R7RS-small ([scheme.md](scheme.md), by report chapter, with the \`(scheme …)\` libraries that export them), ` +
      `${count("agent")} agent primitives ([agent.md](agent.md), with their model-tool schemas), ` +
      `${count("nodwyn")} nodwyn extensions ([nodwyn.md](nodwyn.md)). ` +
      `The agent loop's ${ref.loop.tools.length} tools as offered to the model and a strategy's procedures: [loop.md](loop.md).`,
    "",
    "Signatures: `[x]` is optional, `x ...` takes any number of further arguments. " +
      "Names starting with `%` are internal and not listed. Embedding from TypeScript: [../guides/embedding.md](../guides/embedding.md).",
    "",
    `The SRFIs, imported as libraries, are in [srfi.md](srfi.md): the table of every SRFI nodwyn has or plans with its status ` +
      `(${ref.srfi.sections.length} here), and each library's exports.`,
  ]);
  out.push("| Procedure | Signature | Summary |", "|---|---|---|");
  for (const e of ref.entries) {
    out.push(`| [\`${e.name}\`](${linkOf(e)}) | \`${signatureOf(e).replace(/\|/g, "\\|")}\` | ${md(summaryOf(e.doc))} |`);
  }
  return out.join("\n") + "\n";
}

function renderScheme(ref: Reference): string {
  const entries = ref.entries.filter((e) => e.section === "scheme");
  const out = header("R7RS-small procedures", [
    `The ${entries.length} procedures of R7RS-small, by chapter of the report. Each names the \`(scheme …)\` libraries ` +
      "that export it (stdlib/scheme/*.sld); the REPL, `nodwyn -e` and an embedder's `evaluate` see all of them without an import. " +
      "Complex numbers are built in (ADR 0039): `1+2i`, `+i` and `1@2` are literals, and `make-rectangular`, `real-part`, `angle` and the rest are in (scheme complex) as well as (scheme r5rs).",
  ]);
  for (const [ch, list] of chapters(entries)) {
    out.push(`## ${ch}`, "");
    for (const e of list) out.push(...entryBlock(e, "###"));
  }
  const exportedSyntax = ref.syntax.filter((s) => s.libraries.length > 0);
  const other = ref.syntax.filter((s) => s.libraries.length === 0);
  out.push("## Syntax", "", "Syntactic keywords (R7RS chapters 4 and 5) are not procedures; the libraries that export them:", "");
  out.push("| Keyword | Libraries |", "|---|---|");
  for (const s of exportedSyntax) out.push(`| \`${s.name}\` | ${s.libraries.map((l) => `\`${l}\``).join(", ")} |`);
  if (other.length > 0) {
    out.push("", `Also bound, and exported by no \`(scheme …)\` library (program and library declarations): ${other.map((s) => `\`${s.name}\``).join(", ")}.`);
  }
  return out.join("\n") + "\n";
}

function renderAgent(ref: Reference): string {
  const entries = ref.entries.filter((e) => e.section === "agent");
  const tree = Object.keys(EXAMPLE_TREE).sort(byName);
  const out = header("Agent primitives", [
    `The ${entries.length} procedures a session adds for agents (\`nodwyn repl\`, \`run\`, \`-e\` and an agent's loop; host/session/session.ts). ` +
      "A model tool is a Scheme procedure and a tool at once: the same table entry (primitives/agent/) gives the procedure, " +
      "the tool's description and JSON input schema (the tool's argument names are the parameters without brackets), " +
      "and how a result is rendered for the model. Results are alists with symbol keys and vectors, SRFI 180's JSON mapping.",
    "",
    `The examples run, when this file is generated, over a repository holding ${tree.map((p) => `\`${p}\``).join(", ")}.`,
  ]);
  for (const [ch, list] of chapters(entries)) {
    out.push(`## ${ch}`, "");
    for (const e of list) {
      out.push(...entryBlock(e, "###"));
      if (e.tool !== undefined) {
        out.push("**As a model tool.** " + md(e.tool.description), "", "Input schema:", "", fence("json", JSON.stringify(e.tool.inputSchema, null, 2)), "");
      }
      for (const x of e.examples ?? []) {
        out.push(fence("scheme", x.code), "");
        if (x.raised !== undefined) {
          out.push(`raises a \`${x.raised.kind}\` condition${x.raised.code !== undefined ? ` (code \`${x.raised.code}\`)` : ""}:`, "", fence("text", x.raised.message), "");
        } else {
          if (x.value === undefined) out.push("returns an unspecified value.", "");
          else out.push("returns", "", fence("scheme", x.value), "");
          if (x.rendered !== undefined) out.push("rendered for the model as", "", fence("text", x.rendered), "");
        }
      }
    }
  }
  return out.join("\n") + "\n";
}

function renderNodwyn(ref: Reference): string {
  const entries = ref.entries.filter((e) => e.section === "nodwyn");
  const out = header("nodwyn extensions", [
    `The ${entries.length} procedures nodwyn adds to R7RS-small, grouped by the report chapter they extend. ` +
      "The REPL, `nodwyn -e` and an embedder's `evaluate` see them without an import; a program or library imports them " +
      "with `(import (nodwyn builtins))`.",
    "",
    "Keywords are a self-evaluating type of their own, written `#:name`. `:name` is an identifier (R7RS): where nothing binds it, a reference to it evaluates to the keyword `#:name`, so `(recall-log :match \"x\")` passes a keyword, while `':name` is a symbol and `(define-syntax :optional …)` binds it (ADR 0033).",
    "",
    `\`cond-expand\` features of every interpreter: ${ref.features.map((f) => `\`${f}\``).join(", ")}; the Node host adds the platform's (\`posix\`, \`unix\`, \`linux\`, the architecture, the byte order).`,
  ]);
  for (const [ch, list] of chapters(entries)) {
    out.push(`## ${ch}`, "");
    for (const e of list) out.push(...entryBlock(e, "###"));
  }
  return out.join("\n") + "\n";
}

/** The generated files: name → contents. */
export function renderReference(ref: Reference): Record<(typeof REFERENCE_FILES)[number], string> {
  const seen = new Map<string, string>();
  for (const e of ref.entries) {
    const id = anchorOf(e.name);
    const other = seen.get(id);
    if (other !== undefined) throw new Error(`gen-reference: ${e.name} and ${other} have the same anchor ${id}`);
    seen.set(id, e.name);
  }
  return {
    "README.md": renderIndex(ref),
    "scheme.md": renderScheme(ref),
    "agent.md": renderAgent(ref),
    "nodwyn.md": renderNodwyn(ref),
    "srfi.md": renderSrfi(ref.srfi),
    "loop.md": renderLoop(ref.loop, { header, md, fence, anchor: anchorOf }),
  };
}

/** Writes the reference into `outDir` (created if needed); other .md files there are removed. */
export async function generateReference(outDir: string): Promise<Reference> {
  const ref = await collectReference();
  const files = renderReference(ref);
  mkdirSync(outDir, { recursive: true });
  for (const f of readdirSync(outDir)) if (f.endsWith(".md") && !(f in files)) rmSync(join(outDir, f));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(outDir, name), text);
  return ref;
}

async function main(): Promise<void> {
  const outDir = resolve(process.argv[2] ?? join(REPO_ROOT, "docs", "reference"));
  const ref = await generateReference(outDir);
  const count = (s: RefEntry["section"]) => ref.entries.filter((e) => e.section === s).length;
  process.stdout.write(`docs: ${ref.entries.length} procedures (${count("scheme")} R7RS, ${count("agent")} agent, ${count("nodwyn")} nodwyn) into ${relative(process.cwd(), outDir) || "."}\n`);
  if (ref.missingComments.length > 0) {
    process.stderr.write(`docs: documented by the fallback table, no ;; comment in stdlib/ yet: ${ref.missingComments.join(" ")}\n`);
  }
  if (ref.unusedFallbacks.length > 0) {
    process.stderr.write(`docs: FALLBACK_DOCS entries no longer needed (remove them): ${ref.unusedFallbacks.join(" ")}\n`);
  }
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e) => {
    process.stderr.write(`gen-reference: ${e?.message ?? e}\n`);
    process.exit(1);
  });
}
