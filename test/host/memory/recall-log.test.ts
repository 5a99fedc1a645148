// recall-log, recall-entry and recall-search over real sessions: LIKE's wildcards and case, every keyword, the header and paging, undone turns, forks, every session of the repository.
import test, { type ExecutionContext } from "ava";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeToString } from "../../../interpreter/api.js";
import { AgentSession } from "../../../host/session/agent.js";
import { ConversationMemory, likeFragment } from "../../../host/memory/index.js";
import { keywordName } from "../../../primitives/agent/index.js";
import { Sym, Keyword } from "../../../interpreter/api.js";
import { FakeModel, type FakeReply } from "../../helpers/fake-model.js";
import { fakeAgent, gitRepo, records } from "../session/agent-helpers.js";

async function evalIn(agent: AgentSession, code: string): Promise<string> {
  const out = await agent.session.evaluate(code, { file: "<test>" });
  if (!out.ok) throw new Error(`${code}: ${String((out as any).error?.message ?? (out as any).error)}`);
  return writeToString(out.value);
}

async function evalError(agent: AgentSession, code: string): Promise<string> {
  const out = await agent.session.evaluate(code, { file: "<test>" });
  if (out.ok) throw new Error(`${code} did not fail: ${writeToString(out.value)}`);
  const e: any = (out as any).error;
  return String(e?.message ?? e?.condition?.message ?? e);
}

/** A session of five turns: a deploy message, a tool call and its result, accented text, and numbered items. */
async function fiveTurns(t: ExecutionContext, more: FakeReply[] = []) {
  const root = gitRepo(t, { "a.txt": "alpha\n" });
  const replies: FakeReply[] = [
    { calls: [{ name: "eval", args: { code: "(string-append \"depl\" \"oyed\")" } }] },
    { text: "Ran the STAGING deploy script." },
    { text: "Noted: café au lait, 100% sure." },
    { text: "item one done" },
    { text: "item two done" },
    { text: "item three done" },
    ...more,
  ];
  const f = fakeAgent(t, root, replies);
  const agent = await f.open();
  t.teardown(() => agent.close());
  await agent.turn("Deploy the staging script, please");
  await agent.turn("Write CAFÉ and 100 percent");
  await agent.turn("item 1");
  await agent.turn("item 2");
  await agent.turn("item 3");
  return { ...f, agent };
}

test("LIKE over the raw payload: anywhere in it, % and _ as wildcards, ASCII case ignored and only ASCII", async (t) => {
  const { agent, data } = await fiveTurns(t);
  const recs = records(data);
  const msg = recs.find((r) => r.kind === "user.msg" && r.payload.text.startsWith("Deploy"));
  // Upper case in the pattern, lower in the text; and the other way round.
  t.regex(await evalIn(agent, '(recall-log :match "STAGING" :kinds "user.msg")'), new RegExp(`^\\(\\(#:seq ${msg.seq} `));
  const staging = await evalIn(agent, '(recall-log :match "staging")');
  t.is((staging.match(/#:seq/g) ?? []).length, 2, staging); // the message and the reply
  // _ is one character, % any run.
  t.true((await evalIn(agent, '(recall-log :match "dep_oy the")')).includes("Deploy the staging"));
  t.is(await evalIn(agent, '(recall-log :match "dep__oy the")'), "()");
  t.true((await evalIn(agent, '(recall-log :match "deploy%script, please")')).includes(`#:seq ${msg.seq}`));
  // Non-ASCII letters are not folded: É matches É only.
  t.true((await evalIn(agent, '(recall-log :match "CAFÉ")')).includes("Write CAFÉ"));
  const cafe = await evalIn(agent, '(recall-log :match "café")');
  t.false(cafe.includes("Write CAFÉ"), cafe);
  t.true(cafe.includes("café au lait"));
  // The raw payload is JSON text: the kind, the envelope and the crc are not in it; a quote reads \".
  t.is(await evalIn(agent, '(recall-log :match "crc")'), "()");
  t.is(await evalIn(agent, '(recall-log :match "%user.msg%" :kinds "user.msg")'), "()");
  t.true((await evalIn(agent, '(recall-log :match "\\\\\\"depl\\\\\\"" :kinds "tool.call")')).includes("string-append"));
});

test("each keyword: :kinds, :before, :after, :limit with the (:matched N :showing M) header and paging, :clip, :duration-ms", async (t) => {
  const { agent, data } = await fiveTurns(t);
  const recs = records(data);
  const items = recs.filter((r) => r.kind === "user.msg" && r.payload.text.startsWith("item"));
  t.is(items.length, 3);
  // The newest two of three, oldest first, under the header.
  const page1 = await evalIn(agent, '(recall-log :match "item _" :kinds (quote ("user.msg")) :limit 2)');
  t.is(page1, `((#:matched 3 #:showing 2) (#:seq ${items[1].seq} #:at "${items[1].ts}" #:kind "user.msg" #:body "item 2") (#:seq ${items[2].seq} #:at "${items[2].ts}" #:kind "user.msg" #:body "item 3"))`);
  // Paging older with :before set to the oldest seq returned.
  const page2 = await evalIn(agent, `(recall-log :match "item _" :kinds 'user.msg :limit 2 :before ${items[1].seq})`);
  t.is(page2, `((#:seq ${items[0].seq} #:at "${items[0].ts}" #:kind "user.msg" #:body "item 1"))`);
  t.is(await evalIn(agent, `(recall-log :match "item%" :kinds "user.msg" :after ${items[1].seq})`), `((#:seq ${items[2].seq} #:at "${items[2].ts}" #:kind "user.msg" #:body "item 3"))`);
  t.is(await evalIn(agent, `(length (recall-log :match "item%" :kinds "user.msg" :after ${items[0].seq} :before ${items[2].seq}))`), "1");
  // :clip keeps that many characters of a body.
  t.regex(await evalIn(agent, '(recall-log :match "Deploy%" :kinds "user.msg" :clip 6)'), /#:body "Deploy"\)\)$/);
  // A tool result carries its duration; a tool call reads as NAME ARGS.
  const res = recs.find((r) => r.kind === "tool.result");
  t.is(await evalIn(agent, `(list-ref (car (recall-log :kinds "tool.result")) 8)`), "#:duration-ms");
  t.is(await evalIn(agent, `(list-ref (car (recall-log :kinds "tool.result")) 9)`), String(res.payload.duration_ms));
  t.is(await evalIn(agent, '(list-ref (car (recall-log :kinds "tool.call")) 7)'), '"eval {\\"code\\":\\"(string-append \\\\\\"depl\\\\\\" \\\\\\"oyed\\\\\\")\\"}"');
  // Default kinds: input, answers, calls, results; other kinds by name.
  const all = await evalIn(agent, "(recall-log :limit 1000)");
  const want = recs.filter((r) => ["user.msg", "llm.resp", "tool.call", "tool.result"].includes(r.kind)).length;
  t.is((all.match(/#:seq/g) ?? []).length, want);
  t.false(all.includes("#:matched"));
  t.is(await evalIn(agent, '(length (recall-log :kinds "turn.end"))'), "5");
  // Default limit 20: the header counts them all.
  const more = recs.filter((r) => ["user.msg", "llm.resp", "tool.call", "tool.result", "llm.req", "turn.end"].includes(r.kind)).length;
  t.true(more > 20);
  const wide = await evalIn(agent, "(recall-log :kinds '(user.msg llm.resp tool.call tool.result llm.req turn.end))");
  t.regex(wide, new RegExp(`^\\(\\(#:matched ${more} #:showing 20\\) `));
  t.is((wide.match(/#:seq/g) ?? []).length, 20);
  t.is(await evalIn(agent, "(car (recall-log :limit 5))"), `(#:matched ${want} #:showing 5)`);
});

test("bad keyword arguments are errors that name the option", async (t) => {
  const { agent } = await fiveTurns(t);
  t.regex(await evalError(agent, '(recall-log :matc "x")'), /unknown option :matc \(the options are :match, :kinds/);
  t.regex(await evalError(agent, "(recall-log :limit)"), /the option :limit has no value/);
  t.regex(await evalError(agent, '(recall-log :limit "5")'), /:limit takes a exact positive integer/);
  t.regex(await evalError(agent, '(recall-log "x")'), /expected a keyword option/);
  t.regex(await evalError(agent, '(recall-log :kinds "tool.reslt")'), /"tool.reslt" is not a kind of the log/);
  t.regex(await evalError(agent, '(recall-log :limit 1 :limit 2)'), /given twice/);
  t.regex(await evalError(agent, '(recall-log :session-id "nope")'), /there is no session nope/);
  t.regex(await evalError(agent, '(recall-search "")'), /the query is empty/);
  t.regex(await evalError(agent, '(recall-search "   ")'), /the query is empty/);
});

test("keywordName: a keyword, #:name, or a symbol spelt :name (should the reader make :name an identifier)", (t) => {
  t.is(keywordName(new Keyword("match")), "match");
  t.is(keywordName(new Sym(":match")), "match");
  t.is(keywordName(new Sym("match")), null);
  t.is(keywordName(new Sym(":")), null);
});

test("likeFragment: a pattern cannot backtrack (RE2) and escapes what a regular expression would read", (t) => {
  t.is(likeFragment("a.b"), "[aA]\\.[bB]");
  t.is(likeFragment("1%_"), "1[^\\n]*?[^\\n]");
  t.is(likeFragment("1%_", true), "1%_");
});

test("recall-entry: one record whole by its seq; '() when no record has that number", async (t) => {
  const { agent, data } = await fiveTurns(t);
  const recs = records(data);
  const reply = recs.find((r) => r.kind === "llm.resp" && r.payload.text === "Ran the STAGING deploy script.");
  t.is(await evalIn(agent, `(recall-entry ${reply.seq})`), `(#:seq ${reply.seq} #:at "${reply.ts}" #:kind "llm.resp" #:body "Ran the STAGING deploy script.")`);
  t.is(await evalIn(agent, "(recall-entry 999999)"), "()");
  // Any record, not only events: session.start's payload, indented.
  t.regex(await evalIn(agent, "(recall-entry 1)"), /#:kind "session.start" #:body "\{\\n  \\"version\\"/);
  // No clip: a body recall-log clips comes back whole.
  const res = recs.find((r) => r.kind === "tool.result");
  const clipped = await evalIn(agent, `(string-length (list-ref (car (recall-log :kinds "tool.result" :clip 3)) 7))`);
  t.is(clipped, "3");
  const whole = await evalIn(agent, `(list-ref (recall-entry ${res.seq}) 7)`);
  t.is(whole, JSON.stringify(res.payload.output));
});

test("undone turns are scanned; in a fork, the parent's turns the fork did not copy are too, with :session-id", async (t) => {
  const root = gitRepo(t, { "a.txt": "alpha\n" });
  const f = fakeAgent(t, root, [{ text: "kept answer" }, { text: "the zebra plan, abandoned" }, { text: "third answer" }]);
  const agent = await f.open();
  await agent.turn("first: keep this");
  await agent.turn("second: a zebra idea");
  await agent.undo();
  await agent.turn("third: after the undo");
  // The window no longer shows the undone turn, but recall-log finds it.
  const undone = await evalIn(agent, '(recall-log :match "%zebra%")');
  t.is((undone.match(/#:seq/g) ?? []).length, 2, undone);
  t.false(undone.includes("#:session-id"));
  const fork = agent.fork();
  const parent = agent.id;
  agent.close();
  const parentRecs = records(f.data, parent);
  const zebra = parentRecs.find((r) => r.kind === "user.msg" && r.payload.text.includes("zebra"));
  // The fork's own log holds turns 1 and 3 (copied) and not the undone one.
  const forkRecs = records(f.data, fork.session);
  t.false(forkRecs.some((r) => JSON.stringify(r.payload).includes("zebra")));
  const mem = new ConversationMemory({ dataDir: f.data, session: fork.session, root, env: { NODWYN_DATA_DIR: f.data }, capChars: () => 32000 });
  const q = { match: "%zebra%", kinds: ["user.msg", "llm.resp"], before: null, after: null, limit: 20, clip: 200, session: null };
  const r = mem.recallLog(q);
  t.is(r.matched, 2);
  t.deepEqual(r.rows.map((x) => [x.seq, x.session]), [
    [zebra.seq, parent],
    [zebra.seq + 2, parent],
  ]);
  // The copied turns come once, as the fork's own rows (no session-id).
  const kept = mem.recallLog({ ...q, match: "%keep this%" });
  t.is(kept.matched, 1);
  t.is(kept.rows[0]!.session, undefined);
  t.is(kept.rows[0]!.seq, forkRecs.find((x) => x.kind === "user.msg" && x.payload.text === "first: keep this").seq);
  // :after leaves the parent's rows out (they are older than any of the fork's).
  t.is(mem.recallLog({ ...q, after: 0 }).matched, 0);
  // Through the resumed fork's interpreter, with the row's session-id to read it whole.
  const p2 = new FakeModel([]);
  const forked = await AgentSession.open({ ...f.opts, provider: p2, resume: fork.session });
  t.teardown(() => forked.close());
  const rows = await evalIn(forked, '(recall-log :match "second:%")');
  t.true(rows.includes(`#:session-id "${parent}"`), rows);
  t.is(await evalIn(forked, `(recall-entry ${zebra.seq} :session-id "${parent}")`), `(#:seq ${zebra.seq} #:at "${zebra.ts}" #:kind "user.msg" #:body "second: a zebra idea")`);
});

test("recall-search: every session of the repository, every word, literal % and _, newest first with :session-id :title :seq :text", async (t) => {
  const root = gitRepo(t, { "a.txt": "alpha\n" });
  const f = fakeAgent(t, root, [{ text: "the deploy script lives in ops/" }]);
  const a = await f.open();
  await a.turn("Where is the DEPLOY script?");
  a.setTitle("deploy questions");
  a.close();
  // The person's config directory, outside the repository: the earlier-tasks leave (ADR 0038) is written there below.
  const config = mkdtempSync(join(tmpdir(), "nodwyn-recall-config-"));
  t.teardown(() => rmSync(config, { recursive: true, force: true }));
  const b = await AgentSession.open({ ...f.opts, env: { ...f.opts.env, XDG_CONFIG_HOME: config }, provider: new FakeModel([{ text: "script ready; 100 percent" }, { text: "done at 100% of the budget; deploy_now ran" }, { calls: [{ name: "recall-search", args: { query: "ops/" } }] }, { text: "not here" }]) });
  t.teardown(() => b.close());
  await b.turn("write the script");
  await b.turn("deploy it now");
  // Without the leave, only this session: a's rows are not found, and the answer's first (only) element says that
  // one other task was left out, why, and how the person allows it; reading a by its id is refused.
  t.is(await evalIn(b, '(length (recall-search "ops/"))'), "1");
  t.is(await evalIn(b, '(list-ref (car (recall-search "ops/")) 1)'), "1");
  const why = await evalIn(b, '(list-ref (car (recall-search "ops/")) 3)');
  t.regex(why, /^"searching earlier tasks is off \(there is no workspaces\.toml\): the person can allow it in workspaces\.toml/);
  t.regex(why, /earlier_tasks = true/);
  // b's own rows still come, after the note: "script" is in b's first message.
  t.is(await evalIn(b, '(length (recall-search "script" :kinds "user.msg"))'), "2");
  t.is(await evalIn(b, '(list-ref (cadr (recall-search "script" :kinds "user.msg")) 1)'), JSON.stringify(b.id));
  // The model tool's answer says the same in a line before the (here no) rows.
  await b.turn("search for the folder");
  const out = records(f.data, b.id).filter((r) => r.kind === "tool.result").at(-1).payload.output;
  t.regex(out, /^\[1 other task of this repository not searched: searching earlier tasks is off \(there is no workspaces\.toml\): the person can allow it /);
  t.regex(out, /\]\n\[no event holds every word\]$/);
  t.regex(await evalError(b, `(recall-log :match "ops/" :session-id "${a.id}")`), /earlier tasks is off/);
  t.regex(await evalError(b, `(recall-entry 1 :session-id "${a.id}")`), /earlier tasks is off/);
  mkdirSync(join(config, "nodwyn"), { recursive: true });
  writeFileSync(join(config, "nodwyn", "workspaces.toml"), `[[workspace]]\npath = ${JSON.stringify(root)}\nearlier_tasks = true\n`);
  // With it (read again at the next call): every session of the repository, and a by its id.
  t.is(await evalIn(b, `(length (recall-log :match "ops/" :session-id "${a.id}"))`), "1");
  // Both words, any order, in each row; both sessions; newest first.
  const rows = await evalIn(b, '(map (lambda (r) (list-ref r 5)) (recall-search "script deploy"))');
  const aRecs = records(f.data, a.id);
  const aMsg = aRecs.find((r) => r.kind === "user.msg");
  const aReply = aRecs.find((r) => r.kind === "llm.resp" && r.payload.text?.includes("ops/"));
  t.is(rows, `(${aReply.seq} ${aMsg.seq})`);
  // "deploy" alone: b's message and reply too, newest first.
  const deploy = await evalIn(b, '(map (lambda (r) (list (list-ref r 1) (list-ref r 5))) (recall-search "deploy"))');
  const bRecs = records(f.data, b.id);
  const bDeploy = bRecs.filter((r) => (r.kind === "user.msg" || r.kind === "llm.resp") && JSON.stringify(r.payload).toLowerCase().includes("deploy"));
  t.is(deploy, `(${[...bDeploy].reverse().map((r) => `("${b.id}" ${r.seq})`).join(" ")} ("${a.id}" ${aReply.seq}) ("${a.id}" ${aMsg.seq}))`);
  // % and _ are literal: "100%" is only the row that says it; "deploy_now" does not match "deploy now".
  const pct = await evalIn(b, '(map (lambda (r) (list-ref r 11)) (recall-search "100%"))');
  t.is(pct, '("done at 100% of the budget; deploy_now ran")');
  t.is(await evalIn(b, '(length (recall-search "deploy_now"))'), "1");
  t.is(await evalIn(b, '(length (recall-search "deplo_"))'), "0");
  // :title, :window and :lead, :limit, :kinds.
  const first = await evalIn(b, '(car (recall-search "ops/" :window 10 :lead 4))');
  t.is(first, `(#:session-id "${a.id}" #:title "deploy questions" #:seq ${aReply.seq} #:kind "llm.resp" #:at "${aReply.ts}" #:text " in ops/")`);
  t.is(await evalIn(b, '(length (recall-search "deploy" :limit 2))'), "2");
  t.is(await evalIn(b, '(length (recall-search "deploy" :kinds "user.msg"))'), "2");
  // Another repository's sessions, in the same data directory, are not searched.
  const other = gitRepo(t, { "b.txt": "beta\n" });
  const c = await AgentSession.open({ ...f.opts, cwd: other, provider: new FakeModel([{ text: "deploy_now elsewhere" }]) });
  await c.turn("deploy_now in another repository");
  c.close();
  t.is(await evalIn(b, '(length (recall-search "deploy_now"))'), "1");
  // An untitled session's title is its first message.
  t.is(await evalIn(b, '(list-ref (car (recall-search "deploy_now")) 3)'), '"write the script"');
});

test("the recall forms are model tools: keyword arguments from the call's JSON", async (t) => {
  const root = gitRepo(t, { "a.txt": "alpha\n" });
  const f = fakeAgent(t, root, [
    { text: "noted" },
    { calls: [{ name: "recall-log", args: { match: "%launch code%", kinds: ["user.msg"], limit: 1 } }] },
    { calls: [{ name: "recall-search", args: { query: "LAUNCH 4417" } }] },
    { calls: [{ name: "recall-entry", args: { seq: 999999 } }] },
    { calls: [{ name: "recall-log", args: { matc: "x" } }] },
    { text: "found it" },
  ]);
  const agent = await f.open();
  t.teardown(() => agent.close());
  t.true(agent.toolDefinitions.some((d) => d.name === "recall-log"));
  await agent.turn("remember this: the launch code is 4417");
  await agent.turn("what was the code?");
  const recs = records(f.data);
  const reply = recs.find((r) => r.kind === "user.msg" && r.payload.text.includes("4417"));
  const results = recs.filter((r) => r.kind === "tool.result");
  t.is(results.length, 4);
  t.is(results[0].payload.output, `seq ${reply.seq} · ${reply.ts} · user.msg\n  remember this: the launch code is 4417`);
  t.regex(results[1].payload.output, new RegExp(`^session ${agent.id} \\(remember this: the launch code is 4417\\) · seq ${reply.seq} · `));
  // A search does not find its own call, nor the earlier recall-log's call and rows.
  t.is(results[1].payload.output.split("\n").filter((l: string) => l.startsWith("session ")).length, 1, results[1].payload.output);
  t.is(results[2].payload.output, "[no record has that seq]");
  t.false(results[3].payload.ok);
  t.regex(results[3].payload.error, /recall-log has no argument "matc"/);
});
