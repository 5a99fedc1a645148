// What a primitive may use of its interpreter: the context passed as `this` to every impl.
//
// Host services reach primitives only through here (files, process, clock),
// handed in by the embedder; an interpreter created without them raises a
// clear `host` error where a primitive needs one.

import type { SymbolTable } from "./values/symbol.js";
import type { Port } from "./values/port.js";

/** Access to files, granted by the embedder (the CLI grants the real file system or the guard). */
export interface FileAccess {
  /** Whole file as bytes. Throws a FileAccessError on failure. */
  readFile(path: string): Uint8Array;
  writeFile(path: string, data: Uint8Array, append: boolean): void;
  exists(path: string): boolean;
  deleteFile(path: string): void;
}

/** A failure of FileAccess, mapped to a `file-error?` condition by the caller. */
export class FileAccessError extends Error {
  readonly code: string;
  readonly path: string;
  constructor(code: string, path: string, message: string) {
    super(message);
    this.code = code;
    this.path = path;
  }
}

/** Access to the process, granted by the embedder. */
export interface ProcessAccess {
  commandLine(): string[];
  getEnv(name: string): string | undefined;
  allEnv(): Record<string, string>;
  /**
   * (exit) and (emergency-exit): ends the process with a status; or, when it
   * returns, only the running evaluation, which then stops with a `limit`
   * condition of code "exit" that Scheme code cannot catch (what a sandboxed
   * session does: Scheme never ends its host).
   */
  exit(code: number): void;
}

export interface Ctx {
  readonly symbols: SymbolTable;
  /** Null when the embedder granted no file access. */
  readonly files: FileAccess | null;
  readonly process: ProcessAccess | null;
  /** The current ports (the values of the current-…-port parameters in the running dynamic environment). */
  currentInputPort(): Port;
  currentOutputPort(): Port;
  currentErrorPort(): Port;
}
