// Each redaction rule finds its secrets (true positives) and leaves look-alikes alone (false positives).

import test from "ava";
import RE2 from "re2";
import { DEFAULT_RULES, Redactor, screenSource } from "../../../host/redact/index.js";
import { FIXTURES } from "./fixtures.js";

const redactor = new Redactor();

test("every rule has true-positive and false-positive fixtures, and every fixture names a rule", (t) => {
  const names = DEFAULT_RULES.map((r) => r.name);
  for (const rule of DEFAULT_RULES) {
    const f = FIXTURES[rule.name];
    t.truthy(f, `no fixtures for ${rule.name}`);
    // A rule with several patterns needs at least one positive per pattern.
    t.true(f.positives.length >= rule.patterns.length, `${rule.name}: ${f.positives.length} positives for ${rule.patterns.length} patterns`);
    t.true(f.negatives.length >= 1, `${rule.name}: no negatives`);
  }
  for (const name of Object.keys(FIXTURES)) t.true(names.includes(name), `fixtures for unknown rule ${name}`);
});

test("screenSource loosens counted repetitions only, outside classes and escapes", (t) => {
  t.is(screenSource("a{36,255}"), "a{8,}");
  t.is(screenSource("a{4}b{20,}c{2,3}"), "a{4,}b{8,}c{2,}");
  t.is(screenSource("[{]{3}"), "[{]{3,}");
  t.is(screenSource("[]{}]{40}"), "[]{}]{8,}");
  t.is(screenSource("[^]{]{40}x"), "[^]{]{8,}x");
  t.is(screenSource("[a\\]{]{5}"), "[a\\]{]{5,}");
  t.is(screenSource("[[:alpha:]{]{30}"), "[[:alpha:]{]{8,}");
  t.is(screenSource("\\{30}"), "\\{30}");
  t.is(screenSource("\\x{41}{30}"), "\\x{41}{8,}");
  t.is(screenSource("\\p{Greek}{30,40}?"), "\\p{Greek}{8,}?");
  t.is(screenSource("a{,5}{x}"), "a{,5}{x}", "not a repetition: literal braces");
  t.is(screenSource("\\Qa{30}\\Eb{30}"), "\\Qa{30}\\Eb{8,}", "\\Q...\\E is literal text");
  t.is(screenSource("\\Qa{30}"), "\\Qa{30}");
  t.is(screenSource("a{40}", 4), "a{4,}");
});

test("every rule's screen matches wherever the rule does, and compiles", (t) => {
  const texts = [...Object.values(FIXTURES).flatMap((f) => [...f.positives.map((p) => p.text), ...f.negatives])];
  for (const rule of DEFAULT_RULES)
    for (const source of rule.patterns) {
      const exact = new RE2(source);
      const screen = new RE2(screenSource(source));
      for (const text of texts) if (exact.test(text)) t.true(screen.test(text), `${rule.name}: the screen of ${source} misses ${JSON.stringify(text)}`);
    }
});

for (const rule of DEFAULT_RULES) {
  const f = FIXTURES[rule.name];
  test(`${rule.name}: true positives are replaced and counted under ${rule.name}`, (t) => {
    for (const { text, secret } of f.positives) {
      t.true(text.includes(secret), "fixture holds its secret");
      const r = redactor.redactText(text);
      t.false(r.text.includes(secret), `${rule.name} left the secret in ${JSON.stringify(r.text)}`);
      t.true(r.text.includes(`[REDACTED:${rule.name}]`), `${rule.name}: no placeholder in ${JSON.stringify(r.text)}`);
      t.true((r.rules[rule.name] ?? 0) >= 1, `${rule.name} not counted for ${JSON.stringify(text)}: ${JSON.stringify(r.rules)}`);
    }
  });
  test(`${rule.name}: false positives are left exactly as they are`, (t) => {
    for (const text of f.negatives) {
      const r = redactor.redactText(text);
      t.is(r.text, text);
      t.deepEqual(r.rules, {});
    }
  });
  test(`${rule.name}: a secret inside a JSON payload is replaced, the text around it kept`, (t) => {
    const { text, secret } = f.positives[0];
    const { value, report } = redactor.redactJSON({ note: { lines: ["before", `<<${text}>>`, "after"] } });
    const line = value.note.lines[1];
    t.false(line.includes(secret));
    t.true(line.startsWith("<<") && line.endsWith(">>") || !text.includes("\n"), "context kept");
    t.deepEqual(value.note.lines[0], "before");
    t.truthy(report);
    t.deepEqual(report!.paths, ["/note/lines/1"]);
  });
}

test("the private key rule keeps the BEGIN line and removes the body and the END line", (t) => {
  const { text } = FIXTURES["private-key"].positives[0];
  const r = redactor.redactText(text);
  t.is(r.text, "-----BEGIN RSA PRIVATE KEY-----[REDACTED:private-key]");
});

test("an Authorization header keeps its scheme name", (t) => {
  t.is(redactor.redactText("Authorization: Bearer " + "abcDEF123456789xyz").text, "Authorization: Bearer [REDACTED:authorization]");
});

test("a URL keeps its user and host; only the password goes", (t) => {
  t.is(
    redactor.redactText("postgres://admin:" + "S3cr3tPass9" + "@db:5432/app").text,
    "postgres://admin:[REDACTED:url-password]@db:5432/app",
  );
});

test("several secrets of different kinds in one string are each counted", (t) => {
  const a = FIXTURES["github-token"].positives[0];
  const b = FIXTURES["jwt"].positives[0];
  const c = FIXTURES["url-password"].positives[0];
  const r = redactor.redactText([a.text, b.text, c.text, a.text].join(" | "));
  for (const s of [a.secret, b.secret, c.secret]) t.false(r.text.includes(s));
  t.deepEqual(r.rules, { "github-token": 2, jwt: 1, "url-password": 1 });
});

test("redacting redacted text changes nothing more", (t) => {
  for (const f of Object.values(FIXTURES))
    for (const { text } of f.positives) {
      const once = redactor.redactText(text).text;
      const twice = redactor.redactText(once);
      t.is(twice.text, once);
      t.deepEqual(twice.rules, {});
    }
});

test("non-ASCII text around a secret survives unchanged", (t) => {
  const { text, secret } = FIXTURES["stripe-key"].positives[1];
  const r = redactor.redactText(`héllo 😀 ${text} ✓ 日本`);
  t.false(r.text.includes(secret));
  t.true(r.text.startsWith("héllo 😀 "));
  t.true(r.text.endsWith(" ✓ 日本"));
});

test("a secret at the end of a megabyte of text is found", (t) => {
  const { text, secret } = FIXTURES["anthropic-key"].positives[0];
  const big = "lorem ipsum dolor sit amet ".repeat(40000) + text;
  const r = redactor.redactText(big);
  t.false(r.text.includes(secret));
  t.is(r.rules["anthropic-key"], 1);
});
