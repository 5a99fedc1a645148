// Who reads an included file: a library's own parts come from the library loader; every other include goes through the host's file access (and so through a session's guard).
import test from "ava";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { nodeFileAccess } from "../../../host/session/node-interpreter.js";
import { Session, type FileAccess } from "../../../host/session/embed.js";
import { makeInterp } from "../../helpers/interp.js";
import { writeTree, runProgram } from "./tree.js";

/** The real file system, noting every path read. */
function recordingAccess(): { access: FileAccess; reads: string[] } {
  const reads: string[] = [];
  return {
    reads,
    access: {
      ...nodeFileAccess,
      readFile(path) {
        reads.push(path);
        return nodeFileAccess.readFile(path);
      },
    },
  };
}

const TREE = {
  "lib/parts/lib.sld": `(define-library (parts lib) (import (scheme base)) (export part) (include "lib-body.scm"))`,
  "lib/parts/lib-body.scm": `(include "lib-more.scm")`,
  "lib/parts/lib-more.scm": `(define part 'from-library)`,
  "src/prog.scm": `(import (scheme base) (scheme write) (parts lib))\n(include "sub/piece.scm")\n(write (list part piece))`,
  "src/sub/piece.scm": `(include "deeper.scm")`,
  "src/sub/deeper.scm": `(define piece 'from-program)`,
};

test("a program's includes are read through file access, relative to the including file; a library's parts are not", async (t) => {
  const root = writeTree(TREE);
  const { access, reads } = recordingAccess();
  const ti = makeInterp({ libraryPaths: [join(root, "lib")], files: access });
  const r = await runProgram(root, "src/prog.scm", ti);
  t.is(r.out, "(from-library from-program)", r.error);
  t.deepEqual(reads, [join(root, "src/sub/piece.scm"), join(root, "src/sub/deeper.scm")]);
});

test("without file access, libraries still include their parts, but a program or the REPL cannot include", async (t) => {
  const root = writeTree(TREE);
  const ti = makeInterp({ libraryPaths: [join(root, "lib")] });
  t.is(await ti.run("(import (parts lib)) part"), "from-library");
  const r = await runProgram(root, "src/prog.scm", ti);
  t.regex(r.error, /src\/prog\.scm:2:1: include: no file access was granted to this interpreter/);
  await t.throwsAsync(ti.run(`(include ${JSON.stringify(join(root, "src/sub/deeper.scm"))})`), { message: /include: no file access was granted/ });
});

test("from the REPL, a relative include is handed to file access as written, like load", async (t) => {
  const root = writeTree({ "x.scm": "(define x 'included)" });
  const { access, reads } = recordingAccess();
  const ti = makeInterp({ files: access });
  await t.throwsAsync(ti.run('(include "nowhere/x.scm")'), { message: /include: cannot read nowhere\/x\.scm/ });
  t.deepEqual(reads, ["nowhere/x.scm"]);
  t.is(await ti.run(`(include ${JSON.stringify(join(root, "x.scm"))}) x`), "included");
});

test("in a sandboxed session, include cannot read what the guard denies", async (t) => {
  const repo = writeTree({ ".env": "TOKEN=abc\n", "ok.scm": "(define ok 'yes)\n" });
  mkdirSync(join(repo, ".git"));
  writeFileSync(join(repo, ".git", "HEAD"), "ref: refs/heads/main\n");
  const s = await Session.open({ origin: "agent", cwd: repo, sandbox: true, log: false, stdout: { write() {} }, stderr: { write() {} } });
  try {
    for (const path of [".env", join(repo, ".env")]) {
      const out = await s.interp.evaluateOutcome(`(include ${JSON.stringify(path)})`);
      t.false(out.ok, path);
      const message = out.ok ? "" : (out.condition?.message ?? "");
      t.regex(message, /^include: cannot read .*denied/, path);
      t.false(message.includes("TOKEN"), path);
    }
    const ok = await s.interp.evaluateOutcome(`(include ${JSON.stringify(join(repo, "ok.scm"))}) ok`);
    t.true(ok.ok);
  } finally {
    s.close("test", 0);
  }
});
