// The eviction stub's text (seed 001, "Stub"): both forms, defined:, watching:, the notes block, and each limit at and past its edge.
import test from "ava";
import type { LogRecord } from "../../../host/log/index.js";
import {
  CellBook,
  cellDefinitions,
  cellNote,
  NOTES_HEADER,
  parseStateLabel,
  stateLabel,
  stubText,
  STUB_NAMES,
  STUB_NOTE_CHARS,
  STUB_NOTES,
  watchName,
} from "../../../host/session/eviction.js";

/** A book of cells: each [seq, source, ok, value] becomes eval.req (origin model) at seq and its eval.result at seq+1. */
function book(cells: readonly (readonly [number, string, boolean?, string?])[]): CellBook {
  const b = new CellBook();
  const rec = (seq: number, kind: string, payload: object): LogRecord => ({ seq, ts: "2026-12-02T00:00:00.000Z", session: "s", kind: kind as LogRecord["kind"], payload: payload as LogRecord["payload"] });
  for (const [seq, source, ok = true, value = "#t"] of cells) {
    b.add(rec(seq, "eval.req", { source, origin: "model" }));
    b.add(rec(seq + 1, "eval.result", ok ? { ok: true, req_seq: seq, value } : { ok: false, req_seq: seq, error: value }));
  }
  return b;
}

test("the whole-turns form: seq A–B, N turns, the recall form with B+1; no defined: or watching: without any", (t) => {
  t.is(stubText(book([]), { turns: { from: 3, through: 120, count: 9 } }), `[history evicted: seq 3–120 · 9 turns · recall: (recall-log :match "text" :before 121)]`);
  // A cell of the model's without a note or a definition adds nothing.
  t.is(stubText(book([[10, "(+ 1 2)"]]), { turns: { from: 3, through: 120, count: 9 } }), `[history evicted: seq 3–120 · 9 turns · recall: (recall-log :match "text" :before 121)]`);
});

test("the running turn's form: N rounds, seq A–B, the recall form with :after A-1 :before B+1", (t) => {
  t.is(stubText(book([]), { rounds: { from: 40, through: 77, count: 3 } }), `[turn history evicted: 3 rounds · seq 40–77 · recall: (recall-log :match "text" :after 39 :before 78)]`);
});

test("defined:, watching: and the notes block, with names, values and notes, for both forms together", (t) => {
  const b = book([
    [10, ";; the parser's entry point\n(define (parse s) (string->list s))\n(define limit 40)"],
    [20, ";; watch build: is the build green?\n(string=? \"ok\" \"ok\")", true, "#t"],
    [30, "(define-record-type point (make-point x y) point? (x point-x) (y point-y set-point-y!))"],
    [40, ";; a failing cell defines nothing\n(define lost 1) (car '())", false, "car: not a pair"],
    [50, ";; watch build\n(string=? \"ok\" \"no\")", true, "#f"],
    [60, "(define-values (q r) (floor/ 7 2)) (begin (define inner 1))"],
    [70, ";; watch count\n(length '(1 2 3))", true, "3"],
  ]);
  const text = stubText(b, { turns: { from: 5, through: 55, count: 2 }, rounds: { from: 60, through: 75, count: 1 } });
  t.is(
    text,
    [
      `[history evicted: seq 5–55 · 2 turns · defined: parse, limit, point, make-point, point?, point-x, point-y, set-point-y! · watching: build=#f · recall: (recall-log :match "text" :before 56)]`,
      NOTES_HEADER,
      ` seq 10 · the parser's entry point`,
      ` seq 20 · watch build: is the build green?`,
      ` seq 40 · a failing cell defines nothing`,
      ` seq 50 · watch build]`,
      `[turn history evicted: 1 rounds · seq 60–75 · defined: q, r, inner · watching: count=3 · recall: (recall-log :match "text" :after 59 :before 76)]`,
      NOTES_HEADER,
      ` seq 70 · watch count]`,
    ].join("\n"),
  );
  t.is(NOTES_HEADER, "[the evicted cells noted and judged, oldest first; (recall-entry seq) reads one whole");
});

test("24 names, then +N more: at the edge and past it, in defined: and watching:", (t) => {
  const defs = (n: number) => Array.from({ length: n }, (_, i) => [100 + i * 2, `(define n${i} ${i})`] as const);
  const at = stubText(book(defs(STUB_NAMES)), { turns: { from: 1, through: 999, count: 1 } });
  t.true(at.includes(`defined: ${Array.from({ length: 24 }, (_, i) => `n${i}`).join(", ")} · recall:`), at);
  const past = stubText(book(defs(STUB_NAMES + 3)), { turns: { from: 1, through: 999, count: 1 } });
  t.true(past.includes(`defined: ${Array.from({ length: 24 }, (_, i) => `n${i}`).join(", ")}, +3 more · recall:`), past);
  const watches = (n: number) => Array.from({ length: n }, (_, i) => [100 + i * 2, `;; watch w${i}\n${i}`, true, String(i)] as const);
  const w24 = stubText(book(watches(24)), { turns: { from: 1, through: 999, count: 1 } }).split("\n")[0]!;
  t.true(w24.includes(`watching: ${Array.from({ length: 24 }, (_, i) => `w${i}=${i}`).join(", ")} · recall:`), w24);
  const w25 = stubText(book(watches(25)), { turns: { from: 1, through: 999, count: 1 } }).split("\n")[0]!;
  t.true(w25.includes(`w23=23, +1 more · recall:`), w25);
});

test("the newest 100 notes, then +N earlier: at the edge and past it", (t) => {
  const notes = (n: number) => Array.from({ length: n }, (_, i) => [1000 + i * 2, `;; note ${i}\n${i}`] as const);
  const at = stubText(book(notes(STUB_NOTES)), { turns: { from: 1, through: 9999, count: 4 } }).split("\n");
  t.is(at.length, 1 + 1 + 100);
  t.is(at[2], " seq 1000 · note 0");
  t.is(at[101], " seq 1198 · note 99]");
  t.false(at.some((l) => /earlier/.test(l)));
  const past = stubText(book(notes(STUB_NOTES + 7)), { turns: { from: 1, through: 9999, count: 4 } }).split("\n");
  t.is(past.length, 1 + 1 + 1 + 100);
  t.is(past[1], NOTES_HEADER);
  t.is(past[2], " +7 earlier");
  t.is(past[3], " seq 1014 · note 7");
  t.is(past[102], " seq 1212 · note 106]");
});

test("a note line is at most 320 characters: at the edge whole, past it cut with …", (t) => {
  const prefix = "seq 10 · ";
  const exact = "x".repeat(STUB_NOTE_CHARS - prefix.length);
  const lines = stubText(book([[10, `;; ${exact}\n1`]]), { turns: { from: 1, through: 99, count: 1 } }).split("\n");
  t.is(lines[2], ` ${prefix}${exact}]`);
  t.is(lines[2]!.length, 1 + STUB_NOTE_CHARS + 1);
  const cut = stubText(book([[10, `;; ${exact}yz\n1`]]), { turns: { from: 1, through: 99, count: 1 } }).split("\n");
  t.is(cut[2], ` ${prefix}${"x".repeat(exact.length - 1)}…]`);
  t.is(cut[2]!.length - 2, STUB_NOTE_CHARS);
});

test("a note is the ;; lines a cell opens with; a watch names its cell; definitions are read, not guessed", (t) => {
  t.is(cellNote("\n  ;; first\n;;; second\n(define x 1)"), "first second");
  t.is(cellNote("(define x 1)\n;; later"), undefined);
  t.is(cellNote(";;\n1"), undefined);
  t.is(watchName("watch tests: passing?"), "tests");
  t.is(watchName("watching nothing"), undefined);
  t.deepEqual(cellDefinitions("(define ((curried a) b) a) (define-syntax swap! (syntax-rules ())) \"(define fake 1)\" ; (define nope 2)\n(define x"), ["curried", "swap!"]);
  t.deepEqual(cellDefinitions("(define-values (a . rest) (values 1 2))"), ["a", "rest"]);
});

test("the eviction's label carries what the stub covers, and reads back", (t) => {
  const st = { turns: { from: 3, through: 120, count: 9 }, rounds: { from: 130, through: 180, count: 4, user: 125 } };
  t.is(stateLabel(st), "evicted turns 3-120 x9; rounds 130-180 x4 of 125");
  t.deepEqual(parseStateLabel(stateLabel(st)), st);
  t.deepEqual(parseStateLabel(stateLabel({ turns: st.turns, rounds: null })), { turns: st.turns, rounds: null });
  t.is(parseStateLabel("compact"), null);
  t.is(parseStateLabel(undefined), null);
});
