// T20: the [guard] table of config.toml fails closed — each malformed configuration is an error naming its key; none is half-applied.
import test from "ava";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, linkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigError, parseConfig } from "../../../host/config/index.js";
import { createGuard, GuardConfigError, GuardDeniedError, parseGuardConfig } from "../../../host/guard/index.js";
import { Session } from "../../../host/session/session.js";
import { nodwyn } from "../../helpers/cli.js";

/** Malformed [guard] tables, each with the key its error must name. */
const MALFORMED: Array<[string, string]> = [
  ["hard_link = \"allow\"", "guard.hard_link"], // a typo: unknown key
  ["Deny = [\"*.x\"]", "guard.Deny"], // keys are case-sensitive
  ["deny = \"*.secret\"", "guard.deny"], // a string where an array is wanted
  ["deny = [1, 2]", "guard.deny[0]"], // numbers in the list
  ["deny = [\"[abc\"]", "guard.deny[0]"], // an unclosed class
  ["deny = [\"{a,b\"]", "guard.deny[0]"], // an unclosed brace
  ["deny = [\"a}\"]", "guard.deny[0]"], // a stray brace
  ["deny = [\"\"]", "guard.deny[0]"], // an empty glob
  ["deny = [\"../outside\"]", "guard.deny[0]"], // a '..' component
  ["deny = [\"a\\\\b\"]", "guard.deny[0]"], // a backslash
  ["deny = [\"!keep.pem\"]", "guard.deny[0]"], // an exception in the deny list
  ["deny = [\"*.x\", \"*.x\"]", "guard.deny[1]"], // a repeated entry
  ["deny = [\"*.pem\"]", "guard.deny[0]"], // already a default entry
  ["allow = [\"fixtures/*.pem\"]\ndeny = [\"fixtures/*.pem\"]", "guard.allow[0]"], // overlapping allow and deny
  ["remove = [\"*.kee\"]", "guard.remove[0]"], // removing an entry the defaults do not have
  ["hard_links = \"sometimes\"", "guard.hard_links"], // not one of the two policies
  ["hard_links = true", "guard.hard_links"], // a boolean where a word is wanted
  ["case_insensitive = \"yes\"", "guard.case_insensitive"],
  ["max_reads_per_turn = 0", "guard.max_reads_per_turn"], // out of range
  ["max_bytes_per_turn = 1.5", "guard.max_bytes_per_turn"], // not an integer
  ["checker_timeout_ms = 100000000", "guard.checker_timeout_ms"],
  ["checker_steps = -3", "guard.checker_steps"],
  ["[guard.deny]\nx = 1", "guard.deny"], // a table where an array is wanted
  ["allow = [{ glob = \"*.x\" }]", "guard.allow[0]"], // a table inside the list
];

test(`${MALFORMED.length} malformed [guard] tables each fail at load with an error naming the bad key, at its line`, (t) => {
  t.true(MALFORMED.length >= 20);
  let failed = 0;
  for (const [body, key] of MALFORMED) {
    const text = body.startsWith("[guard.") ? body : `# a person's configuration\n[guard]\n${body}\n`;
    const e = t.throws(() => parseConfig(text, "/home/u/.config/nodwyn/config.toml"), { instanceOf: ConfigError }, body);
    if (!e) continue;
    t.is(e.code, "CONFIG_INVALID", body);
    const named = e.problems.find((p) => p.key === key || p.message.includes(key));
    t.truthy(named, `${body}: ${e.message}`);
    t.regex(e.message, /^\/home\/u\/\.config\/nodwyn\/config\.toml:\d+:\d+: /, body);
    failed++;
  }
  t.is(failed, MALFORMED.length);
  t.log(`${failed} of ${MALFORMED.length} malformed configurations failed closed`);
});

test("parseGuardConfig alone names every problem of a table at once, and a table that is not a table", (t) => {
  const e = t.throws(() => parseGuardConfig({ deny: ["[x"], hard_links: "no", bogus: 1 }, "config.toml"), { instanceOf: GuardConfigError });
  t.deepEqual(e!.problems.map((p) => p.key).sort(), ["guard.bogus", "guard.deny[0]", "guard.hard_links"]);
  t.throws(() => parseGuardConfig(7, "config.toml"), { instanceOf: GuardConfigError, message: /guard must be a table/ });
  t.regex(t.throws(() => parseGuardConfig({ hard_link: "allow" }, "c.toml"))!.message, /did you mean hard_links\?/);
});

test("a well-formed [guard] table has every setting take effect", async (t) => {
  const s = parseGuardConfig(
    {
      hard_links: "allow",
      deny: ["private/", "*.secret"],
      allow: ["fixtures/test.pem"],
      remove: ["*.tfvars"],
      case_insensitive: true,
      max_reads_per_turn: 3,
      max_bytes_per_turn: 100000,
      checker_timeout_ms: 500,
      checker_steps: 1000,
    },
    "c.toml",
  );
  t.deepEqual(s, {
    hardLinks: "allow",
    denylist: { add: ["private/", "*.secret", "!fixtures/test.pem"], remove: ["*.tfvars"] },
    caseInsensitive: true,
    maxReadsPerTurn: 3,
    maxBytesPerTurn: 100000,
    checkerTimeoutMs: 500,
    checkerSteps: 1000,
  });
  const root = mkdtempSync(join(tmpdir(), "nodwyn-guardcfg-"));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  mkdirSync(join(root, "fixtures"));
  mkdirSync(join(root, "private"));
  for (const f of ["fixtures/test.pem", "private/x.txt", "a.SECRET", "prod.tfvars", "one.txt"]) writeFileSync(join(root, f), "x");
  linkSync(join(root, "one.txt"), join(root, "two.txt"));
  const g = createGuard({ root, denylist: s.denylist, hardLinks: s.hardLinks, caseInsensitive: s.caseInsensitive!, limits: { maxReadsPerTurn: s.maxReadsPerTurn! } });
  t.is(g.readFileSync("fixtures/test.pem").toString(), "x"); // the exception
  t.is(g.readFileSync("prod.tfvars").toString(), "x"); // the removed default
  t.is(g.readFileSync("two.txt").toString(), "x"); // hard links allowed; third read of the turn
  t.throws(() => g.readFileSync("one.txt"), { instanceOf: GuardDeniedError, message: /turn-limit/ });
  g.startTurn();
  t.throws(() => g.readFileSync("private/x.txt"), { instanceOf: GuardDeniedError, message: /private\// });
  t.throws(() => g.readFileSync("a.SECRET"), { instanceOf: GuardDeniedError, message: /\*\.secret/ }); // case-insensitive, as configured
});

test("a malformed config.toml refuses the session, and the command says which key before doing anything", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "nodwyn-guardcfg-"));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, "nodwyn"));
  mkdirSync(join(dir, "repo", ".git"), { recursive: true });
  writeFileSync(join(dir, "nodwyn", "config.toml"), `[guard]\nhard_links = "allow"\ndeny = ["[broken"]\n`);
  const env = { XDG_CONFIG_HOME: dir, NODWYN_DATA_DIR: join(dir, "data"), HOME: dir };
  const e = await t.throwsAsync(() => Session.open({ origin: "test", cwd: join(dir, "repo"), root: join(dir, "repo"), env, stdout: { write() {} }, stderr: { write() {} } }));
  t.true(e instanceof ConfigError, String(e));
  t.regex(e!.message, /config\.toml:3:\d+: guard\.deny\[0\] "\[broken" has a '\[' without its '\]'/);
  const r = nodwyn(["-e", "(display 42)"], { cwd: join(dir, "repo"), env: { XDG_CONFIG_HOME: dir } });
  t.is(r.code, 1);
  t.is(r.stdout, "");
  t.regex(r.stderr, /guard\.deny\[0\]/);
});

test("a [guard] table in config.toml takes effect in a real session: its deny entry refuses a file, its hard_links lets a linked file through", (t) => {
  const dir = mkdtempSync(join(tmpdir(), "nodwyn-guardcfg-"));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, "nodwyn"));
  const repo = join(dir, "repo");
  mkdirSync(join(repo, ".git"), { recursive: true });
  mkdirSync(join(repo, "drafts"));
  writeFileSync(join(repo, "drafts", "plan.txt"), "the plan\n");
  writeFileSync(join(repo, "one.txt"), "linked\n");
  linkSync(join(repo, "one.txt"), join(repo, "two.txt"));
  const read = (config: string | null) => {
    if (config !== null) writeFileSync(join(dir, "nodwyn", "config.toml"), config);
    const r = nodwyn(["--sandbox", "-e", '(list (guard (e ((error-object? e) (error-object-message e))) (fs-read "drafts/plan.txt")) (guard (e ((error-object? e) (error-object-message e))) (fs-read "two.txt")))'], {
      cwd: repo,
      env: { XDG_CONFIG_HOME: dir, HOME: dir },
    });
    t.is(r.code, 0, r.stderr);
    return r.stdout;
  };
  // Without the table: drafts/ is readable, the hard-linked file is refused.
  const before = read(null);
  t.regex(before, /the plan/);
  t.regex(before, /denied \(hard-link\)/);
  // With it: drafts/ denied by the person's rule, the linked file read.
  const after = read(`[guard]\ndeny = ["drafts/"]\nhard_links = "allow"\n`);
  t.notRegex(after, /the plan/);
  t.regex(after, /access to \\"drafts\/plan\.txt\\" denied/);
  t.regex(after, /linked/);
  t.notRegex(after, /hard-link/);
});
