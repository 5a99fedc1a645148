// T16: adversarial paths — each denied and logged, and not one byte of what they name is returned.
import test from "ava";
import { closeSync, linkSync, mkdirSync, mkdtempSync, openSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Server } from "node:net";
import { createGuard, GuardDeniedError, GuardFileError, type Guard, type GuardDecision, type GuardRule } from "../../../host/guard/index.js";
import { createSearchEngine } from "../../../host/search/index.js";
import { listenSocket, mkfifo } from "./tree.js";

const CANARY = "CANARY-a7f3c9-outside-the-root";
const SECRET = "SECRET-bb41-in-a-denied-file";

interface World {
  readonly root: string;
  readonly outside: string;
  readonly decisions: GuardDecision[];
  readonly guard: Guard;
  readonly server: Server;
  readonly outsideFd: number;
}

async function world(t: import("ava").ExecutionContext): Promise<World> {
  const base = mkdtempSync(join(tmpdir(), "nodwyn-confine-"));
  const root = join(base, "repo");
  const outside = join(base, "outside");
  mkdirSync(join(root, "src", "a", "b", "c"), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(outside, "canary.txt"), CANARY);
  writeFileSync(join(root, "src", "a.txt"), "legitimate\n");
  writeFileSync(join(root, "src", "b.txt"), "legitimate too\n");
  for (const f of [".env", "sub/.ENV.LOCAL", ".Env", "ID_RSA", ".SSH/config", ".git/config", "deploy/ssh_host_ed25519_key", ".kube/config", "gcp/my-project-service-account.json", ".bash_history", "home/.aws/config", "x/.docker/config.json"]) {
    mkdirSync(join(root, f, ".."), { recursive: true });
    writeFileSync(join(root, f), SECRET);
  }
  // Symbolic links: as the file, on the way, pointing inside, to devices and /proc.
  symlinkSync(join(outside, "canary.txt"), join(root, "link-file"));
  symlinkSync(outside, join(root, "link-dir"));
  symlinkSync(join(root, "src", "a.txt"), join(root, "link-inside"));
  symlinkSync(join(root, "src"), join(root, "link-inside-dir"));
  symlinkSync("../link-file", join(root, "src", "link-chain"));
  symlinkSync("/proc/self/root", join(root, "link-proc"));
  symlinkSync("/dev/zero", join(root, "link-dev-zero"));
  // Special files.
  mkfifo(join(root, "fifo"));
  const server = await listenSocket(join(root, "sock"));
  // Hard links: to a file outside the root, and a second name of a file inside it.
  linkSync(join(outside, "canary.txt"), join(root, "hard-outside"));
  linkSync(join(root, "src", "b.txt"), join(root, "src", "hard-inside"));
  // Normalisation: a project entry written in NFC, a file named in NFD, and the reverse.
  writeFileSync(join(root, "secret-cafe\u0301.txt"), SECRET);
  writeFileSync(join(root, "note-\u00e9t\u00e9.txt"), SECRET);
  const outsideFd = openSync(join(outside, "canary.txt"), "r");
  const decisions: GuardDecision[] = [];
  const guard = createGuard({
    root,
    log: (d) => decisions.push(d),
    logBatch: (ds) => decisions.push(...ds),
    denylist: { add: ["secret-caf\u00e9.txt", "note-e\u0301te\u0301.txt"] },
  });
  t.teardown(() => {
    closeSync(outsideFd);
    server.close();
    rmSync(base, { recursive: true, force: true });
  });
  return { root, outside, decisions, guard, server, outsideFd };
}

/** The adversarial paths, each with the rule that must deny it. */
function cases(w: World): Array<[string, GuardRule]> {
  const deep = "src/a/b/c/";
  return [
    // Traversal at every depth, and absolute paths.
    ["../outside/canary.txt", "root-pin"],
    ["../../outside/canary.txt", "root-pin"],
    ["src/../../outside/canary.txt", "root-pin"],
    ["./../outside/canary.txt", "root-pin"],
    [`${deep}../../../../../outside/canary.txt`, "root-pin"],
    [`${deep}../../../../outside/canary.txt`, "root-pin"],
    [`${deep}..`, "root-pin"],
    ["src/..", "root-pin"],
    ["src/../.env", "root-pin"],
    [join(w.outside, "canary.txt"), "root-pin"],
    ["/etc/passwd", "root-pin"],
    ["/etc/shadow", "root-pin"],
    [`${w.root}/../outside/canary.txt`, "root-pin"],
    [`${w.root}/src/../../outside/canary.txt`, "root-pin"],
    // /proc and devices.
    ["/proc/self/root/etc/passwd", "root-pin"],
    [`/proc/self/root${w.root}/src/a.txt`, "root-pin"],
    [`/proc/self/fd/${w.outsideFd}`, "root-pin"],
    ["/proc/self/environ", "root-pin"],
    ["/proc/self/cwd/src/a.txt", "root-pin"],
    ["/dev/zero", "root-pin"],
    ["/dev/stdin", "root-pin"],
    // Symbolic links: the final component, on the way, pointing inside, chains, to /proc and devices.
    ["link-file", "root-pin"],
    ["link-dir/canary.txt", "root-pin"],
    ["link-inside", "root-pin"],
    ["link-inside-dir/a.txt", "root-pin"],
    ["src/link-chain", "root-pin"],
    ["link-proc/etc/passwd", "root-pin"],
    ["link-dev-zero", "root-pin"],
    // Special files.
    ["fifo", "special-file"],
    ["sock", "special-file"],
    // Case and normalisation of denied names.
    [".env", "denylist"],
    [".Env", "denylist"],
    ["sub/.ENV.LOCAL", "denylist"],
    ["ID_RSA", "denylist"],
    [".SSH/config", "denylist"],
    ["secret-cafe\u0301.txt", "denylist"],
    ["note-\u00e9t\u00e9.txt", "denylist"],
    // A trailing slash or dot is no way round the denylist.
    [".env/", "denylist"],
    [".env/.", "denylist"],
    ["./.env", "denylist"],
    [`${w.root}/.env`, "denylist"],
    // Secret files of the classes the red team found readable.
    [".git/config", "denylist"],
    ["deploy/ssh_host_ed25519_key", "denylist"],
    [".kube/config", "denylist"],
    ["gcp/my-project-service-account.json", "denylist"],
    [".bash_history", "denylist"],
    ["home/.aws/config", "denylist"],
    ["x/.docker/config.json", "denylist"],
    // Hard links (the default policy).
    ["hard-outside", "hard-link"],
    ["src/hard-inside", "hard-link"],
    ["src/b.txt", "hard-link"], // its first name is refused too: either may be the second
    // A path longer than PATH_MAX.
    [`${"d/".repeat(2100)}x`, "root-pin"],
  ];
}

test("at least 40 adversarial paths are denied and logged, and no byte of them is returned, by every way of reading", async (t) => {
  const w = await world(t);
  const all = cases(w);
  t.true(all.length >= 40, `${all.length} cases`);
  let denied = 0;
  for (const [path, rule] of all) {
    const shown = JSON.stringify(path.length > 80 ? `${path.slice(0, 80)}…` : path);
    for (const how of ["readFile", "readFileSync", "readText", "scan"] as const) {
      const before = w.decisions.length;
      let got: unknown = null;
      let err: unknown = null;
      try {
        if (how === "readFile") got = await w.guard.readFile(path);
        else if (how === "readFileSync") got = w.guard.readFileSync(path);
        else if (how === "readText") got = await w.guard.readText(path);
        else {
          const s = w.guard.scan();
          try {
            got = await s.readFile(path);
          } finally {
            s.close();
          }
        }
      } catch (e) {
        err = e;
      }
      t.is(got, null, `${how} ${shown} returned something`);
      t.true(err instanceof GuardDeniedError, `${how} ${shown}: ${String(err)}`);
      if (!(err instanceof GuardDeniedError)) continue;
      t.is(err.rule, rule, `${how} ${shown}: ${err.message}`);
      t.false(err.message.includes(CANARY) || err.message.includes(SECRET));
      const logged = w.decisions.slice(before);
      t.true(
        logged.some((d) => d.decision === "deny" && d.rule === rule),
        `${how} ${shown}: the denial is logged`,
      );
      t.false(logged.some((d) => d.decision === "allow"), `${how} ${shown}: nothing allowed`);
      denied++;
    }
  }
  t.log(`${all.length} adversarial paths, ${denied} denials over four ways of reading`);
});

test("what is not a file to read is refused without a byte: a directory, a NUL in the path, an empty path", async (t) => {
  const w = await world(t);
  for (const [path, code] of [
    ["src", "is-directory"],
    [".", "is-directory"],
    ["src/a.txt\0../../outside/canary.txt", "bad-path"],
    ["", "bad-path"],
  ] as const) {
    const e = await t.throwsAsync(() => w.guard.readFile(path));
    t.true(e instanceof GuardFileError, `${JSON.stringify(path)}: ${String(e)}`);
    t.is((e as GuardFileError).code, code);
    t.throws(() => w.guard.readFileSync(path), { instanceOf: GuardFileError });
  }
});

test("a search over the tree returns no byte of the canary, and counts each refused file", async (t) => {
  const w = await world(t);
  const engine = createSearchEngine(w.guard);
  t.teardown(() => void engine.close());
  const r = await engine.grep(".", "CANARY|SECRET|legitimate");
  const text = JSON.stringify(r);
  t.false(text.includes(CANARY));
  t.false(text.includes(SECRET));
  t.deepEqual(
    r.matches.map((m) => m.path),
    ["src/a.txt"],
  );
  t.true((r.skipped.nonregular ?? 0) >= 2, JSON.stringify(r.skipped));
  t.true((r.skipped.protected ?? 0) >= 5, JSON.stringify(r.skipped));
  t.true(w.decisions.some((d) => d.path === "hard-outside" && d.rule === "hard-link" && d.decision === "deny"));
});

test("a file with several hard links is read when the person allows it (hard_links = \"allow\")", async (t) => {
  const w = await world(t);
  const g = createGuard({ root: w.root, hardLinks: "allow" });
  t.is((await g.readFile("src/hard-inside")).toString(), "legitimate too\n");
  t.is(g.readFileSync("hard-outside").toString(), CANARY);
  const engine = createSearchEngine(g);
  t.teardown(() => void engine.close());
  const r = await engine.grep("src", "legitimate");
  t.deepEqual(r.matches.map((m) => m.path).sort(), ["src/a.txt", "src/b.txt", "src/hard-inside"]);
});
