// npm run conformance finds the shared suite, or says where to get it.
import test from "ava";
import { cpSync, mkdirSync, writeFileSync, chmodSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { REPO_ROOT } from "../../host/cli/gen-reference.js";
import { tempDir } from "../helpers/cli.js";

/** A checkout with only the script, at `dir/checkout`; `dir` is two levels down, so nothing above it is looked at. */
function checkout(): string {
  const dir = join(tempDir(), "a", "b");
  mkdirSync(join(dir, "checkout", "scripts"), { recursive: true });
  cpSync(join(REPO_ROOT, "scripts", "conformance.sh"), join(dir, "checkout", "scripts", "conformance.sh"));
  return dir;
}

test("without the suite it says what it is, where it looked and how to point at it, with status 2", (t) => {
  const dir = checkout();
  const r = spawnSync("sh", [join(dir, "checkout", "scripts", "conformance.sh")], { encoding: "utf8", env: { PATH: process.env.PATH } });
  t.is(r.status, 2);
  t.regex(r.stderr, /the R7RS conformance suite was not found/);
  t.regex(r.stderr, /NODWYN_CONFORMANCE=\/path\/to\/conformance npm run conformance/);
  t.regex(r.stderr, /Looked in: .*checkout\/\.\.\/shared\/conformance/);
});

test("it runs the suite's runner found by NODWYN_CONFORMANCE or beside the checkout, with the command and the arguments", (t) => {
  const dir = checkout();
  for (const where of ["env", "beside"] as const) {
    const suite = where === "env" ? join(dir, "elsewhere") : join(dir, "shared", "conformance");
    mkdirSync(suite, { recursive: true });
    writeFileSync(join(suite, "run"), '#!/bin/sh\necho "ran: $1 | $2"\n');
    chmodSync(join(suite, "run"), 0o755);
    const r = spawnSync("sh", [join(dir, "checkout", "scripts", "conformance.sh"), "6.1-equivalence.scm"], {
      encoding: "utf8",
      env: { PATH: process.env.PATH, ...(where === "env" ? { NODWYN_CONFORMANCE: suite } : {}) },
    });
    t.is(r.status, 0, r.stderr);
    t.regex(r.stdout, /^ran: .*checkout\/bin\/nodwyn run -I \{lib\} \{file\} \| 6\.1-equivalence\.scm\n$/, where);
  }
});
