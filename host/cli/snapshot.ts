// Entry of the command's V8 start-up snapshot: the whole command loaded and an interpreter made.
//
// scripts/bundle.mjs bundles this file (as CommonJS) and runs
// `node --build-snapshot` on it; bin/nodwyn then starts node from the snapshot,
// which skips loading the modules, compiling the prelude and instantiating the
// standard libraries (docs/decisions/0004-startup-snapshot.md). Nothing here may
// touch what differs between build and run: the console, the command line, the
// working directory, the environment, native packages.
import * as v8 from "node:v8";
import { finish, main } from "./main.js";
import { prebuildInterpreter } from "../session/node-interpreter.js";
import { jsStackRoom } from "../../interpreter/api.js";

prebuildInterpreter();
// The room compiled code has on the JS stack is measured by recursing until
// the engine refuses (milliseconds on bin/nodwyn's 2 MB stack). It is measured here,
// under the flags bin/nodwyn gives the build too (scripts/bundle.mjs), and
// measured again at start only when the process has other stack flags.
const stackFlags = (): string => [...process.execArgv.filter((a) => /^--stack[-_]size\b/.test(a)), process.env["NODE_OPTIONS"] ?? ""].join(" ");
const builtStack = stackFlags();
jsStackRoom(true);
// The interpreter's clock (performance.now, for time slices, deadlines and
// current-jiffy) is made on first use, which compiled perf_hooks' modules at
// every start (about 1.4 ms in a profile). Made here, it is in the snapshot;
// Node sets its time origin anew when the snapshot is restored (a test checks).
globalThis.performance.now();

v8.startupSnapshot.setDeserializeMainFunction(() => {
  if (stackFlags() !== builtStack) jsStackRoom(true);
  main(process.argv.slice(1)).then(
    finish,
    (e) => {
      process.stderr.write(`nodwyn: internal error: ${e && e.stack ? e.stack : e}\n`);
      process.exitCode = 70;
    },
  );
});
