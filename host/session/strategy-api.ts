// The procedures a strategy drives a turn with: the strategy decides, the host records (docs/guides/strategies.md).
//
// Each entry is a thin adapter to the StrategyLoop the agent session
// implements: asking for the window, sending a request, running one tool
// call, recording a note, ending the turn. Everything durable — every record
// of the log, every budget — is the host's; a strategy cannot write a record
// the host does not check. Later strategies add their procedures here
// (record-compaction, checkpoints, undo …): one table entry each.

import {
  MString,
  Pair,
  Procedure,
  Record,
  RecordType,
  Sym,
  T,
  UNSPECIFIED,
  hostError,
  type ArgType,
  type Ctx,
  type ProcSpec,
} from "../../interpreter/api.js";
import { jsonToScheme, keywordName, keywordOptions } from "../../primitives/agent/index.js";
import type { Message, ToolDefinition } from "../model/types.js";
import type { EvictionState } from "./eviction.js";

/** What a request handle stands for (the host keeps the request itself). */
export interface RequestInfo {
  readonly id: number;
  readonly tokens: number;
  readonly messages: number;
}

/** The host side of the strategy procedures (AgentSession implements it). */
export interface StrategyLoop {
  registerStrategy(name: string, onMessage: Procedure, onCommand: Procedure | null): void;
  setSystemText(text: string): void;
  systemText(): string;
  window(): RequestInfo;
  append(id: number, role: "user" | "assistant", text: string): RequestInfo;
  requestMessages(id: number): readonly Message[];
  send(id: number): Promise<Record_ | typeof UNSPECIFIED>;
  runTool(callId: string): Promise<Record_ | typeof UNSPECIFIED>;
  skipTool(callId: string, reason: string): Record_;
  note(text: string, topic: string | null): number;
  endTurn(outcome: "done" | "failed", message: string | null): void;
  budget(): Record_;
  info(): Record_;
  /** Records context.narrow (window-v2 shows the narrowed context from the next build) and returns its seq. */
  narrow(o: NarrowRequest): number;
  /** Records context.fold for the innermost pushed context and returns its seq. */
  fold(reason: string | null): number;
  /** What the window holds now, or what a request of this turn holds (tokens, budget, elided, collapsed, summaries, contexts). */
  windowInfo(id: number | null): Record_;
  /** The turns of the window's current context, with their rounds and sizes (what an eviction chooses from). */
  windowUnits(): Record_[];
  /** What the eviction in force covers (from the current context's label). */
  evictionState(): EvictionState;
  /** The stub of an eviction state, in seed 001's formats. */
  evictionStub(st: EvictionState): string;
  /** Records an eviction (context.narrow reason evict, lasting, the stub as its note) from seq `from`; the boundary only moves forward. */
  recordEviction(from: number, st: EvictionState): number;
  /** The session tree (issue 17): the head, the redo target, every turn. */
  treeInfo(): Record_;
  /** Moves the head (undo, redo, or to a turn), restoring files unless keepFiles; files the person changed since are kept. */
  moveHead(how: "undo" | "redo" | number, keepFiles: boolean): Promise<Record_>;
  /** Starts a new session at the head; its id and turn. */
  forkSession(): Record_;
  /** Offers the model a tool the strategy answers itself (while the program loads). */
  offerTool(def: ToolDefinition): void;
  /** Answers a call of an offered tool: tool.call and tool.result (ok) with text. */
  answerTool(callId: string, text: string): Record_;
  /** A text's size in the window's estimated tokens (chars4 v2). */
  estimateTokens(text: string): number;
  /** Records context.compact (and, when it compacted, the lasting context.narrow to its note). */
  recordCompaction(o: CompactionRequest): Record_;
}

/** One compaction as a strategy records it (ADR 0002's 2026-10-02 context.compact). */
export interface CompactionRequest {
  readonly trigger: "auto" | "command" | "requested";
  readonly compacted: boolean;
  /** The window's size before, in estimated tokens. */
  readonly before: number;
  readonly threshold?: number;
  readonly focus?: string;
  /** The handover note's llm.resp. */
  readonly noteSeq?: number;
}

/**
 * A narrowing as a strategy asks for it (context.narrow's fields). Issue 16's
 * compaction narrows to the handover note's reply (respSeq, lasting); an
 * eviction to a stub text of its own (note) from the first seq it keeps (from).
 */
export interface NarrowRequest {
  readonly reason: string;
  /** Text shown verbatim as one user message where the narrowed history was. */
  readonly note?: string;
  /** An llm.resp whose text is shown as one assistant message (a handover note). */
  readonly respSeq?: number;
  readonly label?: string;
  /** Replace the current context (a compaction, an eviction) instead of opening a sub-context that a fold ends. */
  readonly lasting?: boolean;
  /** The first seq still shown (default: the records after the narrowing). */
  readonly from?: number;
}

/** A JSON-like object handed to Scheme (converted with jsonToScheme). */
export type Record_ = { readonly [key: string]: unknown };

/** The record type of request handles: `#<request id=3 tokens=812 messages=5>`. */
export const REQUEST_TYPE = new RecordType("request", ["id", "tokens", "messages"]);

function requestValue(r: RequestInfo): Record {
  return new Record(REQUEST_TYPE, [r.id, r.tokens, r.messages]);
}

const isRequest: ArgType = { name: "request (from window)", test: (x) => x instanceof Record && x.rtd === REQUEST_TYPE };
const stringOrSymbol: ArgType = { name: "string or symbol", test: (x) => x instanceof MString || x instanceof Sym };
const procOrFalse: ArgType = { name: "procedure or #f", test: (x) => x instanceof Procedure || x === false };
const alist: ArgType = { name: "tool call (an alist with id)", test: (x) => x instanceof Pair };

function text(x: MString | Sym): string {
  return x instanceof MString ? x.toString() : x.name;
}

function idOf(call: any, who: string): string {
  for (let p = call; p instanceof Pair; p = p.cdr) {
    const e = p.car;
    if (e instanceof Pair && e.car instanceof Sym && e.car.name === "id" && e.cdr instanceof MString) return e.cdr.toString();
  }
  hostError("bad-call", `${who}: the tool call has no (id . "…") entry: pass a call from (send …)'s tool-calls`, [call], who);
}

const STATE_OPTIONS = { "turns-from": T.index, "turns-through": T.index, turns: T.index, "rounds-from": T.index, "rounds-through": T.index, rounds: T.index, "rounds-user": T.index };

/** An eviction state from keyword options (a part whose count is 0 or absent is none). */
function stateOf(rest: unknown[], who: string, withFrom: boolean): { st: EvictionState; from: number } {
  const o = keywordOptions(rest, who, withFrom ? { from: T.index, ...STATE_OPTIONS } : STATE_OPTIONS);
  const n = (k: string): number => (o.get(k) as number | undefined) ?? 0;
  if (withFrom && !o.has("from")) hostError("bad-option", `${who}: give :from, the first seq the window keeps`, [], who);
  return {
    st: {
      turns: n("turns") > 0 ? { from: n("turns-from"), through: n("turns-through"), count: n("turns") } : null,
      rounds: n("rounds") > 0 ? { from: n("rounds-from"), through: n("rounds-through"), count: n("rounds"), user: n("rounds-user") } : null,
    },
    from: n("from"),
  };
}

function stateRecord(st: EvictionState): Record_ {
  return {
    "turns-from": st.turns?.from ?? 0,
    "turns-through": st.turns?.through ?? 0,
    turns: st.turns?.count ?? 0,
    "rounds-from": st.rounds?.from ?? 0,
    "rounds-through": st.rounds?.through ?? 0,
    rounds: st.rounds?.count ?? 0,
    "rounds-user": st.rounds?.user ?? 0,
  };
}

/** The strategy procedures over a loop, as table entries. */
export function strategyPrimitives(loop: StrategyLoop): ProcSpec[] {
  return [
    {
      name: "register-strategy!",
      params: ["name", "on-message", "[on-command]"],
      types: [stringOrSymbol, T.procedure, procOrFalse],
      doc:
        "Makes this program the session's strategy: (on-message text) runs one turn for each message of the person, after " +
        "the host recorded it as user.msg; the turn ends when it returns (turn.end done), raises (failed), calls end-turn, " +
        "or a budget or a cancellation stops it. (on-command name args) receives chat's slash commands the host does not " +
        "handle itself (/compact focus → \"compact\" \"focus\") and returns #t when it handled one.",
      impl(name: MString | Sym, onMessage: Procedure, onCommand?: Procedure | false) {
        loop.registerStrategy(text(name), onMessage, onCommand instanceof Procedure ? onCommand : null);
        return UNSPECIFIED;
      },
    },
    {
      name: "set-system-text!",
      params: ["text"],
      types: [T.string],
      doc:
        "Sets the system text of every later request: what the model works in and with. It is redacted as the log redacts " +
        "and recorded in each llm.req's recipe.",
      impl(t: MString) {
        loop.setSystemText(t.toString());
        return UNSPECIFIED;
      },
    },
    {
      name: "system-text",
      params: [],
      doc: "The system text set by set-system-text! (redacted), \"\" before it is set.",
      impl: () => new MString(loop.systemText()),
    },
    {
      name: "window",
      params: [],
      doc:
        "The request the session's window recipe (window-v2, docs/guides/window.md) builds now from the session log: the " +
        "system text, the conversation's user.msg, llm.resp and tool.result events of the current context (summaries in " +
        "place of their spans, old replies and results elided to [elided seq=N] to fit the model's context window), and " +
        "the tools offered. Returns a request, #<request id=… tokens=… messages=…>, valid in this turn until the window " +
        "changes. A window that cannot fit even elided raises a host condition (code window-overflow).",
      impl: () => requestValue(loop.window()),
    },
    {
      name: "request?",
      params: ["obj"],
      doc: "True when obj is a request made by window or request-append.",
      impl: (x: any) => x instanceof Record && x.rtd === REQUEST_TYPE,
    },
    {
      name: "request-append",
      params: ["request", "role", "text"],
      types: [isRequest, stringOrSymbol, T.string],
      doc:
        "A new request: request with one more message at its end, of role user or assistant. The message is sent with it " +
        "and recorded in its llm.req (recipe.additions), not in later windows: record what must stay with the conversation " +
        "as a message of its own.",
      impl(req: Record, role: MString | Sym, t: MString) {
        const r = text(role);
        if (r !== "user" && r !== "assistant") hostError("bad-role", `request-append: role must be user or assistant, not ${r}`, [role], "request-append");
        return requestValue(loop.append(req.f[0] as number, r, t.toString()));
      },
    },
    {
      name: "request-tokens",
      params: ["request"],
      types: [isRequest],
      doc:
        "The request's size in the window's estimated tokens (window-v2: chars4 v2, an ASCII character a quarter of a token " +
        "and any other a whole one, plus 4 a message), the system text and the tools included.",
      impl: (req: Record) => req.f[1],
    },
    {
      name: "request-messages",
      params: ["request"],
      types: [isRequest],
      doc:
        "The request's messages, a vector of alists: ((role . \"user\") (content . \"…\")), an assistant's with " +
        "(tool-calls . #(((id . …) (name . …) (arguments . \"{…}\")) …)), a tool result's with (tool-call-id . …), (name . …) and (error . #t).",
      impl(this: Ctx, req: Record) {
        return loop.requestMessages(req.f[0] as number).map((m) =>
          jsonToScheme(this, {
            role: m.role,
            content: m.content,
            ...(m.role === "assistant" && m.toolCalls ? { "tool-calls": m.toolCalls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments })) } : {}),
            ...(m.role === "tool" ? { "tool-call-id": m.toolCallId, name: m.name, ...(m.isError ? { error: true } : {}) } : {}),
          }),
        );
      },
    },
    {
      name: "send",
      params: ["request"],
      types: [isRequest],
      async: true,
      doc:
        "Sends the request to the session's model, recording llm.req (recipe, tools, digest) before and llm.resp after; " +
        "the reply streams to the person as it arrives. Returns ((seq . n) (text . s) (tool-calls . #(((id . s) (name . s) " +
        "(arguments . s)) …)) (stop . s) (input-tokens . n) (output-tokens . n) (cost . x)), cost only when priced. Every " +
        "tool call must then be answered, by run-tool or skip-tool, before the next send. A model failure raises a host " +
        "condition (code model-error) after llm.resp recorded it; a request made before the log gained a message raises " +
        "(stale-request); a spent budget ends the turn.",
      async impl(this: Ctx, req: Record) {
        const r = await loop.send(req.f[0] as number);
        return r === UNSPECIFIED ? r : jsonToScheme(this, r);
      },
    },
    {
      name: "run-tool",
      params: ["call"],
      types: [alist],
      async: true,
      doc:
        "Runs one tool call of the last reply (an element of its tool-calls), recording tool.call, what the tool records " +
        "(eval.req, guard.decision …) and tool.result; the tool's result is redacted by the log before any request carries " +
        "it. Returns ((seq . n) (call-id . s) (tool . s) (ok . #t) (output . s) (chars . n) (duration-ms . n)), with " +
        "(error . s) when the tool failed: a failing tool is a result, never a failed turn.",
      async impl(this: Ctx, call: any) {
        const r = await loop.runTool(idOf(call, "run-tool"));
        return r === UNSPECIFIED ? r : jsonToScheme(this, r);
      },
    },
    {
      name: "skip-tool",
      params: ["call", "reason"],
      types: [alist, T.string],
      doc: "Answers one tool call of the last reply without running it: a tool.result marked as an error, with reason as the text the model reads.",
      impl(this: Ctx, call: any, reason: MString) {
        return jsonToScheme(this, loop.skipTool(idOf(call, "skip-tool"), reason.toString()));
      },
    },
    {
      name: "record-note",
      params: ["text", "[topic]"],
      types: [T.string, stringOrSymbol],
      doc: "Records a note (kind note, topic default \"strategy\") and returns its seq. Notes are not part of any window.",
      impl(t: MString, topic?: MString | Sym) {
        return loop.note(t.toString(), topic === undefined ? null : text(topic));
      },
    },
    {
      name: "end-turn",
      params: ["[outcome]", "[message]"],
      types: [stringOrSymbol, T.string],
      doc:
        "Ends the turn now with outcome done (the default) or failed, and message as turn.end's error for a failure. " +
        "Tool calls left unanswered are answered as not run. Nothing of the strategy's turn runs after it.",
      impl(outcome?: MString | Sym, message?: MString) {
        const o = outcome === undefined ? "done" : text(outcome);
        if (o !== "done" && o !== "failed") hostError("bad-outcome", `end-turn: outcome must be done or failed, not ${o}`, [outcome], "end-turn");
        loop.endTurn(o, message === undefined ? null : message.toString());
        return UNSPECIFIED;
      },
    },
    {
      name: "turn-budget",
      params: [],
      doc:
        "What the turn has used and may use: ((model-calls . n) (max-model-calls . n) (tool-calls . n) (max-tool-calls . n) " +
        "(tokens . n) (max-tokens . n) (elapsed-ms . n) (max-ms . n) (cost . x) (max-cost . x)).",
      impl(this: Ctx) {
        return jsonToScheme(this, loop.budget());
      },
    },
    {
      name: "session-info",
      params: [],
      doc:
        "The session: ((session . id) (root . path) (model . id) (server . name) (context-window . n) (tools . #(\"eval\" …)) " +
        "(strategy . file) (turn . n) (interactive . #t)), interactive being #f where no person can answer (nodwyn ask).",
      impl(this: Ctx) {
        return jsonToScheme(this, loop.info());
      },
    },
    {
      name: "context-narrow",
      params: ["reason", "[note]", "option ..."],
      types: [stringOrSymbol, null, null],
      doc:
        "Records context.narrow and returns its seq: from the next (window) on, the window shows a narrowed context. " +
        "note (a string, or #f) is shown verbatim as one user message where the history was; the options: :resp-seq n, a " +
        "reply whose text is shown as one assistant message (a compaction's handover note); :from n, the first seq still " +
        "shown (default: what follows this record; a narrowing inside a turn keeps that turn's user message); :lasting #t " +
        "replaces the current context for good (a compaction, an eviction), else it opens a sub-context that context-fold " +
        "ends; :label s names it. The log keeps everything: (recall seq) reads what the window no longer shows.",
      impl(reason: MString | Sym, note: unknown, rest: unknown[]) {
        const who = "context-narrow";
        let args = rest;
        let noteText: string | undefined;
        if (note !== undefined && keywordName(note) !== null) args = [note, ...rest];
        else if (note instanceof MString) noteText = note.toString();
        else if (note !== undefined && note !== false) hostError("bad-argument", `${who}: the note is a string or #f`, [note], who);
        const o = keywordOptions(args, who, { "resp-seq": T.index, from: T.index, lasting: T.boolean, label: stringOrSymbol });
        const label = o.get("label") as MString | Sym | undefined;
        return loop.narrow({
          reason: text(reason),
          ...(noteText !== undefined ? { note: noteText } : {}),
          ...(o.has("resp-seq") ? { respSeq: o.get("resp-seq") as number } : {}),
          ...(o.has("from") ? { from: o.get("from") as number } : {}),
          ...(o.get("lasting") === true ? { lasting: true } : {}),
          ...(label !== undefined ? { label: label instanceof MString ? label.toString() : label.name } : {}),
        });
      },
    },
    {
      name: "context-fold",
      params: ["[reason]"],
      types: [stringOrSymbol],
      doc:
        "Records context.fold and returns its seq: the innermost sub-context (a context-narrow without :lasting) ends, and " +
        "the window returns to the context it was opened in, without the sub-context's events. Raises (no-context) when no " +
        "sub-context is open.",
      impl(reason?: MString | Sym) {
        return loop.fold(reason === undefined ? null : text(reason));
      },
    },
    {
      name: "window-info",
      params: ["[request]"],
      types: [isRequest],
      doc:
        "What the window holds: ((recipe . \"window-v2\") (context-window . n) (reserve . n) (budget . n) (tokens . n) " +
        "(messages . n) (elided . #(seq …)) (collapsed . #(#(a b) …)) (summaries . #(((seq . s) (from . a) (through . b) " +
        "(status . \"active\") (shown . #t)) …)) (contexts . #(((narrow . n) (pushed . #f) (lasting . #t) (from . n)) …))), " +
        "of the window as (window) would build it now, or of request. budget is what may be sent: the context window less " +
        "the reply's reserve; tokens is what the request takes of it.",
      impl(this: Ctx, req?: Record) {
        return jsonToScheme(this, loop.windowInfo(req === undefined ? null : (req.f[0] as number)));
      },
    },
    {
      name: "window-units",
      params: [],
      doc:
        "The turns of the window's current context, oldest first: a vector of ((user . seq) (from . a) (through . b) " +
        "(tokens . n) (finished . #t) (rounds . #(((from . a) (through . b) (tokens . n)) …))), each turn's size as shown " +
        "whole (before elision). What an eviction chooses whole turns and rounds from; (context-narrow reason stub :from n " +
        ":lasting #t) then records it.",
      impl(this: Ctx) {
        return loop.windowUnits().map((u) => jsonToScheme(this, u));
      },
    },
    {
      name: "eviction-state",
      params: [],
      doc:
        "What the eviction in force covers, from the label its context.narrow recorded: ((turns-from . a) (turns-through . b) " +
        "(turns . n) (rounds-from . c) (rounds-through . d) (rounds . m) (rounds-user . u)), u the seq of the user message of " +
        "the turn whose rounds were shed; zeros where nothing was evicted (evict.scm, docs/guides/strategies.md).",
      impl(this: Ctx) {
        const st = loop.evictionState();
        return jsonToScheme(this, stateRecord(st));
      },
    },
    {
      name: "eviction-stub",
      params: ["option ..."],
      types: [null],
      doc:
        "The stub text an eviction of these spans leaves, in seed 001's formats: [history evicted: seq A–B · N turns · defined: " +
        "… · watching: … · recall: (recall-log :match \"text\" :before B+1)] for :turns-from A :turns-through B :turns N, and " +
        "[turn history evicted: M rounds · seq C–D · … · recall: (recall-log :match \"text\" :after C-1 :before D+1)] for " +
        ":rounds-from C :rounds-through D :rounds M, each followed by the notes block of its cells that opened with a ;; note.",
      impl(rest: unknown[]) {
        return new MString(loop.evictionStub(stateOf(rest, "eviction-stub", false).st));
      },
    },
    {
      name: "record-eviction",
      params: ["option ..."],
      types: [null],
      doc:
        "Records an eviction and returns its seq: context.narrow (reason evict, lasting) whose note is the stub of the spans " +
        "(the options of eviction-stub, and :rounds-user u, the running turn's user message) and whose window starts at " +
        ":from n. Never summarised: the log keeps every evicted event, recall-log and recall-entry read them. The boundary " +
        "only moves forward: a :from before the window's first seq raises (bad-eviction); an undo does not bring evicted " +
        "turns back.",
      impl(rest: unknown[]) {
        const { st, from } = stateOf(rest, "record-eviction", true);
        return loop.recordEviction(from, st);
      },
    },
    {
      name: "checkpoints",
      params: [],
      doc:
        "The session tree: ((head . n) (redo . n-or-#f) (turns . #(((turn . n) (parent . n) (seq . s) (text . \"…\") " +
        "(ts . \"…\") (outcome . \"done\") (files . #(\"src/a.ts\" …)) (on-branch . #t) (children . #(n …))) …))). Every " +
        "turn is a checkpoint: files lists what the turn changed in the working tree (fs-write, fs-edit, shell-exec alike); " +
        "head is the turn the conversation continues from (0: before any), redo where (redo) would return.",
      impl(this: Ctx) {
        return jsonToScheme(this, loop.treeInfo());
      },
    },
    {
      name: "undo",
      params: ["option ..."],
      types: [null],
      async: true,
      doc:
        "Rewinds the last turn between turns (from on-command): records head.move, restores the files the turn changed " +
        "to how they were before it — :keep-files #t leaves them — and returns ((from . n) (to . n) (files . \"restored\") " +
        "(restored . #(…)) (kept . #(…)) (seq . n)). A file the person changed since is never overwritten from a strategy: it " +
        "is kept and listed. The window from then on shows the head's branch only; the log keeps everything. Raises " +
        "(nothing-to-undo) at the start, (turn-running) inside a turn.",
      async impl(this: Ctx, rest: unknown[]) {
        const o = keywordOptions(rest, "undo", { "keep-files": T.boolean });
        return jsonToScheme(this, await loop.moveHead("undo", o.get("keep-files") === true));
      },
    },
    {
      name: "redo",
      params: ["option ..."],
      types: [null],
      async: true,
      doc:
        "Returns to the branch the last rewind left (head.move reason redo), its files as they were after it unless " +
        ":keep-files #t; returns what undo returns. Raises (nothing-to-redo) when no rewind happened since the last turn.",
      async impl(this: Ctx, rest: unknown[]) {
        const o = keywordOptions(rest, "redo", { "keep-files": T.boolean });
        return jsonToScheme(this, await loop.moveHead("redo", o.get("keep-files") === true));
      },
    },
    {
      name: "rewind-to",
      params: ["turn", "option ..."],
      types: [T.index, null],
      async: true,
      doc:
        "Moves the head to turn (0: the start) to continue from it, its files as they were after it unless :keep-files " +
        "#t (head.move reason tree); returns what undo returns. Raises (no-such-turn) for a turn the session does not have.",
      async impl(this: Ctx, turn: number, rest: unknown[]) {
        const o = keywordOptions(rest, "rewind-to", { "keep-files": T.boolean });
        return jsonToScheme(this, await loop.moveHead(turn, o.get("keep-files") === true));
      },
    },
    {
      name: "fork",
      params: [],
      doc:
        "Starts a new session at the head: a log whose session.start records forked_from (session, turn, seq) and holds " +
        "the head's branch, closed; returns ((session . id) (turn . n) (copied . n)). This session goes on; nodwyn resume ID " +
        "continues the fork.",
      impl(this: Ctx) {
        return jsonToScheme(this, loop.forkSession());
      },
    },
    ...compactionPrimitives(loop),
  ];
}

const TRIGGERS = new Set(["auto", "command", "requested"]);

/** Issue 16's procedures: compaction and the tools a strategy answers itself. */
function compactionPrimitives(loop: StrategyLoop): ProcSpec[] {
  return [
    {
      name: "offer-tool",
      params: ["name", "description", "[parameters]"],
      types: [stringOrSymbol, T.string, T.string],
      doc:
        "Offers the model one more tool, which the strategy answers itself: name, the description the model reads, and " +
        "parameters, the JSON Schema of its arguments as JSON text (default an object without properties). Only while " +
        "the program loads; the tool is in every request's tools from then on. A call of it comes in send's tool-calls " +
        "like any other; answer it with answer-tool (run-tool answers it as an error). compact.scm offers compact so " +
        "that the model can ask for a compaction.",
      impl(name: MString | Sym, description: MString, parameters?: MString) {
        let schema: unknown = { type: "object", properties: {}, additionalProperties: false };
        if (parameters !== undefined) {
          try {
            schema = JSON.parse(parameters.toString());
          } catch (e) {
            hostError("bad-tool", `offer-tool: parameters is not JSON: ${(e as Error).message}`, [parameters], "offer-tool");
          }
          if (schema === null || typeof schema !== "object" || Array.isArray(schema)) hostError("bad-tool", "offer-tool: parameters must be a JSON object (a JSON Schema)", [parameters], "offer-tool");
        }
        const n = text(name);
        if (!/^[A-Za-z][A-Za-z0-9_-]{0,63}$/.test(n)) hostError("bad-tool", `offer-tool: ${JSON.stringify(n)} is not a tool name (letters, digits, - and _, at most 64)`, [name], "offer-tool");
        loop.offerTool({ name: n, description: description.toString(), inputSchema: schema as object });
        return UNSPECIFIED;
      },
    },
    {
      name: "answer-tool",
      params: ["call", "text"],
      types: [alist, T.string],
      doc:
        "Answers a call of a tool the strategy offered (offer-tool): records tool.call and tool.result, ok, with text as " +
        "what the model reads; returns what run-tool returns.",
      impl(this: Ctx, call: any, t: MString) {
        return jsonToScheme(this, loop.answerTool(idOf(call, "answer-tool"), t.toString()));
      },
    },
    {
      name: "call-argument",
      params: ["call", "key"],
      types: [alist, stringOrSymbol],
      doc:
        "The value of one argument of a tool call (its arguments are JSON text as the model wrote them), in SRFI 180's " +
        "mapping (a string, a number, #t/#f, a vector, an alist); #f when the call has no such argument or its arguments " +
        "are not a JSON object.",
      impl(this: Ctx, call: any, key: MString | Sym) {
        let args: string | null = null;
        for (let p = call; p instanceof Pair; p = p.cdr) {
          const e = p.car;
          if (e instanceof Pair && e.car instanceof Sym && e.car.name === "arguments" && e.cdr instanceof MString) args = e.cdr.toString();
        }
        if (args === null) return false;
        let v: unknown;
        try {
          v = JSON.parse(args);
        } catch {
          return false;
        }
        if (v === null || typeof v !== "object" || Array.isArray(v)) return false;
        const x = Object.hasOwn(v, text(key)) ? (v as { [k: string]: unknown })[text(key)] : undefined;
        return x === undefined || x === null ? false : jsonToScheme(this, x);
      },
    },
    {
      name: "estimate-tokens",
      params: ["text"],
      types: [T.string],
      doc: "The text's size in the window's estimated tokens (chars4 v2: an ASCII character a quarter of a token, any other a whole one).",
      impl: (t: MString) => loop.estimateTokens(t.toString()),
    },
    {
      name: "record-compaction",
      params: ["trigger", "compacted", "option ..."],
      types: [stringOrSymbol, T.boolean, null],
      doc:
        "Records one compaction (context.compact): trigger is auto, command or requested; compacted #t when the window " +
        "goes on from the handover note. Options: :before n, the window's size before in estimated tokens (required); " +
        ":threshold n, the compact-threshold an automatic one passed (required for auto); :focus s, what /compact asked to " +
        "keep; :note n, the note's llm.resp seq (required when compacted), whose output tokens and whether it stopped at " +
        "the output limit the host records from the reply. When compacted, the host first records context.narrow (reason " +
        "compact, :resp-seq the note, lasting): the window shows the note and what follows, in this turn and later ones, " +
        "and the size after is measured on it. When not (the note failed, came back empty or larger than what it " +
        "replaces), no size after is recorded and the note's reply, with the calls it was answered, is hidden from later " +
        "windows: the window stays as it was. Returns ((seq . n) (narrow . n-or-#f) (after-tokens . n-or-#f)).",
      impl(this: Ctx, trigger: MString | Sym, compacted: boolean, rest: unknown[]) {
        const who = "record-compaction";
        const tr = text(trigger);
        if (!TRIGGERS.has(tr)) hostError("bad-compaction", `${who}: trigger must be auto, command or requested, not ${tr}`, [trigger], who);
        const o = keywordOptions(rest, who, { before: T.index, threshold: T.index, focus: T.string, note: T.index });
        if (!o.has("before")) hostError("bad-compaction", `${who}: give :before, the window's size before the compaction in estimated tokens`, [], who);
        const focus = o.get("focus") as MString | undefined;
        return jsonToScheme(
          this,
          loop.recordCompaction({
            trigger: tr as CompactionRequest["trigger"],
            compacted,
            before: o.get("before") as number,
            ...(o.has("threshold") ? { threshold: o.get("threshold") as number } : {}),
            ...(focus !== undefined && focus.toString() !== "" ? { focus: focus.toString() } : {}),
            ...(o.has("note") ? { noteSeq: o.get("note") as number } : {}),
          }),
        );
      },
    },
  ];
}

/** The names of the strategy procedures, for the (nodwyn strategy primitives) library. */
export function strategyNames(): string[] {
  return strategyPrimitives(null as unknown as StrategyLoop).map((s) => s.name);
}
