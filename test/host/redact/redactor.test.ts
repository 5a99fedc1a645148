// The redactor's JSON walk, its report, and the secret values a host registers.

import test from "ava";
import { Redactor, RedactError, MAX_DEPTH, MIN_SECRET_LENGTH, HOST_SECRET_RULE } from "../../../host/redact/index.js";
import { FIXTURES, mix } from "./fixtures.js";

const gh = FIXTURES["github-token"].positives[0];

test("a value without secrets comes back as the same object and no report", (t) => {
  const r = new Redactor();
  const v = { a: [1, "two", { three: true, four: null }], b: "plain text", n: -0.5 };
  const out = r.redactJSON(v);
  t.is(out.value, v);
  t.is(out.report, null);
});

test("the input is never changed; only the changed branches are copied", (t) => {
  const r = new Redactor();
  const keep = { x: "nothing here" };
  const v = { keep, deep: { list: ["ok", gh.text] } };
  const before = structuredClone(v);
  const out = r.redactJSON(v);
  t.deepEqual(v, before);
  t.not(out.value, v);
  t.is(out.value.keep, keep);
  t.is(out.value.deep.list[0], "ok");
  t.false(out.value.deep.list[1].includes(gh.secret));
});

test("the report counts per rule and gives JSON Pointers of the changed strings", (t) => {
  const r = new Redactor();
  const { report } = r.redactJSON({ "a/b": { "t~x": gh.text }, list: ["x", gh.text + " " + gh.text] });
  t.deepEqual(report, {
    rules: { "github-token": 3 },
    paths: ["/a~1b/t~0x", "/list/1"],
    pathsDropped: 0,
    total: 3,
  });
});

test("a report keeps at most maxPaths paths and counts the rest", (t) => {
  const r = new Redactor({ maxPaths: 2 });
  const { report } = r.redactJSON([gh.text, gh.text, gh.text, gh.text, gh.text]);
  t.deepEqual(report!.paths, ["/0", "/1"]);
  t.is(report!.pathsDropped, 3);
  t.is(report!.total, 5);
});

test("object keys are redacted too, and keys redacted alike do not overwrite each other", (t) => {
  const r = new Redactor();
  const k1 = "gh" + "p_" + mix(36);
  const k2 = "gh" + "o_" + mix(40);
  const { value, report } = r.redactJSON({ [k1]: 1, [k2]: 2, "[REDACTED:github-token]#2": 3 });
  t.deepEqual(Object.values(value).sort(), [1, 2, 3]);
  for (const k of Object.keys(value)) t.false(k.includes(mix(36)));
  t.is(Object.keys(value).length, 3);
  t.is(report!.rules["github-token"], 2);
});

test("fields named like secrets lose their values, keep placeholders and values too short to be secrets", (t) => {
  const r = new Redactor();
  const { value, report } = r.redactJSON({
    password: "hunter22",
    db_password: "********",
    apiKey: mix(24),
    client_secret: "config.secret",
    token: "short",
    headers: { Authorization: "Bearer " + "abc123xyzXYZ", "Proxy-Authorization": "Basic ********" },
    tokens: 12345678,
  });
  // In data (unlike code) a value under a secret name is the secret, letters only or not.
  t.deepEqual(value, {
    password: "[REDACTED:generic-assignment]",
    db_password: "********",
    apiKey: "[REDACTED:generic-assignment]",
    client_secret: "[REDACTED:generic-assignment]",
    token: "short",
    headers: { Authorization: "Bearer [REDACTED:authorization]", "Proxy-Authorization": "Basic ********" },
    tokens: 12345678,
  });
  t.deepEqual(report!.rules, { "generic-assignment": 3, authorization: 1 });
  t.deepEqual(report!.paths, ["/password", "/apiKey", "/client_secret", "/headers/Authorization"]);
});

test("undefined members are treated as absent, as JSON.stringify does", (t) => {
  const r = new Redactor();
  const { value } = r.redactJSON({ a: undefined, b: gh.text });
  t.false("a" in value);
  t.is(JSON.stringify(value), JSON.stringify({ b: "GITHUB_TOKEN=[REDACTED:github-token]" }));
});

test("what is not JSON is refused with a path: NaN, Infinity, undefined in arrays, class instances, functions, bigints", (t) => {
  const r = new Redactor();
  const cases: [unknown, string][] = [
    [{ a: { b: NaN } }, "/a/b"],
    [{ a: [1, Infinity] }, "/a/1"],
    [{ a: [1, undefined] }, "/a/1"],
    [{ d: new Date(0) }, "/d"],
    [{ m: new Map() }, "/m"],
    [{ f: () => 1 }, "/f"],
    [{ n: 10n }, "/n"],
  ];
  for (const [v, path] of cases) {
    const e = t.throws(() => r.redactJSON(v), { instanceOf: RedactError });
    t.is(e!.code, "REDACT_NOT_JSON");
    t.is(e!.path, path);
  }
});

test("nesting deeper than MAX_DEPTH, or a cycle, is refused", (t) => {
  const r = new Redactor();
  let deep: unknown = "x";
  for (let i = 0; i <= MAX_DEPTH; i++) deep = [deep];
  t.is(t.throws(() => r.redactJSON(deep), { instanceOf: RedactError })!.code, "REDACT_TOO_DEEP");
  let ok: unknown = "x";
  for (let i = 0; i < MAX_DEPTH - 1; i++) ok = [ok];
  t.notThrows(() => r.redactJSON(ok));
  const cyc: Record<string, unknown> = {};
  cyc.self = cyc;
  t.is(t.throws(() => r.redactJSON(cyc), { instanceOf: RedactError })!.code, "REDACT_TOO_DEEP");
});

test("a registered host secret is replaced wherever it appears, in any shape of text", (t) => {
  const r = new Redactor();
  const secret = "plain words " + "can-be-a-secret 42";
  t.deepEqual(r.redactText(`said ${secret}.`).rules, {});
  r.registerSecret(secret);
  const { value, report } = r.redactJSON({
    text: `said ${secret}.`,
    [secret]: "as a key",
    list: [secret, `x${secret}x${secret}`],
  });
  const s = JSON.stringify(value);
  t.false(s.includes("can-be-a-secret"));
  t.is(report!.rules[HOST_SECRET_RULE], 5);
  t.is(value.text, "said [REDACTED:host-secret].");
});

test("a host secret is also found JSON-escaped, URL-encoded and base64-encoded", (t) => {
  const r = new Redactor();
  const secret = 'q"uo/te\\ & space ' + "X9";
  r.registerSecret(secret);
  const forms = [
    JSON.stringify({ k: secret }),
    "https://x.example/?p=" + encodeURIComponent(secret),
    "data: " + Buffer.from(secret).toString("base64"),
    "b64url: " + Buffer.from(secret).toString("base64url"),
  ];
  for (const text of forms) {
    const out = r.redactText(text);
    t.true((out.rules[HOST_SECRET_RULE] ?? 0) >= 1, text);
    t.false(out.text.includes(secret));
    t.false(out.text.includes(encodeURIComponent(secret)));
    t.false(out.text.includes(Buffer.from(secret).toString("base64").replace(/=+$/, "")));
  }
});

test("encoded runs are replaced where they stand: the same secret's run twice, a harmless run of the same shape between", (t) => {
  const r = new Redactor();
  // Found only by decoding: the base64 of an assignment the rules take.
  const run = Buffer.from("password=hunter2hunter2hunter2").toString("base64");
  const harmless = "node_modules/some-package/lib/deeply/nested/file";
  const text = `first ${run}\n${harmless} then ${run}.`;
  const out = r.redactText(text);
  t.is(out.rules["generic-assignment"], 2);
  t.is(out.text, `first [REDACTED:generic-assignment]\n${harmless} then [REDACTED:generic-assignment].`);
  // A text whose runs hold nothing is returned as it came.
  const clean = `${harmless} ${"Ab0".repeat(20)} %41%42`;
  t.is(r.redactText(clean).text, clean);
});

test("a secret containing another registered one is replaced whole", (t) => {
  const r = new Redactor();
  r.registerSecret("abcd1234");
  r.registerSecret("abcd1234-and-more");
  t.is(r.redactText("x abcd1234-and-more y abcd1234").text, "x [REDACTED:host-secret] y [REDACTED:host-secret]");
});

test("registering a secret shorter than MIN_SECRET_LENGTH is refused", (t) => {
  const r = new Redactor();
  const e = t.throws(() => r.registerSecret("x".repeat(MIN_SECRET_LENGTH - 1)), { instanceOf: RedactError });
  t.is(e!.code, "REDACT_SECRET_TOO_SHORT");
  t.is(r.secretCount, 0);
  r.registerSecret("y".repeat(MIN_SECRET_LENGTH));
  t.is(r.secretCount, 1);
});

test("two redactors do not share registered secrets", (t) => {
  const a = new Redactor();
  const b = new Redactor();
  a.registerSecret("only-in-a-1234");
  t.is(a.redactText("only-in-a-1234").text, "[REDACTED:host-secret]");
  t.is(b.redactText("only-in-a-1234").text, "only-in-a-1234");
});

test("ruleNames lists host-secret first, then the rules in order", (t) => {
  const names = new Redactor().ruleNames;
  t.is(names[0], HOST_SECRET_RULE);
  t.is(names[1], "private-key");
  t.is(names.at(-1), "generic-assignment");
});

test("a non-JSON root is refused with the root's pointer", (t) => {
  const r = new Redactor();
  const e = t.throws(() => r.redactJSON(NaN), { instanceOf: RedactError });
  t.is(e!.path, "");
  t.is(e!.message, "not JSON at /: NaN");
});

test("a key the rules change, or a secret-named field, is found even when no value string matches", (t) => {
  const r = new Redactor();
  // Values too short or too plain to match any pattern; the key or the field name is what counts.
  t.deepEqual(r.redactJSON({ [gh.text]: 1 }).report!.rules, { "github-token": 1 });
  t.deepEqual(r.redactJSON({ passwd: "hunter2x" }).value, { passwd: "[REDACTED:generic-assignment]" });
  t.is(r.redactJSON({ passwd: "hunter2x" }).report!.total, 1, "the key cache gives the same answer the second time");
});

test("registering a secret forgets what was known of keys", (t) => {
  const r = new Redactor();
  t.is(r.redactJSON({ "key-with-secret-7": 1 }).report, null);
  r.registerSecret("secret-7");
  t.deepEqual(Object.keys(r.redactJSON({ "key-with-secret-7": 1 }).value), ["key-with-[REDACTED:host-secret]"]);
});
