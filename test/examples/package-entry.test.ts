// The embedding guide's promise: an app imports `from "nodwyn"` (ES modules); CommonJS gets it with import(), not require.
import test from "ava";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { REPO_ROOT } from "../../host/cli/gen-reference.js";
import { tempDir } from "../helpers/cli.js";

function app(): string {
  const dir = tempDir("nodwyn-app-");
  mkdirSync(join(dir, "node_modules"));
  // What `npm install ../nodwyn` makes: a link to the package folder.
  symlinkSync(REPO_ROOT, join(dir, "node_modules", "nodwyn"));
  return dir;
}

const node = (dir: string, file: string) => spawnSync(process.execPath, [file], { cwd: dir, encoding: "utf8", timeout: 60_000 });

test('an ES module imports { createNodeInterpreter } from "nodwyn", and the core from "nodwyn/core"', (t) => {
  const dir = app();
  writeFileSync(
    join(dir, "main.mjs"),
    `import { createNodeInterpreter } from "nodwyn";\nimport { writeToString } from "nodwyn/core";\n` +
      `const i = createNodeInterpreter();\nconsole.log(writeToString(await i.evaluate("(map (lambda (x) (* x x)) '(1 2 3))"), "write"));\n`,
  );
  const r = node(dir, "main.mjs");
  t.is(r.status, 0, r.stderr);
  t.is(r.stdout, "(1 4 9)\n");
});

test("CommonJS: require fails as the guide says, import() works", (t) => {
  const dir = app();
  writeFileSync(
    join(dir, "main.cjs"),
    `try { require("nodwyn"); console.log("required"); } catch (e) { console.log(e.code); }\n` +
      `(async () => { const { createNodeInterpreter } = await import("nodwyn"); console.log(createNodeInterpreter().toJS(await createNodeInterpreter().evaluate("(+ 1 2)"))); })();\n`,
  );
  const r = node(dir, "main.cjs");
  t.is(r.status, 0, r.stderr);
  t.is(r.stdout, "ERR_PACKAGE_PATH_NOT_EXPORTED\n3\n");
});
