// The SRFI part of the generated reference (docs/reference/srfi.md): the SRFI table and every export of each library.
//
// Like the rest of the reference, nothing here is a second copy of the
// documentation: the status comes from the SRFI table (primitives/srfi/index.ts),
// each export's signature and doc from its TypeScript table entry or from the
// `;;` comment above its definition in stdlib/srfi/N.sld. A comment may start
// with the signature, `(string-pad s len [char] [start] [end])`, which then
// replaces the one read from the definition (optional arguments, syntax).

import { readFileSync } from "node:fs";
import { relative, sep } from "node:path";
import { NIL, Pair, Procedure, Reader, Sym, locationOf, writeToString, type Interpreter, type Library, type ProcSpec } from "../../interpreter/api.js";
import { SRFIS, type SrfiEntry } from "../../primitives/srfi/index.js";
import { GENERATED_NOTICE, anchorOf, md, signatureOf } from "./reference-text.js";
import { sourcePath } from "../session/node-interpreter.js";

/** One export of an SRFI library. */
export interface SrfiExport {
  readonly name: string;
  readonly kind: "procedure" | "syntax" | "value";
  readonly params: readonly string[];
  readonly doc: string;
  /**
   * typescript: a table entry; scheme: defined in the library's file; r7rs: the binding R7RS (or nodwyn's
   * builtins) has; srfi: the binding of an SRFI listed before (SRFI 152's string-index is SRFI 13's).
   */
  readonly source: "typescript" | "scheme" | "r7rs" | "srfi";
  /** For r7rs and srfi: where the reference documents it (scheme.md#car, #srfi-13-string-index), if it does. */
  readonly link?: string;
}

/** One SRFI that is here: its table line, its library names and its exports in name order. */
export interface SrfiSection {
  readonly entry: SrfiEntry;
  readonly libraries: readonly string[];
  readonly file: string;
  readonly exports: readonly SrfiExport[];
}

export interface SrfiReference {
  readonly table: readonly SrfiEntry[];
  readonly sections: readonly SrfiSection[];
}

interface Definition {
  readonly params: string[] | null;
  readonly comment: string | null;
  readonly kind: "procedure" | "syntax" | "value";
}

/** Code-unit order, the same on every machine and locale. */
function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function items(x: any): any[] | null {
  const out: any[] = [];
  for (; x instanceof Pair; x = x.cdr) out.push(x.car);
  return x === NIL ? out : null;
}

const isSym = (x: any, name?: string): x is Sym => x instanceof Sym && (name === undefined || x.name === name);

/** The parameters of a lambda list, as the reference writes them: `(a b . rest)` → a, b, rest .... */
function formalsOf(formals: any): string[] {
  const out: string[] = [];
  for (; formals instanceof Pair; formals = formals.cdr) out.push(isSym(formals.car) ? formals.car.name : writeToString(formals.car, "write"));
  if (isSym(formals)) out.push(`${formals.name} ...`);
  return out;
}

/**
 * A signature at the start of a comment: `(name a [b] c ...)` → the parameters
 * and the rest of the comment, or null when the comment does not start with one.
 */
export function leadingSignature(name: string, comment: string): { params: string[]; rest: string } | null {
  if (!comment.startsWith(`(${name} `) && !comment.startsWith(`(${name})`)) return null;
  let depth = 0;
  let end = -1;
  for (let i = 0; i < comment.length; i++) {
    const c = comment[i];
    if (c === "(" || c === "[") depth++;
    else if (c === ")" || c === "]") {
      depth--;
      if (depth === 0) {
        end = i;
        break;
      }
    }
  }
  if (end < 0) return null;
  const inner = comment.slice(name.length + 2, end).trim();
  const tokens = inner === "" ? [] : inner.match(/\[[^\]]*\]|\([^)]*\)|[^\s]+/g) ?? [];
  const params: string[] = [];
  for (const t of tokens) {
    if (t === "..." && params.length > 0) params[params.length - 1] += " ...";
    else if (t.startsWith("[") && t.includes(" ")) {
      // [start end] is two optional parameters.
      for (const p of t.slice(1, -1).trim().split(/\s+/)) params.push(`[${p}]`);
    } else params.push(t);
  }
  const rest = comment.slice(end + 1).replace(/^[\s:,;.—-]+/, "").trim();
  return { params, rest: rest.charAt(0).toUpperCase() + rest.slice(1) };
}

/** The definitions in the `begin` declarations of the define-library forms of a file, with the comment block above each. */
function libraryDefinitions(interp: Interpreter, file: string): Map<string, Definition> {
  const text = readFileSync(sourcePath(file), "utf8");
  const lines = text.split("\n");
  const out = new Map<string, Definition>();
  const commentAbove = (form: any): string | null => {
    const line = locationOf(form)?.line;
    if (line === undefined) return null;
    const block: string[] = [];
    for (let i = line - 2; i >= 0; i--) {
      const l = (lines[i] as string).trim();
      if (!l.startsWith(";;") || l.startsWith(";;;")) break;
      block.unshift(l.replace(/^;;\s?/, ""));
    }
    return block.length > 0 ? block.join(" ").replace(/\s+/g, " ").trim() : null;
  };
  const visit = (form: any): void => {
    const f = items(form);
    if (f === null || !isSym(f[0])) return;
    const head = f[0].name;
    const comment = commentAbove(form);
    if (head === "begin") f.slice(1).forEach(visit);
    else if (head === "define" && f[1] instanceof Pair && isSym(f[1].car)) {
      out.set(f[1].car.name, { params: formalsOf(f[1].cdr), comment, kind: "procedure" });
    } else if (head === "define" && isSym(f[1])) {
      const value = items(f[2]);
      const lambda = value !== null && (isSym(value[0], "lambda") ? formalsOf(value[1]) : null);
      out.set(f[1].name, { params: lambda || null, comment, kind: lambda ? "procedure" : "value" });
    } else if (head === "define-syntax" && isSym(f[1])) {
      out.set(f[1].name, { params: null, comment, kind: "syntax" });
    } else if (head === "define-values") {
      for (const v of items(f[1]) ?? []) if (isSym(v)) out.set(v.name, { params: null, comment, kind: "value" });
    } else if (isSym(f[1]) && comment !== null && leadingSignature(f[1].name, comment) !== null) {
      // A definition made by a macro of the library, (define-s-criterion string-index …): its comment gives the signature.
      out.set(f[1].name, { params: null, comment, kind: "procedure" });
    } else if (head === "define-record-type") {
      // The constructor, the predicate and the field procedures share the comment above the form.
      const type = isSym(f[1]) ? f[1].name.replace(/^<(.*)>$/, "$1") : "record";
      const ctor = items(f[2]);
      if (ctor !== null && isSym(ctor[0])) out.set(ctor[0].name, { params: ctor.slice(1).map((x) => (isSym(x) ? x.name : "?")), comment, kind: "procedure" });
      if (isSym(f[3])) out.set(f[3].name, { params: ["obj"], comment, kind: "procedure" });
      for (const spec of f.slice(4)) {
        const s = items(spec);
        if (s === null) continue;
        if (isSym(s[1])) out.set(s[1].name, { params: [type], comment, kind: "procedure" });
        if (isSym(s[2])) out.set(s[2].name, { params: [type, "value"], comment, kind: "procedure" });
      }
    }
  };
  for (const form of new Reader(text, { file, symbols: interp.symbols, locations: true }).readAll()) {
    const f = items(form);
    if (f === null || !isSym(f[0], "define-library")) continue;
    for (const decl of f.slice(2)) {
      const d = items(decl);
      if (d !== null && isSym(d[0], "begin")) d.slice(1).forEach(visit);
    }
  }
  return out;
}

function specOf(p: Procedure): ProcSpec | null {
  const d = p.data;
  return p.info.kind === "primitive" && d !== null && typeof d === "object" && Array.isArray(d.params) && typeof d.doc === "string" ? (d as ProcSpec) : null;
}

/**
 * Every SRFI of the table, and for each that is here the exports of its library,
 * documented. `r7rsLink(name)` says where the rest of the reference documents a
 * builtin binding (or null). Throws when an export has no documentation.
 */
export function collectSrfiReference(interp: Interpreter, repoRoot: string, r7rsLink: (name: string) => string | null): SrfiReference {
  const sections: SrfiSection[] = [];
  // Bindings already documented under an earlier SRFI: a global's cell or a macro's binding → its anchor and name.
  const seen = new Map<unknown, { anchor: string; label: string }>();
  const identity = (b: any): unknown => (b.k === "global" ? b.cell : b);
  // A library may re-export another SRFI's binding that comes later in number order ((srfi 69) re-exports
  // (srfi 125)'s tables): such a binding is documented where it is defined, and linked from the earlier SRFI.
  const definedIn = new Map<unknown, number>();
  for (const entry of SRFIS) {
    if (entry.status !== "complete") continue;
    const lib: Library = interp.library(`(srfi ${entry.number})`);
    if (lib.file === undefined) continue;
    const defs = libraryDefinitions(interp, lib.file);
    const prims = new Set((entry.primitives ?? []).map((p) => p.name));
    for (const [sym, b] of lib.exports) {
      if (definedIn.has(identity(b))) continue;
      if (defs.has(sym.name) || prims.has(sym.name)) definedIn.set(identity(b), entry.number);
    }
  }
  for (const entry of SRFIS) {
    if (entry.status !== "complete") continue;
    const libName = `(srfi ${entry.number})`;
    const lib: Library = interp.library(libName);
    if (lib.file === undefined) throw new Error(`gen-reference: ${libName} has no file`);
    const file = relative(repoRoot, sourcePath(lib.file)).split(sep).join("/");
    const defs = libraryDefinitions(interp, lib.file);
    const exports: SrfiExport[] = [];
    for (const [sym, b] of lib.exports) {
      const name = sym.name;
      const builtin = interp.builtins.table.get(sym);
      const shared = builtin !== undefined && (builtin === b || (builtin.k === "global" && b.k === "global" && builtin.cell === b.cell));
      if (shared) {
        const link = r7rsLink(name);
        exports.push({ name, kind: b.k === "global" ? "procedure" : "syntax", params: [], doc: "", source: "r7rs", ...(link !== null ? { link } : {}) });
        continue;
      }
      const owner = definedIn.get(identity(b));
      if (!seen.has(identity(b)) && owner !== undefined && owner !== entry.number) {
        const label = `SRFI ${owner}'s ${name}`;
        exports.push({ name, kind: b.k === "global" ? "procedure" : "syntax", params: [], doc: label, source: "srfi", link: `#${exportAnchor(owner, name)}` });
        continue;
      }
      const earlier = seen.get(identity(b));
      if (earlier !== undefined) {
        exports.push({ name, kind: b.k === "global" ? "procedure" : "syntax", params: [], doc: earlier.label, source: "srfi", link: `#${earlier.anchor}` });
        continue;
      }
      seen.set(identity(b), { anchor: exportAnchor(entry.number, name), label: `SRFI ${entry.number}'s ${name}` });
      const value = b.k === "global" ? b.cell.v : undefined;
      const spec = value instanceof Procedure ? specOf(value) : null;
      if (spec !== null) {
        exports.push({ name, kind: "procedure", params: spec.params, doc: spec.doc, source: "typescript" });
        continue;
      }
      const def = defs.get(name);
      if (def === undefined) throw new Error(`gen-reference: ${libName} exports ${name}, which ${file} does not define with a form the generator reads`);
      if (def.comment === null) throw new Error(`gen-reference: ${name} (${file}) has no ;; comment: write one above its definition`);
      const lead = leadingSignature(name, def.comment);
      const params = lead?.params ?? def.params;
      const kind = def.kind === "value" && value instanceof Procedure ? "procedure" : def.kind;
      if (params === null && kind !== "value") throw new Error(`gen-reference: ${name} (${file}): start its comment with its signature, (${name} …)`);
      // A value's comment may start "name: …", as the comment of a char-set or a constant does.
      const doc = lead?.rest ?? (def.comment.startsWith(`${name}: `) ? def.comment.slice(name.length + 2) : def.comment);
      exports.push({ name, kind, params: params ?? [], doc: doc.charAt(0).toUpperCase() + doc.slice(1), source: "scheme" });
    }
    exports.sort((a, b) => byName(a.name, b.name));
    const libraries = [libName, ...(entry.name !== undefined ? [`(srfi ${entry.number} ${entry.name})`] : [])];
    sections.push({ entry, libraries, file, exports });
  }
  return { table: SRFIS, sections };
}

function sectionAnchor(n: number): string {
  return `srfi-${n}`;
}

function exportAnchor(n: number, name: string): string {
  return `srfi-${n}-${anchorOf(name)}`;
}

/** docs/reference/srfi.md. */
export function renderSrfi(ref: SrfiReference): string {
  const here = ref.sections.length;
  const out: string[] = [GENERATED_NOTICE, "", "# SRFIs", ""];
  out.push(
    `Every SRFI nodwyn has or plans, with its status: ${here} are here, each complete as its document specifies. ` +
      "An SRFI is an R7RS library: `(import (srfi 1))`, or by the name the SRFI's text or common practice gives it, `(import (srfi 1 lists))` " +
      "(both names are one library: importing the two is no conflict). `cond-expand` knows each as a feature (`srfi-1`, …), and `(features)` lists them. " +
      "Names an SRFI shares with R7RS are R7RS's own bindings, so importing `(scheme base)` beside it is no conflict either. " +
      "How to use them: [../guides/libraries.md](../guides/libraries.md#srfis). The documents: https://srfi.schemers.org/.",
    "",
    "| SRFI | Title | Libraries | Status | Notes |",
    "|---|---|---|---|---|",
  );
  for (const e of ref.table) {
    const s = ref.sections.find((x) => x.entry.number === e.number);
    const num = s ? `[${e.number}](#${sectionAnchor(e.number)})` : String(e.number);
    const libs = s ? s.libraries.map((l) => `\`${l}\``).join(", ") : "—";
    out.push(`| ${num} | ${md(e.title)} | ${libs} | ${e.status} | ${e.note !== undefined ? md(e.note) : ""} |`);
  }
  out.push("");
  for (const s of ref.sections) {
    const n = s.entry.number;
    const own = s.exports.filter((x) => x.source !== "r7rs" && x.source !== "srfi");
    const shared = s.exports.filter((x) => x.source === "r7rs");
    const fromSrfis = s.exports.filter((x) => x.source === "srfi");
    const ts = own.filter((x) => x.source === "typescript").length;
    out.push(`<a id="${sectionAnchor(n)}"></a>`, "", `## SRFI ${n}: ${md(s.entry.title)}`, "");
    const facts = [
      `Libraries ${s.libraries.map((l) => `\`${l}\``).join(", ")}; feature \`srfi-${n}\`; the document: https://srfi.schemers.org/srfi-${n}/srfi-${n}.html.`,
      `Defined in \`${s.file}\`` + (ts > 0 ? `, ${ts} of its ${own.length} own exports in TypeScript (its table, \`(nodwyn primitives srfi ${n})\`).` : "."),
    ];
    if (s.entry.note !== undefined) facts.push(md(s.entry.note));
    out.push(facts.join(" "), "");
    if (shared.length > 0) {
      out.push(
        "Also exported, the very bindings R7RS has: " +
          shared.map((x) => (x.link !== undefined ? `[\`${x.name}\`](${x.link})` : `\`${x.name}\``)).join(", ") +
          ".",
        "",
      );
    }
    if (fromSrfis.length > 0) {
      out.push(
        "Also exported, the very bindings of the SRFIs above (importing both is no conflict): " +
          fromSrfis.map((x) => `[\`${x.name}\`](${x.link}) (${x.doc})`).join(", ") +
          ".",
        "",
      );
    }
    for (const x of own) {
      out.push(`<a id="${exportAnchor(n, x.name)}"></a>`, "", `### \`${x.name}\``, "");
      const what = x.kind === "syntax" ? "syntax" : x.kind === "value" ? "a value" : x.source === "typescript" ? "TypeScript" : "Scheme";
      const sig = x.kind === "value" && x.params.length === 0 ? `\`${x.name}\`` : `\`${signatureOf(x)}\``;
      out.push(`${sig} — ${what}`, "", md(x.doc), "");
    }
  }
  return out.join("\n") + "\n";
}
