// Every kind of session-log record and the shape of its payload, checked when a record is written.
//
// Adding a kind is one entry in KINDS and one row in docs/log-format.md (a test
// holds the two equal). A field spec is a JSON type, or several joined by `|`:
// string, integer, number, boolean, object, array, null, any, or a string literal
// in single quotes ('done'). A field name ending in `?` is optional. A kind is
// closed (a field it does not name is refused, which catches typos) unless it
// says `open: true`.

import { LogPayloadError } from "./errors.js";

/** One kind's entry: what the record means and the fields of its payload. */
export interface KindSpec {
  /** One line saying what the record records. */
  readonly doc: string;
  /** Field name (with `?` when optional) → type spec. */
  readonly fields: Readonly<Record<string, string>>;
  /** Fields not named are allowed (the kind was named by the ADR without a full shape). */
  readonly open?: boolean;
}

// The worktree fields session.start, session.resume and the worktree.* kinds share (ADR 0002, 2026-10-03).
const WORKTREE = {
  repository: "string",
  path: "string",
  branch: "string",
  base: "string",
  base_commit: "string",
} as const;

// What a session is configured with; session.resume carries the same (ADR 0002, 2026-09-22).
const SESSION_CONFIG = {
  version: "string",
  "origin?": "string",
  "cwd?": "string",
  "repo?": "string",
  "argv?": "array",
  "strategy?": "string",
  "model?": "string",
  "server?": "string",
  "context?": "object",
  "worktree?": "object",
  "config?": "object",
  "actor?": "string",
  // ADR 0027: a session /fork made, where it came from: {session, turn, seq}.
  "forked_from?": "object",
} as const;

/** Every kind of record, in the order docs/log-format.md lists them. */
export const KINDS = {
  "session.start": {
    doc: "the session opened: its configuration; always seq 1",
    fields: SESSION_CONFIG,
  },
  "session.resume": {
    doc: "the session was opened again: its current configuration, as session.start carries it",
    fields: SESSION_CONFIG,
  },
  "session.end": {
    doc: "the session closed",
    fields: { "reason?": "string", "exit_code?": "integer", "error?": "string" },
  },
  "user.msg": {
    doc: "a message from the person",
    fields: { text: "string", "actor?": "string", "attachments?": "array" },
  },
  "llm.req": {
    doc: "a request sent to the model, with what exact replay needs (recipe, digest)",
    fields: {
      model: "string",
      "server?": "string",
      "messages?": "array",
      "tools?": "array",
      "params?": "object",
      "recipe?": "object|string",
      "digest?": "string",
      "turn?": "integer",
      "withheld_images?": "array",
    },
  },
  "llm.resp": {
    doc: "the model's reply to the llm.req at req_seq",
    fields: {
      req_seq: "integer",
      "model?": "string",
      "text?": "string",
      "thinking?": "string",
      "tool_calls?": "array",
      "stop_reason?": "string",
      "usage?": "object",
      "error?": "string",
    },
  },
  "tool.call": {
    doc: "a tool call the model made",
    fields: { call_id: "string", tool: "string", args: "any", "resp_seq?": "integer" },
  },
  "tool.result": {
    doc: "the result of the tool.call with call_id: ok false marks an error; duration_ms is how long the tool ran; recovered marks one a resume made for a call a crash left unfinished",
    fields: {
      call_id: "string",
      tool: "string",
      ok: "boolean",
      "output?": "any",
      "error?": "string",
      "duration_ms?": "number",
      "truncated?": "boolean",
      "recovered?": "boolean",
    },
  },
  "guard.decision": {
    doc: "the read guard decided on one file access",
    fields: {
      path: "string",
      op: "string",
      decision: "'allow'|'deny'|'ask'",
      "reason?": "string",
      "rule?": "string",
      "checker?": "string",
      "actor?": "string",
      "prompt_id?": "string",
      "scope?": "string",
    },
  },
  "egress.check": {
    doc: "a network destination was checked before use",
    fields: { host: "string", allowed: "boolean", "port?": "integer", "tool?": "string", "reason?": "string" },
  },
  "gate.plan": {
    doc: "the plan recorded for a turn",
    fields: { steps: "array", "note?": "string", "approved?": "boolean", "actor?": "string", "prompt_id?": "string" },
  },
  "cred.register": {
    doc: "a credential was registered with the session: class and id only, never a value",
    fields: { class: "string", id: "string", "actor?": "string", "prompt_id?": "string" },
  },
  "cred.refresh": {
    doc: "one OAuth2 credential refresh: never a token",
    fields: {
      class: "string",
      id: "string",
      endpoint_host: "string",
      ok: "boolean",
      "expiry?": "string",
      "rotated?": "boolean",
      "error?": "string",
    },
  },
  "redact.event": {
    doc: "what the redactor replaced in the record at target_seq: rule counts and JSON Pointer paths, never the secret",
    fields: {
      target_seq: "integer",
      target_kind: "string",
      rules: "object",
      paths: "array",
      "paths_dropped?": "integer",
    },
  },
  summary: {
    doc: "a reviewed summary replacing the span from..through in later windows, with the digest of its source",
    fields: { from: "integer", through: "integer", text: "string", digest: "string", "actor?": "string" },
  },
  "summary.drop": {
    doc: "the summary at summary_seq was revoked",
    fields: { summary_seq: "integer", "actor?": "string", "reason?": "string" },
  },
  note: {
    doc: "a note from the host (a repaired log, a model not restored, a declined image)",
    fields: { text: "string", "topic?": "string", "data?": "object" },
  },
  "turn.end": {
    doc: "a turn or an evaluation completed, was cancelled or failed",
    fields: {
      outcome: "string",
      "turn?": "integer",
      "req_seq?": "integer",
      "error?": "string",
      "elapsed_ms?": "number",
    },
  },
  "turn.checkpoint": {
    doc: "a budget dimension reached a limit: what was used, the limits, the state and the continuation chosen",
    fields: {
      dimension: "string",
      used: "number",
      "soft?": "number",
      "hard?": "number",
      "state?": "object",
      "continuation?": "string",
      "soft_limit?": "number",
      "error?": "string",
      "actor?": "string",
      "prompt_id?": "string",
    },
  },
  "approval.change": {
    doc: "a requested approval scope, recorded before it is applied",
    fields: { actor: "string", scope: "string", kind: "'command'|'write'", "prefix?": "string", "prompt_id?": "string" },
  },
  "eval.req": {
    doc: "Scheme source submitted for evaluation",
    fields: { source: "string", "origin?": "string", "file?": "string", "actor?": "string" },
  },
  "eval.result": {
    doc: "the outcome of the eval.req at req_seq: the value as write prints it, or the error",
    fields: {
      ok: "boolean",
      "req_seq?": "integer",
      "value?": "string",
      "error?": "string",
      "error_kind?": "string",
      "output?": "string",
      "elapsed_ms?": "number",
    },
  },
  "plan.step": {
    doc: "the model marked a step of the turn's plan done or skipped (its claim, not a proof)",
    fields: { step: "integer", steps: "integer", state: "'done'|'skipped'", "note?": "string" },
  },
  attach: {
    doc: "a file, text or image attached to the conversation; an image never with its pixels",
    fields: {
      type: "string",
      "name?": "string",
      "path?": "string",
      "text?": "string",
      "media_type?": "string",
      "size?": "integer",
      "sha256?": "string",
      "width?": "integer",
      "height?": "integer",
      "tokens?": "integer",
      "destination?": "string",
      "approved_by?": "string",
      "prompt_id?": "string",
    },
  },
  "doc.upload": {
    doc: "one document sent (or refused before sending) to a document service: never the content or a token",
    fields: {
      tool: "string",
      path: "string",
      media_type: "string",
      size: "integer",
      sha256: "string",
      destination: "string",
      sent: "boolean",
      ok: "boolean",
      "origin?": "string",
      "credential_class?": "string",
      "doc_id?": "string",
      "link?": "string",
      "error?": "string",
    },
  },
  "mcp.egress": {
    doc: "a contained MCP server's attempt to reach a host, or (dropped) how many more were left out",
    fields: {
      server: "string",
      "method?": "string",
      "host?": "string",
      "port?": "integer",
      "connected?": "boolean",
      "reason?": "string",
      "dropped?": "integer",
    },
  },
  "setting.change": {
    doc: "a setting saved because a person chose it at a prompt",
    fields: {
      actor: "string",
      key: "string",
      value: "any",
      state: "'applied'|'failed'",
      "prompt_id?": "string",
      "error?": "string",
    },
  },
  "context.compact": {
    doc: "one compaction: what set it off, whether it compacted, sizes in estimated tokens, the handover note's reply",
    fields: {
      trigger: "'auto'|'command'|'requested'",
      compacted: "boolean",
      before_tokens: "integer",
      "after_tokens?": "integer",
      "threshold?": "integer",
      "focus?": "string",
      "note_resp_seq?": "integer",
      "note_output_tokens?": "integer",
      "note_truncated?": "boolean",
    },
  },
  "context.narrow": {
    doc: "the window narrowed: later windows start from the note (a compaction's handover, or a sub-context)",
    // from (ADR 0025): the first seq the narrowed window still shows, when not the records after this one (an eviction).
    fields: { reason: "string", "note?": "string", "resp_seq?": "integer", "label?": "string", "lasting?": "boolean", "from?": "integer" },
  },
  "context.fold": {
    doc: "the innermost narrowed context ended and is hidden from later windows",
    fields: { "narrow_seq?": "integer", "reason?": "string" },
  },
  "session.title": {
    doc: "the name a person gave the session; empty takes it back; the latest counts",
    fields: { actor: "string", title: "string" },
  },
  "session.archive": {
    doc: "a person archived the session or brought it back; the latest counts",
    fields: { actor: "string", archived: "boolean" },
  },
  "session.model": {
    doc: "the model the conversation talks to from here on, and the window recipe sized for it",
    fields: {
      model: "string",
      "from?": "string",
      "server?": "string",
      "name?": "string",
      "url?": "string",
      "actor?": "string",
      "context?": "object",
    },
  },
  checkpoint: {
    doc: "a turn's checkpoint (ADR 0027): the working tree before it changed anything and after it, as commits of the store, and the paths that differ",
    fields: { turn: "integer", before: "string", after: "string", files: "array", store: "'git'|'private'", "ref?": "string" },
  },
  "head.move": {
    doc: "the head of the session tree moved (ADR 0027: /undo, /redo, /tree): from and to are turns (0 before any); nothing is deleted",
    fields: {
      from: "integer",
      to: "integer",
      reason: "'undo'|'redo'|'tree'",
      files: "'restored'|'kept'|'none'",
      "restored?": "array",
      "kept?": "array",
      "left?": "string",
      "actor?": "string",
    },
  },
  "worktree.create": {
    doc: "the session's git worktree was made, with the uncommitted and untracked files it does not have",
    fields: { ...WORKTREE, "uncommitted?": "integer", "untracked?": "integer" },
  },
  "worktree.restore": {
    doc: "a resume made the missing worktree again",
    fields: WORKTREE,
  },
  "worktree.remove": {
    doc: "close removed the worktree and its branch, nothing in them being unlanded",
    fields: WORKTREE,
  },
  "index.update": {
    doc: "one build or refresh of a working tree's repository index: counts, never content",
    fields: {
      root: "string",
      files: "integer",
      read: "integer",
      removed: "integer",
      skipped: "integer",
      refused: "array",
      "left?": "integer",
      "more?": "boolean",
      "elapsed_ms?": "number",
    },
  },
  "jev.req": {
    doc: "a request to the judge model (named by the ADR's 2026-10-02 amendment; open shape)",
    fields: { "model?": "string", "usage?": "object" },
    open: true,
  },
  "run.state": {
    doc: "a run's own state, such as its spend limit and cost (named by the ADR's 2026-10-02 amendment; open shape)",
    fields: { "spend_limit?": "number", "cost?": "number" },
    open: true,
  },
} as const satisfies Record<string, KindSpec>;

/** A kind of record: one of the keys of KINDS. */
export type LogKind = keyof typeof KINDS;

/** Every kind, in the order of KINDS. */
export const KIND_NAMES: readonly LogKind[] = Object.keys(KINDS) as LogKind[];

const KIND_SET: ReadonlySet<string> = new Set(KIND_NAMES);

/** True when `kind` is a known kind. */
export function isKnownKind(kind: unknown): kind is LogKind {
  return typeof kind === "string" && KIND_SET.has(kind);
}

/** A JSON value as the log stores it. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** A record's payload: always a JSON object. */
export type Payload = { [key: string]: JsonValue };

/** The payload of session.start and session.resume. */
export interface SessionConfigPayload {
  /** The nodwyn version that wrote the record. */
  version: string;
  /** What opened the session: "repl", "run", "-e", "agent", … */
  origin?: string;
  cwd?: string;
  repo?: string;
  argv?: string[];
  strategy?: string;
  model?: string;
  server?: string;
  context?: { [key: string]: JsonValue };
  worktree?: { [key: string]: JsonValue };
  config?: { [key: string]: JsonValue };
  actor?: string;
  /** A session /fork made: the session, turn and seq it came from (ADR 0027). */
  forked_from?: { [key: string]: JsonValue };
}

/** The payload of eval.req. */
export interface EvalReqPayload {
  /** The Scheme source, as submitted. */
  source: string;
  /** Who submitted it: "repl", "run", "-e", "model", … */
  origin?: string;
  /** The file the source came from (nodwyn run). */
  file?: string;
  actor?: string;
}

/** The payload of eval.result. */
export interface EvalResultPayload {
  /** False when evaluation raised an error or hit a limit. */
  ok: boolean;
  /** The seq of the eval.req this answers. */
  req_seq?: number;
  /** The value(s) as `write` prints them (several values one per line). */
  value?: string;
  /** The error message, as the REPL shows it. */
  error?: string;
  /** The condition's kind: read, syntax, type, arity, range, host, limit, user. */
  error_kind?: string;
  /** What the evaluation wrote to its output port. */
  output?: string;
  elapsed_ms?: number;
}

/** The payload of session.end. */
export interface SessionEndPayload {
  reason?: string;
  exit_code?: number;
  error?: string;
}

type Check = (v: unknown) => boolean;

interface CompiledField {
  readonly name: string;
  readonly spec: string;
  readonly optional: boolean;
  readonly check: Check;
}

interface CompiledKind {
  readonly fields: readonly CompiledField[];
  readonly byName: ReadonlyMap<string, CompiledField>;
  readonly open: boolean;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

const BASIC: Record<string, Check> = {
  string: (v) => typeof v === "string",
  integer: (v) => Number.isSafeInteger(v),
  number: (v) => typeof v === "number" && Number.isFinite(v),
  boolean: (v) => typeof v === "boolean",
  object: isPlainObject,
  array: (v) => Array.isArray(v),
  null: (v) => v === null,
  // Whether the value is JSON all the way down is checked by the redactor's walk.
  any: (v) => v !== undefined,
};

function compileSpec(spec: string, where: string): Check {
  const alternatives = spec.split("|").map((part): Check => {
    const p = part.trim();
    const literal = /^'([^']*)'$/.exec(p);
    if (literal) {
      const want = literal[1];
      return (v) => v === want;
    }
    const basic = BASIC[p];
    if (!basic) throw new Error(`kinds: unknown type ${JSON.stringify(p)} in ${where}`);
    return basic;
  });
  return alternatives.length === 1 ? alternatives[0] : (v) => alternatives.some((c) => c(v));
}

function compileKind(kind: string, spec: KindSpec): CompiledKind {
  const fields: CompiledField[] = [];
  for (const [key, type] of Object.entries(spec.fields)) {
    const optional = key.endsWith("?");
    const name = optional ? key.slice(0, -1) : key;
    fields.push({ name, spec: type, optional, check: compileSpec(type, `${kind}.${name}`) });
  }
  return { fields, byName: new Map(fields.map((f) => [f.name, f])), open: spec.open === true };
}

const COMPILED: ReadonlyMap<string, CompiledKind> = new Map(
  Object.entries(KINDS).map(([k, s]) => [k, compileKind(k, s as KindSpec)]),
);

function typeName(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : Number.isFinite(v) ? "number" : String(v);
  if (typeof v === "object") return isPlainObject(v) ? "object" : `a ${(v as object).constructor?.name ?? "non-JSON"} object`;
  return typeof v;
}

/**
 * Checks `payload` against `kind`'s shape; throws LogPayloadError naming the kind
 * and the field. A field whose value is `undefined` counts as absent.
 */
export function checkPayload(kind: string, payload: unknown): asserts payload is Payload {
  const spec = COMPILED.get(kind);
  if (!spec) throw new LogPayloadError("LOG_UNKNOWN_KIND", kind, `unknown record kind ${JSON.stringify(kind)}`);
  if (!isPlainObject(payload))
    throw new LogPayloadError("LOG_BAD_PAYLOAD", kind, `bad payload for ${kind}: a JSON object expected, got ${typeName(payload)}`);
  for (const f of spec.fields) {
    const v = payload[f.name];
    if (v === undefined) {
      if (!f.optional)
        throw new LogPayloadError("LOG_BAD_PAYLOAD", kind, `bad payload for ${kind}: required field "${f.name}" (${f.spec}) is missing`);
      continue;
    }
    if (!f.check(v))
      throw new LogPayloadError(
        "LOG_BAD_PAYLOAD",
        kind,
        `bad payload for ${kind}: field "${f.name}" must be ${f.spec}, got ${typeName(v)}`,
      );
  }
  if (!spec.open) {
    for (const key of Object.keys(payload)) {
      if (payload[key] !== undefined && !spec.byName.has(key))
        throw new LogPayloadError(
          "LOG_BAD_PAYLOAD",
          kind,
          `bad payload for ${kind}: field "${key}" is not part of ${kind} (fields: ${spec.fields.map((f) => f.name).join(", ")})`,
        );
    }
  }
}

/** A kind's fields as docs/log-format.md writes them: `source: string, origin?: string`. */
export function describeFields(kind: LogKind): string {
  const spec: KindSpec = KINDS[kind];
  const parts = Object.entries(spec.fields).map(([k, t]) => `${k}: ${t}`);
  if (spec.open) parts.push("…");
  return parts.join(", ");
}
