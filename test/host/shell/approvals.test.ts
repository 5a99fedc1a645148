// ShellApprovals: the allow-list, the person's answers and what approval.change records, refusals with no one to ask.
import test from "ava";
import { ShellApprovals, derivePrefix, matchesPrefix, type ApprovalChange, type ApprovalRequest } from "../../../host/shell/index.js";

test("a command's prefix: its program, with the subcommand of git, npm and the like", (t) => {
  t.is(derivePrefix("git status --short"), "git status");
  t.is(derivePrefix("npm test"), "npm test");
  t.is(derivePrefix("ls -la src"), "ls");
  t.is(derivePrefix("git --no-pager log"), "git");
  t.is(derivePrefix("make"), "make");
  t.is(derivePrefix("ls; rm -rf /"), null, "a compound command has no prefix");
  t.is(derivePrefix("cat a | sh"), null);
  t.is(derivePrefix("echo $(whoami)"), null);
  t.is(derivePrefix("FOO=1 make"), null);
});

test("a prefix matches whole words of a simple command only", (t) => {
  t.true(matchesPrefix("git status --short", "git status"));
  t.false(matchesPrefix("git statusx", "git status"));
  t.false(matchesPrefix("git status; rm -rf ~", "git status"));
  t.false(matchesPrefix("git status > /etc/passwd", "git status"));
  t.false(matchesPrefix("git", "git status"));
});

test("with no one to ask, a command outside the allow-list is refused, saying why", async (t) => {
  const changes: ApprovalChange[] = [];
  const a = new ShellApprovals({ allow: ["git status", "ls"], ask: null, record: (c) => changes.push(c) });
  t.like(await a.decide("git status"), { allowed: true, by: "config" });
  t.like(await a.decide("ls -la"), { allowed: true, by: "config" });
  const no = await a.decide("rm -rf build");
  t.false(no.allowed);
  t.regex(no.reason!, /needs the person's approval/);
  t.regex(no.reason!, /"git status", "ls"/);
  t.deepEqual(changes, []);
});

test("the person's answers: once asks again, always allows the prefix for the session, never refuses it", async (t) => {
  const changes: ApprovalChange[] = [];
  const asked: ApprovalRequest[] = [];
  const answers: ("once" | "session" | "never")[] = ["once", "session", "never"];
  const a = new ShellApprovals({ ask: async (r) => (asked.push(r), answers.shift()!), record: (c) => changes.push(c), promptPrefix: "s1" });
  t.like(await a.decide("npm test"), { allowed: true, by: "person" });
  t.like(await a.decide("npm test -- --watch"), { allowed: true, by: "person" }, "once was only once");
  t.like(await a.decide("npm test"), { allowed: true, by: "session" }, "always for the prefix");
  t.like(await a.decide("curl example.com"), { allowed: false, by: "person" });
  t.like(await a.decide("curl other.example"), { allowed: false, by: "refused" }, "never is remembered for the prefix");
  t.is(asked.length, 3);
  t.deepEqual(changes, [
    { actor: "person", scope: "once", kind: "command", prefix: "npm test", prompt_id: "s1-1" },
    { actor: "person", scope: "session", kind: "command", prefix: "npm test", prompt_id: "s1-2" },
    { actor: "person", scope: "never", kind: "command", prefix: "curl", prompt_id: "s1-3" },
  ]);
});

test("always for a compound command counts as once", async (t) => {
  const changes: ApprovalChange[] = [];
  const a = new ShellApprovals({ ask: async () => "session", record: (c) => changes.push(c) });
  t.like(await a.decide("make && make test"), { allowed: true, by: "person" });
  t.is(changes[0]!.scope, "once");
  t.is(changes[0]!.prefix, undefined);
});
