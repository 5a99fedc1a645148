// The (nodwyn …) libraries' behaviour: every test/stdlib/nodwyn/*.scm file, each in a fresh interpreter (test/helpers/scm.ts).
import test from "ava";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { INSTALL_DIR } from "../../../host/session/node-interpreter.js";
import { runScmFile } from "../../helpers/scm.js";

const DIR = join(INSTALL_DIR, "test", "stdlib", "nodwyn");

for (const file of readdirSync(DIR).filter((f) => f.endsWith(".scm")).sort()) {
  test(`${file}: every expectation holds`, async (t) => {
    const { checks, failures } = await runScmFile(join(DIR, file));
    t.true(checks > 0, `${file} checks nothing`);
    t.deepEqual(failures, [], `${failures.length} of ${checks} expectations failed`);
  });
}
