// The nodwyn command without the start-up snapshot (bin/nodwyn runs this when there
// is none): the bundle made by the build when it is at least as new as the
// compiled sources (a bare `tsc` leaves it stale), else the compiled modules.
import { statSync } from "node:fs";

const bundle = new URL("../dist/bundle/nodwyn.mjs", import.meta.url);
const entry = new URL("../dist/host/cli/main.js", import.meta.url);
function mtime(u) {
  try {
    return statSync(u).mtimeMs;
  } catch {
    return -1;
  }
}
const { main, finish } = await import(mtime(bundle) >= mtime(entry) ? bundle.href : entry.href);

main(process.argv.slice(2)).then(
  finish,
  (e) => {
    process.stderr.write(`nodwyn: internal error: ${e && e.stack ? e.stack : e}\n`);
    process.exitCode = 70;
  },
);
