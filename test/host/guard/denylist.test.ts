// The default denylist, its placement rules and a project's additions, removals and exceptions.
import test from "ava";
import fc from "fast-check";
import { minimatch } from "minimatch";
import { compileDenylist, createGuard, DEFAULT_DENYLIST, GuardDeniedError } from "../../../host/guard/index.js";
import { makeTree } from "./tree.js";

const dl = compileDenylist();

test("the default list denies secret files wherever they are", (t) => {
  for (const p of [
    ".env",
    "app/.env",
    ".env.local",
    "deploy/.env.production",
    "prod.env",
    "certs/server.pem",
    "config/master.key",
    "id_rsa",
    "home/id_rsa.pub",
    "keys/id_ed25519",
    "x/.ssh/config",
    ".aws/credentials",
    "home/.aws/credentials",
    ".netrc",
    ".npmrc",
    ".pypirc",
    ".git-credentials",
    "vault.kdbx",
    "gcp/credentials.json",
    "client_secret_123.json",
    "android/release.jks",
    "release.keystore",
    "cert.p12",
    "cert.pfx",
    "infra/terraform.tfstate",
    ".docker/config.json",
    ".kube/config",
    ".gnupg/pubring.kbx",
  ]) {
    t.not(dl.match(p, false), null, p);
  }
});

test("the default list leaves ordinary files and checked-in templates alone", (t) => {
  for (const p of ["src/main.ts", "README.md", ".env.example", "app/.env.sample", ".env.template", "keys.ts", "docs/ssh.md", "aws/credentials.md", "config.json", "sample.example.env"]) {
    t.is(dl.match(p, false), null, p);
  }
});

test("a directory entry denies everything below it, and an exception for a file does not reopen it", (t) => {
  t.is(dl.match(".ssh/known_hosts", false), ".ssh/");
  t.is(dl.match(".ssh", true), ".ssh/");
  // `.ssh/` is for directories only: a file named .ssh is not a directory.
  t.is(dl.match(".ssh", false), null);
  t.is(dl.match(".ssh/.env.example", false), ".ssh/");
});

test("the entry that denies is named", (t) => {
  t.is(dl.match("a/b/server.pem", false), "*.pem");
  t.is(dl.match("x/.aws/credentials", false), ".aws/");
});

test("a project adds entries and exceptions and removes defaults", (t) => {
  const p = compileDenylist({ add: ["secrets/", "*.secret", "/top-only.txt", "!dev.pem"], remove: ["*.key"] });
  t.is(p.match("secrets/db.txt", false), "secrets/");
  t.is(p.match("a/secrets/db.txt", false), "secrets/");
  t.is(p.match("x.secret", false), "*.secret");
  t.is(p.match("top-only.txt", false), "/top-only.txt");
  t.is(p.match("sub/top-only.txt", false), null);
  t.is(p.match("config/master.key", false), null);
  t.is(p.match("dev.pem", false), null);
  t.is(p.match("prod.pem", false), "*.pem");
  t.false(p.entries.includes("*.key"));
});

test("globs in entries: braces, classes and **", (t) => {
  const p = compileDenylist({ add: ["*.{crt,cer}", "key[0-9].txt", "vault/**/token"] }, []);
  t.not(p.match("a.crt", false), null);
  t.not(p.match("a.cer", false), null);
  t.is(p.match("a.der", false), null);
  t.not(p.match("key7.txt", false), null);
  t.is(p.match("keyx.txt", false), null);
  t.not(p.match("x/vault/a/b/token", false), null);
  t.not(p.match("vault/token", false), null);
});

test("an invalid or empty entry is an error when the guard is made", (t) => {
  t.throws(() => compileDenylist({ add: [""] }));
  t.throws(() => compileDenylist({ add: ["!"] }));
});

test("the guard applies the project's denylist configuration", async (t) => {
  const tree = makeTree({ "secrets/db.txt": "pw", "config/master.key": "not a key here", ".env.example": "A=" });
  t.teardown(tree.cleanup);
  const guard = createGuard({ root: tree.root, denylist: { add: ["secrets/"], remove: ["*.key"] } });
  const e = await t.throwsAsync(guard.readFile("secrets/db.txt"), { instanceOf: GuardDeniedError });
  t.is(e?.rule, "denylist");
  t.regex(e?.reason ?? "", /secrets\//);
  t.is(await guard.readText("config/master.key"), "not a key here");
  t.is(await guard.readText(".env.example"), "A=");
  t.true(DEFAULT_DENYLIST.includes("*.key"));
});

test("property: a file name is judged as minimatch judges each entry (last deny entry, unless an exception matches)", (t) => {
  const entries = compileDenylist().entries;
  const reference = (name: string): string | null => {
    let hit: string | null = null;
    let excepted = false;
    for (const e of entries) {
      const neg = e.startsWith("!");
      const g = neg ? e.slice(1) : e;
      if (g.includes("/")) continue; // path entries cannot match a single name (dir-only ones end in /)
      // The default entries match whatever the case.
      if (minimatch(name, g, { dot: true, noext: true, nocomment: true, nonegate: true, nocase: true })) {
        if (neg) excepted = true;
        else hit = e;
      }
    }
    return hit !== null && !excepted ? hit : null;
  };
  const fragment = fc.constantFrom(".env", ".", "env", "id_rsa", ".pem", "key", "x", ".example", "credentials", ".json", "client_secret", "_", ".tfstate", ".backup", "secring", "-", ".ENV", "ID_RSA", ".Pem", "_history", "ssh_host_", "_key", "service-account", "history");
  fc.assert(
    fc.property(fc.array(fragment, { minLength: 1, maxLength: 4 }), (parts) => {
      const name = parts.join("");
      if (name === "." || name === "..") return;
      const got = dl.match(name, false);
      const want = reference(name);
      if (got !== want) throw new Error(`${name}: ${got} vs ${want}`);
    }),
    { numRuns: 3000 },
  );
  t.pass();
});
