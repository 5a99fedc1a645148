// Helpers for the expander tests: real .sld and .scm files in temp folders, run by a real interpreter.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { formatRaised, type Outcome } from "../../../interpreter/api.js";
import { nodeFileAccess } from "../../../host/session/node-interpreter.js";
import { makeInterp, type TestInterp } from "../../helpers/interp.js";

const made: string[] = [];
// The temp folders writeTree made are removed when the test file's worker process ends.
process.on("exit", () => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

/** Writes `files` (relative paths, `/`-separated) under a fresh temp folder (removed at exit) and returns the folder. */
export function writeTree(files: Record<string, string>, root?: string): string {
  if (root === undefined) {
    root = mkdtempSync(join(tmpdir(), "nodwyn-expander-"));
    made.push(root);
  }
  for (const [rel, text] of Object.entries(files)) {
    const p = join(root, rel);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, text);
  }
  return root;
}

/** An interpreter whose library path is `<root>/lib`, with real file access (for load and include). */
export function libInterp(root: string): TestInterp {
  return makeInterp({ libraryPaths: [join(root, "lib")], files: nodeFileAccess });
}

export interface ProgramResult {
  ok: boolean;
  /** What the program wrote to the console. */
  out: string;
  /** `file:line:col: message` of the failure, or "". */
  error: string;
  outcome: Outcome;
}

/** Runs `<root>/<rel>` as an R7RS program in interpreter `ti` (a fresh one over `root` by default). */
export async function runProgram(root: string, rel: string, ti: TestInterp = libInterp(root)): Promise<ProgramResult> {
  const file = join(root, rel);
  const before = ti.out().length;
  const outcome = await ti.interp.runProgram(readFileSync(file, "utf8"), file);
  return {
    ok: outcome.ok,
    out: ti.out().slice(before),
    error: outcome.ok ? "" : formatRaised(outcome.error),
    outcome,
  };
}
