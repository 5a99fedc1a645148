// Bundles the compiled command for a fast start (docs/decisions/0002 and 0004):
//
//   dist/bundle/nodwyn.mjs — dist/host/cli/main.js and what it imports as one ES
//     module (dynamically imported parts as chunks), loaded by bin/nodwyn.mjs;
//   dist/nodwyn.blob — a V8 start-up snapshot of the command with an interpreter
//     already made (host/cli/snapshot.ts), which bin/nodwyn starts from. Its
//     CommonJS bundle loads native packages (re2, fs-ext) only when first used,
//     since a snapshot cannot hold them, and takes chevrotain's single-file build
//     directly (no top-level await in CommonJS).
//
// A snapshot that cannot be built is reported and left out: bin/nodwyn then
// starts from the bundle.
import { build } from "esbuild";
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync, existsSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { dirname, join } from "node:path";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const dist = join(root, "dist");
const natives = ["re2", "fs-ext", "better-sqlite3"];

/**
 * The reading thread's module (and the index's preparing thread's) finds its worker script beside itself
 * (import.meta.url): in a bundle it keeps pointing at the compiled file in
 * dist/, which the package always has.
 */
const workerBeside = {
  name: "worker-beside",
  setup(b) {
    b.onLoad({ filter: /[\\/](search[\\/]reading-thread|index[\\/]prepare-thread)\.js$/ }, (args) => {
      const src = readFileSync(args.path, "utf8");
      const out = src.replaceAll("import.meta.url", JSON.stringify(pathToFileURL(args.path).href));
      if (out === src) throw new Error(`worker-beside: ${args.path} no longer uses import.meta.url`);
      return { contents: out, loader: "js" };
    });
  },
};

// chunk names carry a content hash: without this, every build would leave the last one's chunks behind
rmSync(join(dist, "bundle"), { recursive: true, force: true });

await build({
  entryPoints: [join(dist, "host/cli/main.js")],
  outdir: join(dist, "bundle"),
  entryNames: "nodwyn",
  outExtension: { ".js": ".mjs" },
  splitting: true,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  external: ["chevrotain", ...natives],
  plugins: [workerBeside],
  // CommonJS packages bundled into the ES module (cli-progress) require Node's built-ins; esbuild's
  // require shim throws "Dynamic require of … is not supported" unless a real `require` is in scope.
  banner: { js: 'import { createRequire as __nodwynRequire } from "node:module"; const require = __nodwynRequire(import.meta.url);' },
  sourcemap: "linked",
  logLevel: "warning",
});

// ---- the start-up snapshot ----

const chevrotainMin = join(dirname(fileURLToPath(import.meta.resolve("chevrotain"))), "../chevrotain.min.mjs");

/** The lexer imports chevrotain's single-file build directly instead of awaiting it. */
const staticChevrotain = {
  name: "static-chevrotain",
  setup(b) {
    b.onLoad({ filter: /[\\/]reader[\\/]lexer\.js$/ }, (args) => {
      const src = readFileSync(args.path, "utf8");
      const out = src.replace(/const \{ createToken, Lexer \} = await loadChevrotain\(\);/, `import { createToken, Lexer } from ${JSON.stringify(chevrotainMin)};`);
      if (out === src) throw new Error("static-chevrotain: the lexer no longer awaits loadChevrotain()");
      return { contents: out, loader: "js" };
    });
    // chevrotain maps a character code to a lexing bucket through a table of
    // 65,536 numbers built when a lexer is made: 512 KB of the snapshot, to be
    // read back at every start. The bucket is computed instead, with the same
    // value (255 + code / 255, rounded down, for codes from 256). Without the
    // pattern (another chevrotain version) the build says so and keeps the table.
    b.onLoad({ filter: /chevrotain\.min\.mjs$/ }, (args) => {
      const src = readFileSync(args.path, "utf8");
      const table =
        /function (\w+)\((\w+)\)\{return \2<(\w+)\?\2:(\w+)\[\2\]\}function (\w+)\(\)\{if\(\w+\(\4\)\)\{\4=new Array\(65536\);for\(let (\w+)=0;\6<65536;\6\+\+\)\4\[\6\]=\6>255\?255\+~~\(\6\/255\):\6\}\}/;
      if (!table.test(src)) {
        process.stderr.write("bundle: chevrotain's character-code table was not found; the snapshot keeps it\n");
        return { contents: src, loader: "js" };
      }
      return { contents: src.replace(table, "function $1($2){return $2<$3?$2:255+~~($2/255)}function $5(){}"), loader: "js" };
    });
  },
};

/**
 * Native packages become proxies that load the package on first use, after
 * the snapshot is restored. The JavaScript of re2 and fs-ext (a few lines
 * around their addon) is bundled, so its module is not looked up and compiled
 * then (about 3 ms in a restored snapshot); only the addon is loaded, with
 * process.dlopen. Other native packages are required as usual.
 */
const BUNDLED_NATIVES = new Set(["re2", "fs-ext"]);
const packageRequire = createRequire(join(root, "package.json"));
const lazyNatives = {
  name: "lazy-natives",
  setup(b) {
    const filter = new RegExp(`^(${natives.join("|")})$`);
    b.onResolve({ filter }, (args) => ({ path: args.path, namespace: "lazy-native" }));
    // The addon a bundled wrapper requires: opened when the wrapper first runs.
    b.onResolve({ filter: /\.node$/ }, (args) => ({ path: join(args.resolveDir, args.path), namespace: "addon" }));
    b.onLoad({ filter: /.*/, namespace: "addon" }, (args) => ({
      contents: `const m = { exports: {} }; process.dlopen(m, ${JSON.stringify(args.path)}); module.exports = m.exports;`,
      loader: "js",
    }));
    b.onLoad({ filter: /.*/, namespace: "lazy-native" }, (args) => ({
      contents: `
        let m = null;
        const load = () => (m ??= ${
          BUNDLED_NATIVES.has(args.path)
            ? `require(${JSON.stringify(packageRequire.resolve(args.path))})`
            : `require("node:module").createRequire(${JSON.stringify(join(root, "package.json"))})(${JSON.stringify(args.path)})`
        });
        export default new Proxy(function () {}, {
          construct: (_t, a) => new (load())(...a),
          apply: (_t, self, a) => load().apply(self, a),
          get: (_t, k) => load()[k],
          has: (_t, k) => k in load(),
        });`,
      loader: "js",
      resolveDir: root,
    }));
  },
};

const cjs = join(dist, "snapshot", "nodwyn.cjs");
const blob = join(dist, "nodwyn.blob");
rmSync(blob, { force: true });
await build({
  entryPoints: [join(dist, "host/cli/snapshot.js")],
  outfile: cjs,
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  plugins: [staticChevrotain, lazyNatives, workerBeside],
  define: { "import.meta.url": JSON.stringify(pathToFileURL(join(dist, "host/session/node-interpreter.js")).href) },
  logLevel: "error",
  // Whitespace and comments out, expressions in their shorter equal forms (no
  // names changed, so stack traces and function names read the same): V8 keeps
  // the whole source in the snapshot, and restoring costs by the byte (a
  // string of 4 MB in a snapshot took about 5 ms to restore): 2.04 MB -> 1.40 MB.
  minifyWhitespace: true,
  minifySyntax: true,
  // ASCII source: V8 keeps a script's source in the snapshot (for compiling
  // functions on first call), as one byte a character when it can, else two.
  charset: "ascii",
});
// charset "ascii" escapes strings and names, but esbuild keeps comments and
// regular expression literals as written, and one non-ASCII character (an
// arrow in a comment, a sigma in a pattern) made the whole 0.8 MB source two
// bytes a character. A \uXXXX escape means the same UTF-16 unit in a regular
// expression, a string or a name, and is inert in a comment (a raw template
// string would see it changed: the bundle is checked to have none).
const source = readFileSync(cjs, "utf8");
if (/String\.raw/.test(source)) throw new Error("bundle: String.raw in the snapshot bundle; escaping non-ASCII would change it");
writeFileSync(cjs, source.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`));

// The snapshot must be built with the V8 flags it runs with: bin/nodwyn states them once.
const flags = /^FLAGS="([^"]*)"/m.exec(readFileSync(join(root, "bin/nodwyn"), "utf8"))?.[1]?.split(" ").filter(Boolean) ?? [];
const r = spawnSync(process.execPath, [...flags, "--snapshot-blob", blob, "--build-snapshot", cjs], { encoding: "utf8", cwd: root });
if (r.status !== 0 || !existsSync(blob)) {
  rmSync(blob, { force: true });
  process.stderr.write(`bundle: no start-up snapshot (bin/nodwyn starts from the bundle): ${(r.stderr || r.error?.message || "").trim().split("\n").slice(-3).join(" | ")}\n`);
}
