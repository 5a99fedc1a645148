// Property (fast-check) over random sessions with random summaries and drops: every request window-v2 builds fits, hides what it elides, keeps the latest two user messages whole, is valid for every provider, and replays to its digest.
import test from "ava";
import fc from "fast-check";
import { createHash } from "node:crypto";
import { CHARS4_V2, SourceRecords, canonicalJson, checkSpan, replayRequest, reserveOf } from "../../../host/window/index.js";
import { anthropicMessages } from "../../../host/model/anthropic.js";
import { Synth, text } from "./synth.js";

// More runs: NODWYN_FC_RUNS=500 npm run test:window-property (test/bench/README.md lists the heavier trials).
const RUNS = Number(process.env.NODWYN_FC_RUNS ?? 40);

type Op =
  | { readonly t: "turn"; readonly user: number; readonly rounds: readonly (readonly { readonly size: number; readonly shell: boolean }[])[] }
  | { readonly t: "summary"; readonly a: number; readonly b: number }
  | { readonly t: "drop"; readonly k: number };

const round = fc.array(fc.record({ size: fc.oneof(fc.integer({ min: 0, max: 400 }), fc.integer({ min: 400, max: 24_000 })), shell: fc.boolean() }), { minLength: 1, maxLength: 3 });
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ t: fc.constant("turn" as const), user: fc.integer({ min: 1, max: 300 }), rounds: fc.array(round, { maxLength: 3 }) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant("summary" as const), a: fc.nat(), b: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant("drop" as const), k: fc.nat() }) },
);
const session = fc.record({
  context: fc.constantFrom(4_000, 6_000, 12_000, 40_000),
  output: fc.constantFrom(500, 1_000, 1_500),
  ops: fc.array(op, { minLength: 1, maxLength: 14 }),
});

const sha = (s: string) => "sha256:" + createHash("sha256").update(s, "utf8").digest("hex");

test("property: every request fits its budget, contains no elided event's text, keeps the latest two user messages whole, is valid for every provider, and replays to its digest", (t) => {
  let requests = 0;
  let elidedSeen = 0;
  let summariesSeen = 0;
  fc.assert(
    fc.property(session, ({ context, output, ops }) => {
      const s = new Synth(context, output);
      const budget = context - reserveOf(context, output);
      const tag = new Map<number, string>(); // event seq → the unique tag in its text
      const turns: { user: number; answer: number }[] = [];
      const summaries: number[] = [];
      let n = 0;
      const check = (additions?: { role: "user"; content: string }[]) => {
        const params = s.params(additions);
        const shown = s.window.shownState(params);
        const b = s.request(additions);
        requests++;
        // Fits, and the recorded count is the estimator's.
        t.true(b.tokens <= budget, `${b.tokens} ≤ ${budget}`);
        let tokens = CHARS4_V2.text(b.request.system) + CHARS4_V2.text(canonicalJson(b.request.tools));
        for (const m of b.request.messages) tokens += CHARS4_V2.message(m);
        t.is(b.tokens, tokens);
        t.is(b.digest, sha(canonicalJson(b.request)));
        // No elided, collapsed or summarised event's text.
        const json = JSON.stringify(b.request.messages);
        const hidden = new Set(shown.elided);
        for (const [a, z] of shown.collapsed) for (const q of tag.keys()) if (q >= a && q <= z) hidden.add(q);
        for (const sq of shown.summaries) {
          const e = s.window.summaries().find((x) => x.entry.seq === sq)!.entry;
          for (const q of tag.keys()) if (q >= e.from && q <= e.through) hidden.add(q);
        }
        for (const q of hidden) {
          const tg = tag.get(q);
          if (tg !== undefined) t.false(json.includes(tg), `seq ${q} (${tg}) is hidden but shown`);
        }
        elidedSeen += hidden.size;
        summariesSeen += shown.summaries.length;
        // The latest two user messages are whole.
        const users = s.records.filter((r) => r.kind === "user.msg");
        for (const u of users.slice(-2)) t.true(b.request.messages.some((m) => m.role === "user" && m.content === u.payload.text), `user.msg ${u.seq} whole`);
        // Valid for every provider: a user message first, no two assistant messages in a row, every call answered right after it.
        const m = b.request.messages;
        if (m.length > 0) t.is(m[0]!.role, "user");
        for (let i = 1; i < m.length; i++) t.false(m[i]!.role === "assistant" && m[i - 1]!.role === "assistant", `messages ${i - 1}, ${i}`);
        for (let i = 0; i < m.length; i++) {
          const x = m[i]!;
          if (x.role === "assistant" && x.toolCalls && x.toolCalls.length > 0) {
            const ids = m.slice(i + 1, i + 1 + x.toolCalls.length).map((y) => (y.role === "tool" ? y.toolCallId : null));
            t.deepEqual([...ids].sort(), x.toolCalls.map((c) => c.id).sort(), "each call's result follows it");
          }
          if (x.role === "tool") t.true(i > 0 && (m[i - 1]!.role === "tool" || m[i - 1]!.role === "assistant"));
        }
        const wire = anthropicMessages(b.request);
        if (wire.length > 0) t.is(wire[0]!.role, "user");
        for (let i = 1; i < wire.length; i++) t.not(wire[i]!.role, wire[i - 1]!.role);
        return b;
      };
      for (const o of ops) {
        if (o.t === "turn") {
          const tg = `USR${++n}Q`;
          const user = s.user(text(tg, Math.max(tg.length, o.user)));
          tag.set(user, tg);
          for (const r of o.rounds) {
            check();
            const rt = `RPL${++n}Q`;
            const resp = s.reply(`${rt} working`, r.map((x) => ({ name: x.shell ? "shell-exec" : "fs-read", args: { path: "x" } })));
            tag.set(resp.seq, rt);
            r.forEach((x, k) => {
              const ot = `OUT${++n}Q`;
              tag.set(s.result(resp.ids[k] as string, x.shell ? "shell-exec" : "fs-read", text(ot, Math.max(ot.length, x.size))), ot);
            });
          }
          check();
          const at = `ANS${++n}Q`;
          const answer = s.reply(`${at} done`).seq;
          tag.set(answer, at);
          s.end();
          turns.push({ user, answer });
        } else if (o.t === "summary" && turns.length > 0) {
          const a = o.a % turns.length;
          const z = a + (o.b % (turns.length - a));
          const src = new SourceRecords();
          for (const r of s.records) src.add(r);
          const c = checkSpan(src, turns[a]!.user, turns[z]!.answer, (x) => s.records[x - 1]?.kind);
          if (!c.ok) throw new Error(c.problem);
          summaries.push(s.add("summary", { from: turns[a]!.user, through: turns[z]!.answer, text: `SUM${++n}Q summary`, digest: c.digest, actor: "person" }).seq);
        } else if (o.t === "drop" && summaries.length > 0) {
          s.add("summary.drop", { summary_seq: summaries[o.k % summaries.length], actor: "person" });
        }
      }
      if (turns.length > 0) check([{ role: "user", content: "one more thing" }]);
      // Every request replays to its digest from the records before it.
      for (const { seq, built } of s.built) t.is(replayRequest(s.records, seq).digest, built.digest);
    }),
    { numRuns: RUNS },
  );
  t.true(requests > RUNS, `${requests} requests`);
  t.true(elidedSeen > 0, "some sessions elided");
  t.true(summariesSeen > 0, "some requests showed a summary");
});
