// T15: redaction before the bytes are written — fixtures and 10,000 generated secrets, raw, JSON-escaped, base64 and URL-encoded, as values and keys.
import test from "ava";
import fc from "fast-check";
import { readFileSync } from "node:fs";
import { createSessionLog, readLog } from "../../../host/log/index.js";
import { Redactor } from "../../../host/redact/index.js";
import { FIXTURES } from "../redact/fixtures.js";
import { tempDataDir } from "./helpers.js";

const START = { version: "0.0.0", origin: "t15" };
// Per PR; NODWYN_REDACT_SAMPLES raises it for the nightly run.
const SAMPLES = Number(process.env.NODWYN_REDACT_SAMPLES ?? 10_000);

const alnum = (n: number) => fc.stringMatching(new RegExp(`^[A-Za-z0-9]{${n}}$`));
/** Mixed case and digits, as generated keys are (a plain word is not a key). */
const generated = (n: number) => alnum(n - 3).map((s) => `aQ7${s}`);

/** Per rule: a generator of [text holding the secret, the secret]; the text gives the context some rules need. */
const SHAPES: Record<string, fc.Arbitrary<[string, string]>> = {
  "aws-access-key-id": fc.stringMatching(/^(AKIA|ASIA)[A-Z0-9]{16}$/).map((k) => [`aws_access_key_id = ${k}`, k]),
  "aws-secret-access-key": fc.stringMatching(/^[A-Za-z0-9/+]{40}$/).map((k) => [`aws_secret_access_key=${k}`, k]),
  "gcp-api-key": fc.stringMatching(/^[0-9A-Za-z_-]{35}$/).map((k) => [`key: AIza${k}`, `AIza${k}`]),
  "gcp-oauth": alnum(40).map((k) => [`Bearer-ish ya29.${k}`, `ya29.${k}`]),
  "github-token": fc.tuple(fc.constantFrom("ghp", "gho", "ghu", "ghs", "ghr"), alnum(36)).map(([p, k]) => [`token ${p}_${k} used`, `${p}_${k}`]),
  "gitlab-token": fc.stringMatching(/^[A-Za-z0-9_-]{20}$/).map((k) => [`GL glpat-${k}`, `glpat-${k}`]),
  "slack-token": fc.stringMatching(/^[A-Za-z0-9]{24}$/).map((k) => [`slack xoxb-${k}`, `xoxb-${k}`]),
  "stripe-key": alnum(24).map((k) => [`stripe: sk_live_${k}`, `sk_live_${k}`]),
  "anthropic-key": fc.stringMatching(/^[A-Za-z0-9_-]{40}$/).map((k) => [`x-api sk-ant-${k}`, `sk-ant-${k}`]),
  "openai-key": generated(40).map((k) => [`OPENAI sk-proj-${k}`, k]),
  "npm-token": alnum(36).map((k) => [`//registry/:_authToken=npm_${k}`, `npm_${k}`]),
  "huggingface-token": generated(34).map((k) => [`hf hf_${k}`, `hf_${k}`]),
  "sendgrid-key": fc.tuple(fc.stringMatching(/^[A-Za-z0-9_-]{22}$/), fc.stringMatching(/^[A-Za-z0-9_-]{43}$/)).map(([a, b]) => [`SG.${a}.${b}`, `SG.${a}.${b}`]),
  "digitalocean-token": fc.stringMatching(/^[a-f0-9]{64}$/).map((k) => [`do dop_v1_${k}`, `dop_v1_${k}`]),
  "url-password": generated(16).map((k) => [`postgres://app:${k}@db.internal:5432/prod`, k]),
  "url-token": generated(24).map((k) => [`https://api.example.com/v1?access_token=${k}&x=1`, k]),
  authorization: generated(32).map((k) => [`Authorization: Bearer ${k}`, k]),
  "generic-assignment": generated(24).map((k) => [`export DB_PASSWORD=${k}`, k]),
  "scheme-secret": generated(20).map((k) => [`((user . "ann") (password . "${k}"))`, k]),
  "json-secret": generated(20).map((k) => [`{"client_secret": "${k}"}`, k]),
};

type Variant = "raw" | "json-escaped" | "base64" | "url-encoded";
const VARIANTS: Variant[] = ["raw", "json-escaped", "base64", "url-encoded"];

/** The text as the variant writes it, and the forms of the secret that must not reach the file. */
function variant(v: Variant, text: string, secret: string): { text: string; forms: string[] } {
  switch (v) {
    case "raw":
      return { text, forms: [secret] };
    case "json-escaped": {
      const t = JSON.stringify({ note: `seen: ${text}` });
      return { text: t, forms: [secret, JSON.stringify(secret).slice(1, -1)] };
    }
    case "base64": {
      const t = Buffer.from(`${text}\n`).toString("base64");
      return { text: `data:text/plain;base64,${t}`, forms: [secret, t] };
    }
    case "url-encoded": {
      const t = encodeURIComponent(text);
      return { text: `https://app.example.com/callback?next=${t}`, forms: [secret, encodeURIComponent(secret), t] };
    }
  }
}

/** Puts `s` at a random depth of a JSON value, as a value or as a key. */
function embed(s: string, path: readonly ("obj" | "arr")[], asKey: boolean): unknown {
  let v: unknown = asKey ? { [s]: "as a key" } : s;
  for (const p of [...path].reverse()) v = p === "obj" ? { field: v, other: 1 } : ["x", v, 2];
  return v;
}

test(`${SAMPLES} generated secrets of ${Object.keys(SHAPES).length} rules, in four encodings, as values and keys at random depths: 0 reach the file`, (t) => {
  const dir = tempDataDir(t);
  const redactor = new Redactor();
  const w = createSessionLog("s", START, { dataDir: dir, redactor });
  const rules = Object.keys(SHAPES);
  const sample = fc.sample(
    fc.record({
      rule: fc.constantFrom(...rules),
      variant: fc.constantFrom(...VARIANTS),
      path: fc.array(fc.constantFrom("obj" as const, "arr" as const), { maxLength: 6 }),
      asKey: fc.boolean(),
      seed: fc.integer(),
    }),
    { numRuns: SAMPLES, seed: 20261201 },
  );
  const expect = new Map<number, { forms: string[]; rule: string; variant: Variant }>();
  for (let i = 0; i < sample.length; i += 100) {
    const batch = sample.slice(i, i + 100).map((c) => {
      const [text, secret] = fc.sample(SHAPES[c.rule]!, { numRuns: 1, seed: c.seed })[0]!;
      const v = variant(c.variant, text, secret);
      return { c, v, payload: { text: "generated", data: { output: embed(v.text, c.path, c.asKey) } } };
    });
    const results = w.appendAll(batch.map((b) => ({ kind: "note" as const, payload: b.payload })));
    results.forEach((r, j) => {
      const b = batch[j]!;
      expect.set(r.seq, { forms: b.v.forms, rule: b.c.rule, variant: b.c.variant });
      t.truthy(r.redaction, `${b.c.rule} ${b.c.variant}: nothing was redacted in ${b.v.text.slice(0, 80)}`);
    });
  }
  w.close();
  const lines = readFileSync(w.file, "utf8").split("\n");
  let checked = 0;
  let leaks = 0;
  for (const line of lines) {
    if (line === "") continue;
    const seq = Number(/^\{"seq":(\d+)/.exec(line)![1]);
    const e = expect.get(seq);
    if (e === undefined) continue;
    checked++;
    for (const f of e.forms)
      if (line.includes(f)) {
        leaks++;
        t.fail(`${e.rule} ${e.variant}: ${f.slice(0, 12)}… reached the file`);
      }
  }
  t.is(checked, SAMPLES);
  t.is(leaks, 0);
  // The file is a valid log after it all.
  t.is([...readLog(w.file)].length, 1 + 2 * SAMPLES);
  t.log(`${SAMPLES} secrets written, ${leaks} in the file's bytes`);
});

test("every fixture secret of every rule, in each encoding, never reaches the file; no look-alike is redacted", (t) => {
  const dir = tempDataDir(t);
  const w = createSessionLog("s", START, { dataDir: dir });
  const checks: { seq: number; forms: string[]; name: string }[] = [];
  for (const [rule, f] of Object.entries(FIXTURES)) {
    for (const { text, secret } of f.positives)
      for (const v of VARIANTS) {
        const enc = variant(v, text, secret);
        const r = w.append("note", { text: enc.text });
        checks.push({ seq: r.seq, forms: enc.forms, name: `${rule} ${v}` });
      }
    for (const text of f.negatives) {
      const r = w.append("note", { text });
      t.is(r.redaction, null, `${rule}: the look-alike ${JSON.stringify(text.slice(0, 60))} was redacted`);
    }
  }
  w.close();
  const bySeq = new Map([...readLog(w.file)].map((r) => [r.seq, JSON.stringify(r.payload)]));
  const raw = readFileSync(w.file, "utf8").split("\n");
  for (const c of checks) {
    const line = raw[c.seq - 1] ?? "";
    t.truthy(bySeq.get(c.seq));
    for (const f of c.forms) t.false(line.includes(f), `${c.name}: ${f.slice(0, 16)}… reached the file`);
  }
  t.log(`${checks.length} fixture secrets (${Object.keys(FIXTURES).length} rules × 4 encodings), none in the file`);
});
