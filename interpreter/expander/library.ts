// R7RS libraries: define-library, import sets, the registry and the search for .sld files.
//
// A library is loaded and instantiated once per interpreter. Loading is
// all-or-nothing: a library is registered only after its declarations were
// processed, its body ran and its exports resolved, so an error leaves no
// half-loaded library behind. A library being loaded is marked, which turns a
// circular import into an error naming the cycle.

import { Pair, NIL, listToArray, arrayToList } from "../values/pair.js";
import { Sym } from "../values/symbol.js";
import { MString } from "../values/string.js";
import type { SourceLoc } from "../values/loc.js";
import { SchemeError } from "../errors.js";
import { isIdentifier, symOf, strip, syntaxError, sameMeaning, isUnboundCell, TopEnv, type Binding, type Identifier } from "./syntax.js";
import type { Expander } from "./expand.js";
import type { ProcSpec } from "../procspec.js";
import { featureMatch } from "./forms.js";

export interface Library {
  /** "(scheme base)". */
  readonly name: string;
  readonly env: TopEnv;
  readonly exports: Map<Sym, Binding>;
  /** The .sld file it came from, if any. */
  readonly file: string | undefined;
}

/** Finds library source and included files: handed to the interpreter by its host. */
export interface LibraryLoader {
  /** The text of the .sld file defining the library with these name parts (e.g. ["scheme", "base"]), or null. */
  findLibrary(parts: string[]): { path: string; text: string } | null;
  /** The text of a file of the standard library (e.g. "nodwyn/prelude.scm"), or null. */
  findFile(rel: string): { path: string; text: string } | null;
  /** The text of a file a library source includes, resolved against the including file's directory. */
  readInclude(path: string, fromFile: string | undefined): { path: string; text: string };
  /** The path of a file included from `fromFile` (a program, a loaded file, or "<repl>"-like names), for the host's file access to read. */
  resolveInclude?(path: string, fromFile: string | undefined): string;
  /** Where a library with these name parts was looked for, for the "not found" message (e.g. "no a/b.sld in /x, /y"). */
  describeSearch?(parts: string[]): string;
}

/** What the library manager needs from the interpreter. */
export interface LibraryHost {
  readonly expander: Expander;
  readonly loader: LibraryLoader | null;
  /** Reads all data of a source text (locations recorded for `file`). */
  readSource(text: string, file: string, foldCase?: boolean): any[];
  /** Expands, compiles and runs one top-level form in `env`; raises on error. */
  evalTop(form: any, env: TopEnv, loc: SourceLoc | undefined): void;
  /**
   * Libraries that are other names of libraries: key → key, e.g.
   * "srfi 1 lists" → "srfi 1". Importing either gives the same bindings.
   */
  readonly aliases?: ReadonlyMap<string, string>;
  /**
   * Libraries made of procedures implemented in TypeScript, built when first
   * imported: key (e.g. "nodwyn primitives srfi 13") → their table entries.
   */
  readonly primitiveLibraries?: ReadonlyMap<string, readonly ProcSpec[]>;
  /** Builds the library `name` ("(nodwyn primitives srfi 13)"), whose exports are the procedures of `specs`. */
  makePrimitiveLibrary?(name: string, specs: readonly ProcSpec[]): Library;
  /** A new top-level environment (for a library or an `environment` call). */
  newTopEnv(name: string, interactive: boolean): TopEnv;
}

export function libraryKey(name: any): string | null {
  const parts = listToArray(name);
  if (parts === null || parts.length === 0) return null;
  const out: string[] = [];
  for (const p of parts) {
    if (p instanceof Sym) out.push(p.name);
    else if (typeof p === "number" && Number.isInteger(p) && p >= 0) out.push(String(p));
    else return null;
  }
  return out.join(" ");
}

export class LibraryManager {
  private readonly registry = new Map<string, Library>();
  private readonly loading: string[] = [];

  constructor(private readonly host: LibraryHost) {}

  register(lib: Library): void {
    this.registry.set(lib.name.slice(1, -1), lib);
  }

  /** True when the library is loaded, is another name of one that exists, is made of primitives, or its file can be found. */
  exists(name: any): boolean {
    const key = libraryKey(name);
    return key !== null && this.existsKey(key);
  }

  private existsKey(key: string): boolean {
    if (this.registry.has(key) || this.host.primitiveLibraries?.has(key)) return true;
    const target = this.host.aliases?.get(key);
    if (target !== undefined) return this.existsKey(target);
    return this.host.loader?.findLibrary(key.split(" ")) != null;
  }

  /** The library named by the datum `name`, loading it if needed. */
  get(name: any, loc: SourceLoc | undefined): Library {
    const key = libraryKey(name);
    if (key === null) return syntaxError("bad library name", name, loc, "import");
    const have = this.registry.get(key);
    if (have) return have;
    if (this.loading.includes(key))
      return syntaxError(`circular import: ${[...this.loading.slice(this.loading.indexOf(key)), key].map((k) => `(${k})`).join(" -> ")}`, name, loc, "import");
    const target = this.host.aliases?.get(key);
    if (target !== undefined) {
      // Another name of a library: the same Library object, registered under both names.
      const lib = this.get(arrayToList(target.split(" ").map((p) => (/^\d+$/.test(p) ? Number(p) : this.host.expander.sym(p)))), loc);
      this.registry.set(key, lib);
      return lib;
    }
    const source = this.host.primitiveLibraries?.get(key);
    if (source !== undefined && this.host.makePrimitiveLibrary) {
      const lib = this.host.makePrimitiveLibrary(`(${key})`, source);
      this.registry.set(key, lib);
      return lib;
    }
    const found = this.host.loader?.findLibrary(key.split(" ")) ?? null;
    if (found === null) {
      const where = this.host.loader ? this.host.loader.describeSearch?.(key.split(" ")) : "no library directories are configured";
      return syntaxError(`library (${key}) not found${where ? ` (${where})` : ""}`, name, loc, "import");
    }
    const forms = this.host.readSource(found.text, found.path);
    const ex = this.host.expander;
    for (const f of forms) {
      if (f instanceof Pair && isIdentifier(f.car) && symOf(f.car).name === "define-library" && f.cdr instanceof Pair && libraryKey(strip(f.cdr.car)) === key) {
        return this.define(f, ex.locOf(f, undefined), found.path);
      }
    }
    return syntaxError(`${found.path} does not define library (${key})`, name, loc, "import");
  }

  /** Processes a define-library form and registers the library. */
  define(form: Pair, loc: SourceLoc | undefined, file: string | undefined): Library {
    const parts = listToArray(form);
    if (parts === null) return syntaxError("define-library: expected a proper list of declarations", form, loc, "define-library");
    if (parts.length < 2) return syntaxError("define-library: expected a name", form, loc, "define-library");
    const key = libraryKey(strip(parts[1]));
    if (key === null) return syntaxError("define-library: bad library name", form, loc, "define-library");
    const name = `(${key})`;
    this.loading.push(key);
    try {
      const env = this.host.newTopEnv(name, false);
      const exportSpecs: { spec: any; loc: SourceLoc | undefined }[] = [];
      this.declarations(parts.slice(2), env, exportSpecs, file ?? loc?.file, loc);
      const exports = new Map<Sym, Binding>();
      for (const { spec, loc: l } of exportSpecs) {
        let inner: Identifier;
        let outer: Identifier;
        if (isIdentifier(spec)) inner = outer = spec;
        else {
          const r = spec instanceof Pair ? listToArray(spec) : null;
          if (r === null || r.length !== 3 || !isIdentifier(r[0]) || symOf(r[0]).name !== "rename" || !isIdentifier(r[1]) || !isIdentifier(r[2]))
            return syntaxError(`${name}: bad export spec`, spec, l, "define-library");
          inner = r[1];
          outer = r[2];
        }
        const b = env.table.get(symOf(inner));
        if (b === undefined || (b.k === "global" && isUnboundCell(b.cell) && !env.imported.has(symOf(inner))))
          return syntaxError(`${name} exports '${symOf(inner).name}', which it does not define`, spec, l, "define-library");
        const twice = exports.get(symOf(outer));
        if (twice !== undefined && !sameMeaning(twice, b))
          return syntaxError(`${name} exports '${symOf(outer).name}' twice, with different bindings`, spec, l, "define-library");
        exports.set(symOf(outer), b);
      }
      const lib: Library = { name, env, exports, file };
      this.registry.set(key, lib);
      return lib;
    } catch (e) {
      if (e instanceof SchemeError && file && e.condition.loc === undefined) e.condition.loc = loc;
      throw e;
    } finally {
      this.loading.splice(this.loading.indexOf(key), 1);
    }
  }

  private declarations(decls: any[], env: TopEnv, exportSpecs: { spec: any; loc: SourceLoc | undefined }[], file: string | undefined, loc: SourceLoc | undefined): void {
    const ex = this.host.expander;
    for (const d of decls) {
      const l = ex.locOf(d, loc);
      if (!(d instanceof Pair) || !isIdentifier(d.car)) syntaxError("define-library: bad declaration", d, l, "define-library");
      const items = listToArray(d.cdr);
      if (items === null) syntaxError("define-library: bad declaration", d, l, "define-library");
      const kind = symOf(d.car).name;
      switch (kind) {
        case "export":
          for (const s of items as any[]) exportSpecs.push({ spec: s, loc: l });
          break;
        case "import":
          for (const s of items as any[]) this.importInto(env, s, l);
          break;
        case "begin":
          for (const f of items as any[]) this.host.evalTop(f, env, ex.locOf(f, l));
          break;
        case "include":
        case "include-ci":
          for (const f of items as any[]) {
            if (!(f instanceof MString)) syntaxError(`${kind}: expected a file name`, d, l, "define-library");
            for (const form of ex.host.readInclude(f.toString(), file, kind === "include-ci", l)) this.host.evalTop(form, env, ex.locOf(form, l));
          }
          break;
        case "include-library-declarations":
          for (const f of items as any[]) {
            if (!(f instanceof MString)) syntaxError(`${kind}: expected a file name`, d, l, "define-library");
            this.declarations(ex.host.readInclude(f.toString(), file, false, l), env, exportSpecs, file, l);
          }
          break;
        case "cond-expand":
          for (const c of items as any[]) {
            if (!(c instanceof Pair)) syntaxError("cond-expand: bad clause", c, l, "cond-expand");
            if ((isIdentifier(c.car) && symOf(c.car).name === "else") || featureMatch(ex, c.car, d, l)) {
              this.declarations(listToArray(c.cdr) ?? [], env, exportSpecs, file, l);
              break;
            }
          }
          break;
        default:
          syntaxError(`define-library: unknown declaration '${kind}'`, d, l, "define-library");
      }
    }
  }

  /** The bindings an import set denotes. */
  resolve(spec: any, loc: SourceLoc | undefined): Map<Sym, Binding> {
    if (spec instanceof Pair && isIdentifier(spec.car)) {
      const op = symOf(spec.car).name;
      const args = listToArray(spec.cdr);
      if (args !== null && args.length >= 1 && (op === "only" || op === "except" || op === "prefix" || op === "rename")) {
        const base = this.resolve(args[0], loc);
        const rest = args.slice(1);
        switch (op) {
          case "only": {
            const out = new Map<Sym, Binding>();
            for (const id of rest) {
              const s = isIdentifier(id) ? symOf(id) : null;
              if (s === null) return syntaxError("only: expected identifiers", spec, loc, "import");
              const b = base.get(s);
              if (b === undefined) return syntaxError(`only: '${s.name}' is not exported`, spec, loc, "import");
              out.set(s, b);
            }
            return out;
          }
          case "except": {
            const out = new Map(base);
            for (const id of rest) {
              const s = isIdentifier(id) ? symOf(id) : null;
              if (s === null || !out.delete(s)) return syntaxError(`except: '${s?.name ?? strip(id)}' is not exported`, spec, loc, "import");
            }
            return out;
          }
          case "prefix": {
            if (rest.length !== 1 || !isIdentifier(rest[0])) return syntaxError("prefix: expected (prefix import-set identifier)", spec, loc, "import");
            const p = symOf(rest[0]).name;
            const out = new Map<Sym, Binding>();
            for (const [s, b] of base) out.set(this.host.expander.sym(p + s.name), b);
            return out;
          }
          case "rename": {
            const out = new Map(base);
            const renames: [Sym, Sym][] = [];
            for (const r of rest) {
              const ri = r instanceof Pair ? listToArray(r) : null;
              if (ri === null || ri.length !== 2 || !isIdentifier(ri[0]) || !isIdentifier(ri[1]))
                return syntaxError("rename: expected (rename import-set (old new) ...)", spec, loc, "import");
              const from = symOf(ri[0]);
              if (!base.has(from)) return syntaxError(`rename: '${from.name}' is not exported`, spec, loc, "import");
              renames.push([from, symOf(ri[1])]);
            }
            for (const [from] of renames) out.delete(from);
            for (const [from, to] of renames) out.set(to, base.get(from) as Binding);
            return out;
          }
        }
      }
    }
    return new Map(this.get(strip(spec), loc).exports);
  }

  /** Imports an import set into a top-level environment. */
  importInto(top: TopEnv, spec: any, loc: SourceLoc | undefined): void {
    const bindings = this.resolve(spec, loc);
    for (const [s, b] of bindings) {
      const old = top.table.get(s);
      if (old !== undefined && !top.interactive && !sameMeaning(old, b)) {
        if (top.imported.has(s)) syntaxError(`'${s.name}' is imported twice with different bindings`, spec, loc, "import");
        else syntaxError(`import of '${s.name}', which is already defined`, spec, loc, "import");
      }
      top.table.set(s, b);
      top.imported.add(s);
    }
  }
}

export { NIL };
