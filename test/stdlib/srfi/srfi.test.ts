// The SRFI libraries' behaviour: every test/stdlib/srfi/*.scm file, each in a fresh interpreter (test/helpers/scm.ts).
import test from "ava";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { INSTALL_DIR } from "../../../host/session/node-interpreter.js";
import { runScmFile } from "../../helpers/scm.js";

const DIR = join(INSTALL_DIR, "test", "stdlib", "srfi");

for (const file of readdirSync(DIR).filter((f) => f.endsWith(".scm")).sort((a, b) => parseInt(a) - parseInt(b) || (a < b ? -1 : 1))) {
  test(`${file}: every expectation holds`, async (t) => {
    const { checks, failures } = await runScmFile(join(DIR, file));
    t.true(checks > 0, `${file} checks nothing`);
    t.deepEqual(failures, [], `${failures.length} of ${checks} expectations failed`);
  });
}

test("the runner reports every expectation that does not hold, with its line", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "nodwyn-scm-"));
  try {
    const file = join(dir, "wrong.scm");
    writeFileSync(
      file,
      [
        "(import (scheme base) (scheme write))",
        "(+ 1 2) ; expect: 4",
        "(car '()) ; expect error: range",
        "(car '(1)) ; expect error: type",
        "(display \"a\") ; expect output: b",
        "(raise 'x) ; expect raise: y",
        "(vector-ref (vector) 0) ; expect error: range: no such words",
        "(undefined-thing)",
        "(* 2 3) ; expect: 6",
        "",
      ].join("\n"),
    );
    const { checks, failures } = await runScmFile(file);
    t.is(checks, 7);
    t.is(failures.length, 7, failures.join("\n"));
    t.regex(failures[0] as string, /wrong\.scm:2: got 3, expected 4/);
    t.regex(failures.join("\n"), /wrong\.scm:8: unexpected failure: .*unbound variable: undefined-thing/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
