// A server's key: read from key_env only, registered with the redactor, described by class and id for cred.register.

import test from "ava";
import { credentialRecord, readKey, ModelError, type HttpProviderSpec } from "../../../host/model/index.js";
import { Redactor } from "../../../host/redact/index.js";

const spec: HttpProviderSpec = { kind: "openai", server: "cloud", url: "https://api.openai.com/v1", model: "m", keyEnv: "MY_KEY" };

test("the key is read from its variable, registered as a secret, and described without its value", (t) => {
  const r = new Redactor();
  const got = readKey(spec, { MY_KEY: "  abc123secretvalue\n" }, r);
  t.deepEqual(got, { key: "abc123secretvalue", credential: { class: "api_key", id: "env:MY_KEY" } });
  t.is(r.redactText("x abc123secretvalue y").text, "x [REDACTED:host-secret] y");
  t.false(JSON.stringify(got!.credential).includes("abc123"));
});

test("no key_env: no key and nothing to record", (t) => {
  const { keyEnv: _, ...none } = spec;
  t.is(readKey(none, { MY_KEY: "whatever-value" }, new Redactor()), undefined);
  t.is(credentialRecord({}), undefined);
  t.deepEqual(credentialRecord(spec), { class: "api_key", id: "env:MY_KEY" });
});

test("an unset, empty or too-short variable is a config error naming the variable, never a value", (t) => {
  const cases: [Record<string, string>, RegExp][] = [
    [{}, /the environment variable MY_KEY \(its key_env\) is not set/],
    [{ MY_KEY: "   " }, /MY_KEY \(its key_env\) is empty/],
    [{ MY_KEY: "ab" }, /MY_KEY holds 2 characters, too short to be a key/],
  ];
  for (const [env, re] of cases) {
    const e = t.throws(() => readKey(spec, env, new Redactor()), { instanceOf: ModelError });
    t.is(e!.code, "config");
    t.is(e!.server, "cloud");
    t.regex(e!.message, re);
  }
  const e = t.throws(() => readKey(spec, { MY_KEY: "ab" }, new Redactor()));
  t.false(e!.message.includes('"ab"'));
});
