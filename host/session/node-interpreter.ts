// Composition root for Node: an Interpreter with the standard procedures, the stdlib and Node's services.
//
// Everything host-specific the interpreter needs is handed in here: the library
// loader (stdlib/ first, then the -I directories and $NODWYN_PATH), file access
// (the real file system, or a guarded one), process access and the console.

import { readFileSync, writeFileSync, appendFileSync, existsSync, unlinkSync, statSync, readSync } from "node:fs";
import { dirname, join, resolve, isAbsolute, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { arch, platform, endianness } from "node:os";
import { StringDecoder } from "node:string_decoder";
import {
  Interpreter,
  FileAccessError,
  type InterpreterOptions,
  type LibraryLoader,
  type FileAccess,
  type ProcessAccess,
  type ProcSpec,
  type PortSink,
  type PortSource,
} from "../../interpreter/api.js";
import { schemePrimitives } from "../../primitives/index.js";
import { srfiAliases, srfiFeatures, srfiPrimitiveLibraries } from "../../primitives/srfi/index.js";

/**
 * The root of this installation: the nearest folder above this module that
 * holds stdlib/ and package.json (the module may be dist/host/session/… or the
 * bundle dist/nodwyn.mjs).
 */
export const INSTALL_DIR = (() => {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, "stdlib", "scheme", "base.sld")) && existsSync(join(dir, "package.json"))) return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error("nodwyn: cannot find its stdlib/ folder above " + fileURLToPath(import.meta.url));
    dir = up;
  }
})();

/** The stdlib/ folder of this installation. */
export const STDLIB_DIR = join(INSTALL_DIR, "stdlib");

/**
 * How a file of the standard library is named in source locations, backtraces
 * and messages: "stdlib/scheme/base.sld", relative to the stdlib, never the
 * host's absolute path (a model reads these messages; issue 11, finding 11).
 * The snapshot's compiled stdlib carries these names too, whatever folder it
 * was built in.
 */
export const STDLIB_PREFIX = "stdlib/";

/** The name a file is shown by: stdlib files relative to the stdlib (STDLIB_PREFIX), other paths as they are. */
export function sourceName(path: string): string {
  return path.startsWith(STDLIB_DIR + sep) ? STDLIB_PREFIX + path.slice(STDLIB_DIR.length + 1).split(sep).join("/") : path;
}

/** The file on disk a source name stands for: the inverse of sourceName (a stdlib name to its file; anything else as it is). */
export function sourcePath(name: string): string {
  if (!name.startsWith(STDLIB_PREFIX)) return name;
  const path = join(STDLIB_DIR, ...name.slice(STDLIB_PREFIX.length).split("/"));
  return existsSync(path) ? path : name;
}

/** Whether a source name or path is a file of the standard library. */
export function isStdlibSource(file: string): boolean {
  return file.startsWith(STDLIB_DIR + sep) || (file.startsWith(STDLIB_PREFIX) && sourcePath(file) !== file);
}

/** The version in package.json. */
export const VERSION: string = JSON.parse(readFileSync(join(INSTALL_DIR, "package.json"), "utf8")).version;

/**
 * Finds .sld libraries and stdlib files on a search path. Files of the
 * stdlib are named relative to it (sourceName); other files by their path.
 */
export class DirectoryLoader implements LibraryLoader {
  readonly paths: string[];
  /** The directories as given (shown in messages: the stdlib as "stdlib/", never its absolute path). */
  readonly given: string[];
  constructor(paths: readonly string[]) {
    this.paths = paths.map((p) => resolve(p));
    this.given = [...paths];
  }
  /** Adds directories to search, after those already there. */
  add(paths: readonly string[]): void {
    this.paths.push(...paths.map((p) => resolve(p)));
    this.given.push(...paths);
  }
  findFile(rel: string): { path: string; text: string } | null {
    for (const dir of this.paths) {
      const path = join(dir, rel);
      if (existsSync(path) && statSync(path).isFile()) return { path: sourceName(path), text: readFileSync(path, "utf8") };
    }
    return null;
  }
  findLibrary(parts: string[]): { path: string; text: string } | null {
    if (!parts.every(isFileNamePart)) return null;
    return this.findFile(parts.join("/") + ".sld");
  }
  describeSearch(parts: string[]): string {
    if (!parts.every(isFileNamePart)) return "a library name part that names a file cannot be '.', '..' or contain '/' or '\\'";
    return `no ${parts.join("/")}.sld in ${this.paths.map((p, i) => (p === STDLIB_DIR ? STDLIB_PREFIX : this.given[i])).join(", ")}`;
  }
  readInclude(path: string, fromFile: string | undefined): { path: string; text: string } {
    const full = isAbsolute(path) ? path : resolve(fromFile ? dirname(sourcePath(fromFile)) : process.cwd(), path);
    return { path: sourceName(full), text: readFileSync(full, "utf8") };
  }
  resolveInclude(path: string, fromFile: string | undefined): string {
    // Relative to the including file; from the REPL, -e or eval ("<repl>", "<eval>"), as given,
    // so that file access resolves it as it resolves load and open-input-file.
    if (isAbsolute(path) || fromFile === undefined || fromFile.startsWith("<")) return path;
    return join(dirname(fromFile), path);
  }
}

/** A library name part maps to a directory or file name: never one that leaves the search directory. */
function isFileNamePart(p: string): boolean {
  return p !== "" && p !== "." && p !== ".." && !p.includes("/") && !p.includes("\\") && !p.includes("\0");
}

function fsError(e: any, path: string): FileAccessError {
  return new FileAccessError(e?.code ?? "EIO", path, e?.message ?? String(e));
}

/** Plain access to the real file system (a person's own program under `nodwyn run`). */
export const nodeFileAccess: FileAccess = {
  readFile(path) {
    try {
      return readFileSync(path);
    } catch (e) {
      throw fsError(e, path);
    }
  },
  writeFile(path, data, append) {
    try {
      if (append) appendFileSync(path, data);
      else writeFileSync(path, data);
    } catch (e) {
      throw fsError(e, path);
    }
  },
  exists(path) {
    return existsSync(path);
  },
  deleteFile(path) {
    try {
      unlinkSync(path);
    } catch (e) {
      throw fsError(e, path);
    }
  },
};

/** Process access: the command line given, the real environment, and exit. */
export function nodeProcessAccess(commandLine: string[]): ProcessAccess {
  return {
    commandLine: () => commandLine,
    getEnv: (name) => process.env[name],
    allEnv: () => Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined)),
    exit: (code) => process.exit(code),
  };
}

/** The console as port sinks and source. */
export const consoleSinks: { stdout: PortSink; stderr: PortSink; stdin: PortSource } = {
  stdout: { write: (c) => void process.stdout.write(c) },
  stderr: { write: (c) => void process.stderr.write(c) },
  stdin: {
    read() {
      const buf = Buffer.alloc(65536);
      try {
        const n = readSyncStdin(buf);
        // The decoder keeps a character split between two reads for the next one.
        stdinDecoder ??= new StringDecoder("utf8");
        return n === 0 ? stdinDecoder.end() || null : stdinDecoder.write(buf.subarray(0, n));
      } catch {
        return null;
      }
    },
  },
};

/** Made on first use (not while a start-up snapshot is built). */
let stdinDecoder: StringDecoder | null = null;

/** Blocking read of standard input (the REPL and `read` from the console read synchronously). */
function readSyncStdin(buf: Buffer): number {
  for (;;) {
    try {
      return readSync(0, buf);
    } catch (e: any) {
      if (e?.code === "EAGAIN") continue;
      if (e?.code === "EOF") return 0;
      throw e;
    }
  }
}

/** The SRFIs in stdlib/srfi/ as the interpreter needs them: their features, their other names, their TypeScript procedures. */
const SRFI_OPTIONS = {
  libraryAliases: srfiAliases(),
  primitiveLibraries: srfiPrimitiveLibraries(),
} as const;

/** The cond-expand features of a Node interpreter besides R7RS's and nodwyn's: the platform's and the SRFIs'. */
export function hostFeatures(): string[] {
  return [...platformFeatures(), ...srfiFeatures()];
}

/** Platform features for cond-expand. */
export function platformFeatures(): string[] {
  const out = ["posix"];
  const p = platform();
  if (p === "linux") out.push("unix", "linux");
  else if (p === "darwin") out.push("unix", "darwin");
  else if (p === "win32") out.push("windows");
  const a = arch();
  if (a === "x64") out.push("x86-64");
  else if (a === "arm64") out.push("aarch64");
  out.push(endianness() === "LE" ? "little-endian" : "big-endian");
  return out;
}

export interface NodeInterpreterOptions extends Omit<InterpreterOptions, "libraries"> {
  /** Library directories searched after stdlib/ (the CLI's -I and $NODWYN_PATH). */
  libraryPaths?: readonly string[];
  /** Procedures beyond the standard ones. */
  extraPrimitives?: readonly ProcSpec[];
}

/** The libraries a program usually imports: instantiated ahead in a start-up snapshot. */
const PRELOADED_LIBRARIES = ["(scheme base)", "(scheme write)", "(scheme read)", "(scheme char)", "(scheme cxr)", "(scheme file)", "(scheme process-context)", "(scheme time)", "(scheme inexact)", "(scheme lazy)", "(scheme case-lambda)", "(scheme eval)"];

let prebuilt: { interp: Interpreter; loader: DirectoryLoader } | null = null;

/**
 * Makes, ahead of time, the interpreter the next createNodeInterpreter call
 * will hand out: the command does this while building its start-up snapshot
 * (host/cli/snapshot.ts), so that the prelude is compiled and the standard
 * libraries instantiated before the process starts.
 */
export function prebuildInterpreter(): void {
  const loader = new DirectoryLoader([STDLIB_DIR]);
  const interp = new Interpreter({ primitives: schemePrimitives, libraries: loader, features: hostFeatures(), ...SRFI_OPTIONS });
  for (const name of PRELOADED_LIBRARIES) interp.library(name);
  prebuilt = { interp, loader };
}

/** An interpreter with R7RS, the stdlib and (by default) no file or process access. */
export function createNodeInterpreter(o: NodeInterpreterOptions = {}): Interpreter {
  const env = process.env.NODWYN_PATH ? process.env.NODWYN_PATH.split(":").filter(Boolean) : [];
  const paths = [...(o.libraryPaths ?? []), ...env];
  if (prebuilt !== null) {
    const { interp, loader } = prebuilt;
    prebuilt = null;
    loader.add(paths);
    interp.attachHost({
      files: o.files ?? null,
      process: o.process ?? null,
      ...(o.stdout ? { stdout: o.stdout } : {}),
      ...(o.stderr ? { stderr: o.stderr } : {}),
      ...(o.stdin ? { stdin: o.stdin } : {}),
      ...(o.limits ? { limits: o.limits } : {}),
      ...(o.trace ? { trace: o.trace } : {}),
      ...(o.replImports ? { replImports: o.replImports } : {}),
      features: [...hostFeatures(), ...(o.features ?? [])],
    });
    interp.definePrimitives([...(o.primitives ?? []), ...(o.extraPrimitives ?? [])]);
    return interp;
  }
  const loader = new DirectoryLoader([STDLIB_DIR, ...paths]);
  return new Interpreter({
    ...o,
    primitives: [...schemePrimitives, ...(o.primitives ?? []), ...(o.extraPrimitives ?? [])],
    libraries: loader,
    ...SRFI_OPTIONS,
    features: [...hostFeatures(), ...(o.features ?? [])],
  });
}
