// index-search and index-update as table entries in a real session: results in SRFI 180's mapping, rendering, errors, the log.
import test from "ava";
import { writeToString, Condition, type Outcome } from "../../../interpreter/api.js";
import { Session, AGENT_NAMES } from "../../../host/session/session.js";
import { toolArgName, type AgentToolSpec } from "../../../primitives/agent/index.js";
import { sessionRecords } from "../../helpers/cli.js";
import { makeRepo } from "../../host/index/repo.js";

const quiet = { write: () => {} };

async function open(t: { teardown(fn: () => void): void }, files: Record<string, string>) {
  const repo = makeRepo(files);
  const session = await Session.open({ origin: "test", cwd: repo.root, env: { ...process.env, NODWYN_DATA_DIR: repo.dataDir }, actor: "model", stdout: quiet, stderr: quiet });
  t.teardown(() => {
    session.close();
    repo.cleanup();
  });
  const run = async (src: string): Promise<Outcome> => session.evaluate(`(import (nodwyn agent)) ${src}`);
  const value = async (src: string): Promise<string> => {
    const out = await run(src);
    if (!out.ok) throw new Error(`raised: ${String((out.condition as Condition | undefined)?.message ?? out.error)}`);
    return writeToString(out.value, "write");
  };
  const spec = (name: string) => session.interp.lookup(name)?.data as AgentToolSpec;
  return { repo, session, run, value, spec };
}

const FILES = {
  "src/server.ts": "export function startHttpServer(port) {\n  listen(port);\n}\n",
  "docs/guide.md": "# Deploying\n\nStart the HTTP server with the deploy script.\n",
};

test("index-search returns the hits in SRFI 180's mapping, with what the refresh did", async (t) => {
  const { value } = await open(t, FILES);
  const v = await value('(index-search "HTTPServer" "repo")');
  t.regex(v, /^\(\(hits \. #\(\(\(path \. "src\/server\.ts"\) \(start \. 1\) \(end \. 3\) \(first \. "export function startHttpServer\(port\) \{"\) \(lines \. #\(\(\(line \. 1\) \(text \. "export function startHttpServer\(port\) \{"\)\)\)\) \(score \. [0-9.]+\)\)/);
  t.regex(v, /\(partial \. #f\) \(refresh \(files \. 2\) \(read \. 2\) \(removed \. 0\) \(skipped \. 0\) \(refused \. #\(\)\) \(left \. 0\) \(more \. #f\) \(busy \. #f\)\) \(dropped \. #\(\)\)\)$/);
  // The path filter and the limit.
  t.regex(await value('(index-search "server" "repo" 1 "docs")'), /^\(\(hits \. #\(\(\(path \. "docs\/guide\.md"\)/);
  t.is(await value('(vector-length (cdr (assq (quote hits) (index-search "server" "repo" 1))))'), "1");
});

test("an unknown scope, a bad limit and a bad argument type are clear errors naming the argument", async (t) => {
  const { run } = await open(t, FILES);
  const bad = async (src: string): Promise<Condition> => {
    const out = await run(src);
    t.false(out.ok, src);
    return (out as { condition: Condition }).condition;
  };
  const scope = await bad('(index-search "x" "everywhere")');
  t.is(scope.kind, "range");
  t.regex(scope.message, /bad argument #2 to 'index-search' \(unknown scope "everywhere": the scopes are "repo", "conversation", "earlier"\)/);
  t.regex((await bad('(index-search "x" "repo" 500)')).message, /bad argument #3 to 'index-search' \(limit must be 1 to 100\)/);
  t.regex((await bad('(index-search "x" "repo" 0)')).message, /bad argument #3 to 'index-search'/);
  t.regex((await bad('(index-search (quote x) "repo")')).message, /bad argument #1 to 'index-search' \(string expected/);
  t.regex((await bad('(index-update 7)')).message, /bad argument #1 to 'index-update'/);
  const missing = await bad('(index-update "no/such/dir")');
  t.is(missing.kind, "file");
});

test("the model tools: argument names match the params; the scope is an enum; render shows path:a-b and the lines", async (t) => {
  const { spec, session } = await open(t, FILES);
  t.true(AGENT_NAMES.includes("index-search" as never) && AGENT_NAMES.includes("index-update" as never));
  const s = spec("index-search");
  const props = (s.tool.inputSchema as { properties: Record<string, { enum?: string[] }> }).properties;
  t.deepEqual(Object.keys(props), s.params.map(toolArgName));
  t.deepEqual(props.scope?.enum, ["repo", "conversation", "earlier"]);
  const u = spec("index-update");
  t.deepEqual(Object.keys((u.tool.inputSchema as { properties: object }).properties), u.params.map(toolArgName));
  const out = await session.evaluate('(import (nodwyn agent)) (index-search "deploy server" "repo")');
  t.true(out.ok);
  const text = s.render((out as { value: unknown }).value);
  t.regex(text, /^docs\/guide\.md:1-3: # Deploying\n {2}3: Start the HTTP server with the deploy script\.\n/);
  t.regex(text, /\[2 hits; refreshed: read 2, removed 0\]$/);
  const upd = await session.evaluate("(import (nodwyn agent)) (index-update)");
  t.true(upd.ok);
  t.regex(u.render((upd as { value: unknown }).value), /^\[index: 2 files held; read 0, removed 0, skipped 0\]$/);
});

test("the session log: each file's guard.decision as actor index, and index.update records with every field", async (t) => {
  const { value, repo } = await open(t, FILES);
  await value('(index-search "deploy" "repo")');
  await value("(index-update)");
  const recs = sessionRecords(repo.dataDir);
  const decisions = recs.filter((r) => r.kind === "guard.decision" && r.payload.actor === "index");
  t.deepEqual(decisions.map((d) => d.payload.path).sort(), ["docs/guide.md", "src/server.ts"]);
  // The hits were read again as the model (the caller).
  t.true(recs.some((r) => r.kind === "guard.decision" && r.payload.actor === "model" && r.payload.path === "docs/guide.md"));
  const updates = recs.filter((r) => r.kind === "index.update");
  t.is(updates.length, 2, "the first search's build, and the index-update call");
  for (const u of updates) t.deepEqual(Object.keys(u.payload).sort(), ["elapsed_ms", "files", "left", "more", "read", "refused", "removed", "root", "skipped"]);
  t.is(updates[0].payload.read, 2);
  t.is(updates[1].payload.read, 0);
  t.is(updates[1].payload.root, repo.root);
  t.false(JSON.stringify(updates).includes("Deploying"), "never content");
});
