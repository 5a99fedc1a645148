// Bundles the compiled command (dist/host/cli/main.js and everything it imports) into
// dist/bundle/, which bin/nodwyn loads: Node 20 spends about 1 ms per ES module it loads,
// and start-up is part of every `nodwyn run` (docs/decisions/0002-bundled-command.md).
// What is imported dynamically (the log tools, the REPL) becomes a chunk of its own,
// loaded only when used. Native packages and chevrotain (whose own single-file build
// the lexer loads) stay external.
import { build } from "esbuild";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
await build({
  entryPoints: [join(root, "dist/host/cli/main.js")],
  outdir: join(root, "dist/bundle"),
  entryNames: "nodwyn",
  outExtension: { ".js": ".mjs" },
  splitting: true,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  external: ["chevrotain", "re2", "fs-ext", "better-sqlite3"],
  sourcemap: "linked",
  logLevel: "warning",
});
