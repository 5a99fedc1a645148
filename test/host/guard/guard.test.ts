// The read guard on real trees: root pin, special files, races between check and open, turn caps, logging.
import test from "ava";
import { mkdirSync, renameSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  createGuard,
  GuardDeniedError,
  GuardFileError,
  type GuardDecision,
  type GuardOptions,
} from "../../../host/guard/index.js";
import { makeTree, mkfifo, listenSocket } from "./tree.js";

function setup(t: { teardown(fn: () => void): void }, spec: Parameters<typeof makeTree>[0], opts: Partial<GuardOptions> = {}) {
  const tree = makeTree(spec);
  t.teardown(tree.cleanup);
  const log: GuardDecision[] = [];
  const guard = createGuard({ root: tree.root, log: (d) => log.push(d), actor: "model", ...opts });
  return { root: tree.root, guard, log };
}

test("a file inside the root is read whole and the allow decision is logged", async (t) => {
  const { guard, log } = setup(t, { "src/a.txt": "hello\n" });
  const bytes = await guard.readFile("src/a.txt");
  t.is(bytes.toString(), "hello\n");
  t.deepEqual(log, [{ path: "src/a.txt", decision: "allow", rule: "default", actor: "model", kind: "file" }]);
});

test("paths are relative to the root; ./, duplicate slashes and an absolute path inside the root name the same file", async (t) => {
  const { root, guard, log } = setup(t, { "src/a.txt": "x" });
  for (const p of ["./src/a.txt", "src//a.txt", `${root}/src/a.txt`]) t.is((await guard.readFile(p)).toString(), "x");
  t.deepEqual(
    log.map((d) => d.path),
    ["src/a.txt", "src/a.txt", "src/a.txt"],
  );
});

test("the actor of a call is logged, else the guard's", async (t) => {
  const { guard, log } = setup(t, { "a.txt": "x" });
  await guard.readFile("a.txt", { actor: "strategy" });
  await guard.readFile("a.txt");
  t.deepEqual(
    log.map((d) => d.actor),
    ["strategy", "model"],
  );
});

test("root pin: '..' is denied even when it would stay inside the root", async (t) => {
  const { guard, log } = setup(t, { "src/a.txt": "x", "b.txt": "y" });
  const e = await t.throwsAsync(guard.readFile("src/../b.txt"), { instanceOf: GuardDeniedError });
  t.is(e?.rule, "root-pin");
  t.is(e?.code, "guard-denied");
  t.regex(e?.message ?? "", /'\.\.' is not allowed/);
  t.is(log[0]?.decision, "deny");
  t.is(log[0]?.rule, "root-pin");
});

test("root pin: an absolute path outside the root is denied", async (t) => {
  const { guard } = setup(t, { "a.txt": "x" });
  const e = await t.throwsAsync(guard.readFile("/etc/passwd"), { instanceOf: GuardDeniedError });
  t.is(e?.rule, "root-pin");
  t.regex(e?.reason ?? "", /outside the repository root/);
});

test("root pin: a symbolic link as the file is denied, even to a file inside the root", async (t) => {
  const { guard } = setup(t, { "a.txt": "x", "link.txt": { link: "a.txt" } });
  const e = await t.throwsAsync(guard.readFile("link.txt"), { instanceOf: GuardDeniedError });
  t.is(e?.rule, "root-pin");
  t.regex(e?.reason ?? "", /symbolic link/);
});

test("root pin: a symbolic link to a directory on the way is denied", async (t) => {
  const outside = makeTree({ "secret.txt": "s" });
  t.teardown(outside.cleanup);
  const { guard } = setup(t, { "real/a.txt": "x", out: { link: outside.root }, inner: { link: "real" } });
  for (const p of ["out/secret.txt", "inner/a.txt"]) {
    const e = await t.throwsAsync(guard.readFile(p), { instanceOf: GuardDeniedError });
    t.is(e?.rule, "root-pin");
    t.regex(e?.reason ?? "", /symbolic link on the way/);
  }
});

test("a missing file is a GuardFileError, not a denial, and a directory cannot be read as a file", async (t) => {
  const { guard } = setup(t, { "d/a.txt": "x" });
  const e = await t.throwsAsync(guard.readFile("nope.txt"), { instanceOf: GuardFileError });
  t.is(e?.code, "not-found");
  const e2 = await t.throwsAsync(guard.readFile("d/a.txt/more"), { instanceOf: GuardFileError });
  t.is(e2?.code, "not-found");
  const e3 = await t.throwsAsync(guard.readFile("d"), { instanceOf: GuardFileError });
  t.is(e3?.code, "is-directory");
  const e4 = await t.throwsAsync(guard.readFile(""), { instanceOf: GuardFileError });
  t.is(e4?.code, "bad-path");
});

test("a FIFO is refused without blocking", async (t) => {
  const { guard, log } = setup(t, { fifo: { fifo: true } });
  const e = await t.throwsAsync(guard.readFile("fifo"), { instanceOf: GuardDeniedError });
  t.is(e?.rule, "special-file");
  t.regex(e?.reason ?? "", /FIFO/);
  t.is(log[0]?.rule, "special-file");
});

test("a FIFO swapped in between check and open is refused without blocking", async (t) => {
  const { guard } = setup(t, { "a.txt": "x" }, {
    hooks: {
      beforeOpen: (abs) => {
        unlinkSync(abs);
        mkfifo(abs);
      },
    },
  });
  const e = await t.throwsAsync(guard.readFile("a.txt"), { instanceOf: GuardDeniedError });
  t.is(e?.rule, "special-file");
});

test("a socket is refused", async (t) => {
  const { root, guard } = setup(t, { "d/.keep": "" });
  const server = await listenSocket(join(root, "d/sock"));
  t.teardown(() => server.close());
  const e = await t.throwsAsync(guard.readFile("d/sock"), { instanceOf: GuardDeniedError });
  t.is(e?.rule, "special-file");
  t.regex(e?.reason ?? "", /socket/);
});

test("race: a directory on the way swapped for a symbolic link between check and open is denied", async (t) => {
  const outside = makeTree({ "d/a.txt": "outside secret" });
  t.teardown(outside.cleanup);
  let swapped = false;
  const { root, guard, log } = setup(t, { "d/a.txt": "inside" }, {
    hooks: {
      beforeOpen: () => {
        if (swapped) return;
        swapped = true;
        renameSync(join(root, "d"), join(root, "d-moved"));
        symlinkSync(join(outside.root, "d"), join(root, "d"));
      },
    },
  });
  const e = await t.throwsAsync(guard.readFile("d/a.txt"), { instanceOf: GuardDeniedError });
  t.is(e?.rule, "root-pin");
  t.regex(e?.reason ?? "", /changed between check and open/);
  // The allow of the check is followed by the denial of the open, both logged.
  t.deepEqual(
    log.map((d) => d.decision),
    ["allow", "deny"],
  );
});

test("race: the file replaced by another file between check and open is denied", async (t) => {
  // The checked file is moved aside, not deleted, so its inode cannot be reused by the new one.
  const { guard } = setup(t, { "a.txt": "checked" }, {
    hooks: {
      beforeOpen: (abs) => {
        renameSync(abs, `${abs}.old`);
        writeFileSync(abs, "another file");
      },
    },
  });
  const e = await t.throwsAsync(guard.readFile("a.txt"), { instanceOf: GuardDeniedError });
  t.is(e?.rule, "root-pin");
});

test("race: the file swapped for a symbolic link between check and open is denied (O_NOFOLLOW)", async (t) => {
  const outside = makeTree({ "s.txt": "secret" });
  t.teardown(outside.cleanup);
  const { guard } = setup(t, { "a.txt": "x" }, {
    hooks: {
      beforeOpen: (abs) => {
        unlinkSync(abs);
        symlinkSync(join(outside.root, "s.txt"), abs);
      },
    },
  });
  const e = await t.throwsAsync(guard.readFile("a.txt"), { instanceOf: GuardDeniedError });
  t.is(e?.rule, "root-pin");
});

test("maxBytes refuses a larger file before reading it", async (t) => {
  const { guard } = setup(t, { "big.txt": "x".repeat(100), "small.txt": "y".repeat(10) });
  const e = await t.throwsAsync(guard.readFile("big.txt", { maxBytes: 50 }), { instanceOf: GuardFileError });
  t.is(e?.code, "file-too-large");
  t.is((await guard.readFile("small.txt", { maxBytes: 10 })).length, 10);
});

test("readText decodes UTF-8 and refuses other bytes", async (t) => {
  const { guard } = setup(t, { "u.txt": "été ✓\n", "l.txt": Uint8Array.from([0x63, 0x61, 0x66, 0xe9, 0x0a]) });
  t.is(await guard.readText("u.txt"), "été ✓\n");
  const e = await t.throwsAsync(guard.readText("l.txt"), { instanceOf: GuardFileError });
  t.is(e?.code, "not-utf8");
});

test("per-turn caps: reads past the cap are denied until the next turn", async (t) => {
  const { guard } = setup(t, { "a.txt": "aaaa", "b.txt": "bbbb" }, { limits: { maxReadsPerTurn: 2 } });
  await guard.readFile("a.txt");
  await guard.readFile("b.txt");
  const e = await t.throwsAsync(guard.readFile("a.txt"), { instanceOf: GuardDeniedError });
  t.is(e?.rule, "turn-limit");
  guard.startTurn();
  t.is((await guard.readFile("a.txt")).toString(), "aaaa");
});

test("per-turn caps: bytes", async (t) => {
  const { guard } = setup(t, { "a.txt": "aaaa", "b.txt": "bbbb" }, { limits: { maxBytesPerTurn: 4 } });
  await guard.readFile("a.txt");
  const e = await t.throwsAsync(guard.readFile("b.txt"), { instanceOf: GuardDeniedError });
  t.is(e?.rule, "turn-limit");
  t.regex(e?.reason ?? "", /bytes/);
});

test("check returns the decision without throwing; admit throws; locate applies the static rules only", async (t) => {
  const { guard, log } = setup(t, { "a.txt": "x", ".env": "K=V", d: { dir: true } });
  t.is((await guard.check("a.txt")).decision, "allow");
  t.like(await guard.check(".env"), { decision: "deny", rule: "denylist" });
  t.like(await guard.check("d"), { decision: "allow", kind: "directory" });
  await t.throwsAsync(guard.admit(".env"), { instanceOf: GuardDeniedError });
  t.like(guard.locate("d"), { relPath: "d", kind: "directory" });
  t.like(guard.locate("."), { relPath: ".", kind: "directory" });
  t.throws(() => guard.locate(".env"), { instanceOf: GuardDeniedError });
  t.is(log.length, 5); // four checks, and locate logs only its denial
});

test("listDir lists through the pin and refuses links and protected directories", async (t) => {
  const { guard } = setup(t, { "d/a.txt": "x", "d/b.txt": "y", l: { link: "d" }, ".ssh/id": "k" });
  t.deepEqual(guard.listDir("d").map((e) => e.name).sort(), ["a.txt", "b.txt"]);
  t.throws(() => guard.listDir("l"), { instanceOf: GuardDeniedError });
  t.throws(() => guard.listDir(".ssh"), { instanceOf: GuardDeniedError });
  t.throws(() => guard.listDir("d/a.txt"), { instanceOf: GuardFileError });
});

test("a scan reads through directory descriptors: a directory swapped for a link before it is opened is denied", async (t) => {
  const outside = makeTree({ "x.txt": "outside" });
  t.teardown(outside.cleanup);
  const { root, guard } = setup(t, { "a/x.txt": "inside", "b/y.txt": "y" });
  const scan = guard.scan();
  t.teardown(() => scan.close());
  scan.list(".");
  scan.list("b");
  t.is(String(await scan.readFile("b/y.txt")), "y");
  // The listing of the root saw a directory "a"; it becomes a link before the scan opens it.
  renameSync(join(root, "a"), join(root, "a-moved"));
  symlinkSync(outside.root, join(root, "a"));
  const e = await t.throwsAsync(async () => scan.readFile("a/x.txt"), { instanceOf: GuardDeniedError });
  t.is(e?.rule, "root-pin");
  t.regex(e?.reason ?? "", /symbolic link on the way/);
  t.throws(() => scan.list("a"), { instanceOf: GuardDeniedError });
});

test("a scan holding a directory open keeps reading that directory, not what its path names later", async (t) => {
  const outside = makeTree({ "x.txt": "outside" });
  t.teardown(outside.cleanup);
  const { root, guard } = setup(t, { "a/x.txt": "inside", "a/z.txt": "z" });
  const scan = guard.scan();
  t.teardown(() => scan.close());
  scan.list("a");
  t.is(String(await scan.readFile("a/z.txt")), "z");
  // The directory is swapped while the scan is inside it: the read stays in the directory that was checked.
  renameSync(join(root, "a"), join(root, "a-moved"));
  symlinkSync(outside.root, join(root, "a"));
  t.is(String(await scan.readFile("a/x.txt")), "inside");
});

test("a scan keeps the directories it listed open for its reads, up to maxScanDirs", async (t) => {
  const { root, guard } = setup(t, { "a/x.txt": "1", "b/y.txt": "2" });
  const scan = guard.scan();
  t.teardown(() => scan.close());
  scan.list("a");
  scan.list("b");
  renameSync(join(root, "a"), join(root, "a-old"));
  mkdirSync(join(root, "a"));
  writeFileSync(join(root, "a/x.txt"), "replaced");
  // "a" is still the directory that was listed.
  t.is(String(await scan.readFile("a/x.txt")), "1");
});

test("a scan refuses a directory whose identity changed since it was listed, once it had to close it", async (t) => {
  const { root, guard } = setup(t, { "a/x.txt": "1", "b/y.txt": "2", "c/z.txt": "3" }, { limits: { maxScanDirs: 1 } });
  const scan = guard.scan();
  t.teardown(() => scan.close());
  scan.list("a");
  scan.list("b");
  scan.list("c"); // past the cap: a and b are closed
  t.is(String(await scan.readFile("b/y.txt")), "2"); // reopened, the same directory
  // Moved aside rather than deleted, so the new directory cannot reuse the old one's inode.
  renameSync(join(root, "a"), join(root, "a-old"));
  mkdirSync(join(root, "a"));
  writeFileSync(join(root, "a/x.txt"), "replaced");
  const e = await t.throwsAsync(async () => scan.readFile("a/x.txt"), { instanceOf: GuardDeniedError });
  t.is(e?.rule, "root-pin");
  t.regex(e?.reason ?? "", /changed during the scan/);
});

test("a scan refuses special files and protected names, logging the refusal", async (t) => {
  const { guard, log } = setup(t, { fifo: { fifo: true }, "server.key": "k", "a.txt": "a" });
  const scan = guard.scan();
  t.teardown(() => scan.close());
  scan.list(".");
  const e = await t.throwsAsync(async () => scan.readFile("fifo"), { instanceOf: GuardDeniedError });
  t.is(e?.rule, "special-file");
  const e2 = await t.throwsAsync(async () => scan.readFile("server.key"), { instanceOf: GuardDeniedError });
  t.is(e2?.rule, "denylist");
  t.is(String(await scan.readFile("a.txt")), "a");
  t.deepEqual(
    log.map((d) => `${d.path} ${d.decision} ${d.rule}`),
    ["fifo deny special-file", "server.key deny denylist", "a.txt allow default"],
  );
});

test("a scan reads a file it did not list after lstat'ing it, and refuses a link it did not list", async (t) => {
  const { guard } = setup(t, { "d/a.txt": "a", "d/l": { link: "a.txt" } });
  const scan = guard.scan();
  t.teardown(() => scan.close());
  t.is(String(await scan.readFile("d/a.txt")), "a");
  await t.throwsAsync(async () => scan.readFile("d/l"), { instanceOf: GuardDeniedError });
  await t.throwsAsync(async () => scan.readFile("../x"), { instanceOf: GuardDeniedError });
});

test("a scan can look at a file's first block before reading the rest", async (t) => {
  const { guard, log } = setup(t, { "big.bin": "abcd" + "x".repeat(100), "small.txt": "abc" });
  const scan = guard.scan();
  t.teardown(() => scan.close());
  const seen: string[] = [];
  const head = {
    bytes: 4,
    accept: (b: Buffer) => {
      seen.push(b.toString());
      return false;
    },
  };
  t.is(await scan.readFile("big.bin", { head }), null);
  // A file no larger than the block is read whole and not shown to accept.
  t.is(String(await scan.readFile("small.txt", { head })), "abc");
  t.deepEqual(seen, ["abcd"]);
  t.is(String(await scan.readFile("big.bin", { head: { bytes: 4, accept: () => true } })).length, 104);
  t.deepEqual(
    log.map((d) => d.decision),
    ["allow", "allow", "allow"],
  );
});

test("the scratch buffer is used when the file fits", async (t) => {
  const { guard } = setup(t, { "a.txt": "abc" });
  const scratch = Buffer.alloc(64);
  const b = await guard.readFile("a.txt", { scratch });
  t.is(b.buffer, scratch.buffer);
  t.is(b.toString(), "abc");
});
