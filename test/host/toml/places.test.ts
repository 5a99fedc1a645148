// Where TOML keys are: headers, dotted and quoted keys, inline tables, arrays and arrays of tables, strings that look like structure.

import test from "ava";
import fc from "fast-check";
import { stringify } from "smol-toml";
import { checkTable, formatKeyPath, parseToml, tomlPlaces, TomlSyntaxError, type Schema } from "../../../host/toml/index.js";

test("keys under table headers, and the headers themselves", (t) => {
  const p = tomlPlaces(`title = "x"\n\n[servers.local]\nkind = "ollama"\n  url = "http://h"\n`);
  t.deepEqual(p.exact(["title"]), { line: 1, col: 1 });
  t.deepEqual(p.exact(["servers", "local"]), { line: 3, col: 1 });
  t.deepEqual(p.exact(["servers", "local", "kind"]), { line: 4, col: 1 });
  t.deepEqual(p.exact(["servers", "local", "url"]), { line: 5, col: 3 });
});

test("dotted, quoted and spaced keys", (t) => {
  const p = tomlPlaces(`servers.local.kind = "openai"\n"my.server" . 'url' = "u"\n[ servers . "a b" ]\nx=1\n`);
  t.deepEqual(p.exact(["servers", "local", "kind"]), { line: 1, col: 1 });
  t.deepEqual(p.exact(["servers", "local"]), { line: 1, col: 1 });
  t.deepEqual(p.exact(["my.server", "url"]), { line: 2, col: 1 });
  t.deepEqual(p.exact(["servers", "a b", "x"]), { line: 4, col: 1 });
});

test("inline tables and arrays number their elements", (t) => {
  const p = tomlPlaces(`a = { b = 1, c = { d = "x" } }\nlist = [\n  "one", # a comment ]\n  { name = "n" },\n]\n`);
  t.deepEqual(p.exact(["a", "b"]), { line: 1, col: 7 });
  t.deepEqual(p.exact(["a", "c", "d"]), { line: 1, col: 20 });
  t.deepEqual(p.exact(["list", 0]), { line: 3, col: 3 });
  t.deepEqual(p.exact(["list", 1, "name"]), { line: 4, col: 5 });
});

test("arrays of tables: each [[x]] is the next element, and a nested [[x.y]] belongs to the last", (t) => {
  const p = tomlPlaces(`[[reply]]\ntext = "a"\n[[reply.tool_calls]]\nname = "f"\n[[reply.tool_calls]]\nname = "g"\n\n[[reply]]\ntext = "b"\n[[reply.tool_calls]]\nname = "h"\n`);
  t.deepEqual(p.exact(["reply", 0]), { line: 1, col: 1 });
  t.deepEqual(p.exact(["reply", 0, "tool_calls", 1, "name"]), { line: 6, col: 1 });
  t.deepEqual(p.exact(["reply", 1, "text"]), { line: 9, col: 1 });
  t.deepEqual(p.exact(["reply", 1, "tool_calls", 0, "name"]), { line: 11, col: 1 });
});

test("strings holding brackets, quotes, # and newlines are not structure", (t) => {
  const text = [
    `a = "[not] # a = table"`,
    `b = 'c:\\path [x]'`,
    `c = """`,
    `[fake]`,
    `d = 1 ""quoted"" \\" end"""`,
    `e = '''`,
    `[also.fake] x = 1`,
    `'''`,
    `f = "\\u0041\\"[" # ]`,
    `g = 2`,
  ].join("\n");
  const doc = parseToml(text);
  t.is(doc.value.g, 2);
  t.deepEqual(doc.places.exact(["g"]), { line: 10, col: 1 });
  t.is(doc.places.exact(["fake"]), undefined);
  t.is(doc.places.exact(["d"]), undefined);
});

test("of() falls back to the nearest enclosing key", (t) => {
  const p = tomlPlaces(`[models.small]\nserver = "x"\n`);
  t.deepEqual(p.of(["models", "small", "nope"]), { line: 1, col: 1 });
  t.deepEqual(p.of(["elsewhere"]), { line: 1, col: 1 });
});

test("a syntax error gives smol-toml's line and column and its first line", (t) => {
  const e = t.throws(() => parseToml(`a = 1\na = 2\n`), { instanceOf: TomlSyntaxError });
  t.is(e!.line, 2);
  t.is(e!.col, 1);
  t.regex(e!.detail, /redefine/);
});

test("formatKeyPath writes keys as TOML does", (t) => {
  t.is(formatKeyPath(["servers", "local", "url"]), "servers.local.url");
  t.is(formatKeyPath(["servers", "my server"]), 'servers."my server"');
  t.is(formatKeyPath(["reply", 2, "tool_calls", 0, "name"]), "reply[2].tool_calls[0].name");
});

const SCHEMA: Schema = {
  name: { type: "string", required: true, doc: "a name" },
  n: { type: "integer", min: 1, doc: "a count" },
  kind: { type: "string", enum: ["a", "b"], doc: "a kind" },
  list: { type: "strings", doc: "strings" },
  sub: { type: "table", doc: "a table", fields: { x: { type: "boolean", doc: "x" } } },
};

test("checkTable: unknown keys, wrong types, bad values and missing keys, each at its place, in the file's order", (t) => {
  const text = `n = 1.5\nkind = "c"\nlist = ["a", 2]\n[sub]\nx = "yes"\ny = 1\n`;
  const doc = parseToml(text);
  const problems = checkTable(doc.value, SCHEMA, doc.places);
  t.deepEqual(
    problems.map((p) => [p.code, formatKeyPath(p.path), p.place.line, p.place.col]),
    [
      ["type", "n", 1, 1],
      ["missing", "name", 1, 1],
      ["value", "kind", 2, 1],
      ["type", "list[1]", 3, 14],
      ["type", "sub.x", 5, 1],
      ["unknown-key", "sub.y", 6, 1],
    ],
  );
  t.regex(problems[0]!.message, /n must be an integer, got a float \(1\.5\)/);
  t.regex(problems[5]!.message, /unknown key y in \[sub\] \(known keys: x\)/);
});

// Any document smol-toml writes: every key path of the parsed value has a place, on a line that names the key.
test("property: the scanner finds every key of generated documents", (t) => {
  const key = fc.oneof(fc.stringMatching(/^[a-z][a-z0-9_-]{0,6}$/), fc.string({ minLength: 1, maxLength: 6 }));
  const scalar = fc.oneof(fc.string({ maxLength: 12 }), fc.integer(), fc.boolean(), fc.double({ noNaN: true, noDefaultInfinity: true }));
  const value = fc.letrec((tie) => ({
    v: fc.oneof({ depthSize: "small" }, scalar, fc.array(tie("v"), { maxLength: 3 }), fc.dictionary(key, tie("v"), { maxKeys: 3 })),
  })).v;
  fc.assert(
    fc.property(fc.dictionary(key, value, { minKeys: 1, maxKeys: 5 }), (obj) => {
      const text = stringify(obj);
      const doc = parseToml(text);
      const lines = text.split("\n");
      const walk = (v: unknown, path: (string | number)[]): void => {
        if (Array.isArray(v)) v.forEach((e, i) => walk(e, [...path, i]));
        else if (v !== null && typeof v === "object")
          for (const [k, e] of Object.entries(v)) {
            const p = doc.places.exact([...path, k]);
            t.truthy(p, `no place for ${formatKeyPath([...path, k])} in\n${text}`);
            if (p) t.true((lines[p.line - 1] ?? "").length >= p.col - 1);
            walk(e, [...path, k]);
          }
      };
      walk(doc.value, []);
    }),
    { numRuns: 150 },
  );
});
