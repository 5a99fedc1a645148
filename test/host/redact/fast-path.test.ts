// The redactor's shortcuts (the Set's answer reused by the walk, short strings' rule results
// remembered) give exactly what the full path gives: random text with secrets spliced in.

import test from "ava";
import fc from "fast-check";
import { Redactor } from "../../../host/redact/index.js";
import { FIXTURES } from "./fixtures.js";

/** A Redactor with every shortcut of rules() off: each string goes through the Set and the patterns. */
function fullPath(): Redactor {
  const r = new Redactor();
  const raw = r as unknown as { rules: unknown; applyRules: (s: string, c: Map<string, number>) => string };
  raw.rules = function (this: typeof raw, s: string, c: Map<string, number>) {
    return this.applyRules(s, c);
  };
  return r;
}

const SECRETS = Object.values(FIXTURES).flatMap((f) => f.positives.map((p) => p.text));
const NEGATIVES = Object.values(FIXTURES).flatMap((f) => f.negatives);
const PIECES = [
  ...SECRETS,
  ...NEGATIVES,
  "\n", " ", '"', "'", "=", ":", "(", ")", "token", "password", "key", "%41", "aGVsbG8gd29ybGQgdGhpcyBpcyB0ZXh0", "node_modules/some/long/path/name",
];

// Text: random characters and fixture pieces (true secrets and look-alikes) at random places.
const text = fc
  .array(fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom(...PIECES), fc.string({ unit: "grapheme", maxLength: 4 })), { maxLength: 24 })
  .map((parts) => parts.join(""));

const value = fc.oneof(
  text.map((t) => ({ output: t })),
  fc.array(text, { maxLength: 5 }),
  fc.dictionary(fc.oneof(fc.constantFrom("password", "token", "name", "api_key", "note"), fc.string({ maxLength: 8 })), text, { maxKeys: 5 }),
  text.map((t) => JSON.stringify({ password: t, other: t })),
);

test("redactJSON with its shortcuts equals the full path, value and report", (t) => {
  const fast = new Redactor(); // one instance throughout, so remembered short strings are reused
  const full = fullPath();
  fast.registerSecret("host-registered-secret-1234");
  full.registerSecret("host-registered-secret-1234");
  fc.assert(
    fc.property(value, (v) => {
      const a = fast.redactJSON(v);
      const b = full.redactJSON(v);
      t.deepEqual(a.value, b.value);
      t.deepEqual(a.report, b.report);
      // The same value twice: the remembered strings give the same again.
      t.deepEqual(fast.redactJSON(v), b);
    }),
    { numRuns: 2000 },
  );
});

test("redactText with its shortcuts equals the full path on every fixture, twice over", (t) => {
  const fast = new Redactor();
  const full = fullPath();
  for (const s of [...SECRETS, ...NEGATIVES, ...SECRETS]) t.deepEqual(fast.redactText(s), full.redactText(s));
  // A secret found in a short string counts again each time the string is seen.
  const short = FIXTURES["github-token"].positives[0].text;
  t.true(short.length <= 64);
  const once = fast.redactText(short).rules;
  t.deepEqual(fast.redactText(short).rules, once);
  t.true(Object.values(once).reduce((a, b) => a + b, 0) >= 1);
});
