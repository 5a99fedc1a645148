// Reading a streamed reply: server-sent events and JSON lines, from text cut anywhere, and the tool calls they assemble.

import { randomBytes } from "node:crypto";
import type { StopReason, StreamEvent, ToolCall, Usage } from "./types.js";

/** What a decoder makes of a whole reply (the transport adds wall time and attempts). */
export interface DecodedReply {
  readonly text: string;
  readonly toolCalls: readonly ToolCall[];
  readonly stopReason: StopReason;
  readonly rawStopReason?: string;
  readonly usage: Omit<Usage, "wallMs">;
  readonly model?: string;
  readonly reasoning?: string;
}

/** One protocol's reading of one attempt's response body. */
export interface Decoder {
  /** Text of the body as it arrives, cut anywhere (a UTF-8 sequence is never split: the transport decodes). */
  write(text: string): void;
  /** The body ended: the reply, or WireError "truncated" when it ended before the reply did. */
  end(): DecodedReply;
  /** A whole JSON body, for a server that answered a streamed request in one piece (optional). */
  whole?(body: unknown): DecodedReply;
}

/** How a decoder fails; the transport turns it into a ModelError naming the server. */
export class WireError extends Error {
  constructor(
    readonly kind: "protocol" | "truncated" | "server",
    message: string,
    /** For "server": the error the server sent inside the stream may pass if asked again (overloaded). */
    readonly retryable = false,
    readonly status?: number,
  ) {
    super(message);
    this.name = "WireError";
  }
}

/** A short, one-line excerpt of a wire text for an error message. */
export function excerpt(text: string, max = 120): string {
  const one = text.replace(/\s+/g, " ").trim();
  return one.length > max ? `${one.slice(0, max)}…` : one;
}

/** JSON.parse that fails as a protocol error quoting what it could not read. */
export function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new WireError("protocol", `malformed JSON in ${what}: ${excerpt(text)}`);
  }
}

/** One server-sent event: its type (default "message") and its data lines joined by newlines. */
export interface SseEvent {
  readonly event: string;
  readonly data: string;
}

/**
 * The text/event-stream format (WHATWG HTML §9.2): lines end in CRLF, LF or CR;
 * `field: value` lines, `:` comments, a blank line dispatches the event. Text
 * may be cut anywhere, a CRLF between two writes included.
 */
export class SseParser {
  private buf = "";
  private data: string[] = [];
  private type = "";
  private pendingFields = false;
  private scanned = 0;

  constructor(private readonly onEvent: (e: SseEvent) => void) {}

  write(text: string): void {
    this.buf += text;
    let start = 0;
    // Where the search for a line end resumes: the text before it held none.
    let i = this.scanned;
    for (;;) {
      while (i < this.buf.length && this.buf[i] !== "\n" && this.buf[i] !== "\r") i++;
      if (i >= this.buf.length) break;
      // A CR at the very end may be the first half of a CRLF: wait for the next write.
      if (this.buf[i] === "\r" && i + 1 >= this.buf.length) break;
      this.line(this.buf.slice(start, i));
      start = this.buf[i] === "\r" && this.buf[i + 1] === "\n" ? i + 2 : i + 1;
      i = start;
    }
    this.buf = this.buf.slice(start);
    this.scanned = i - start;
  }

  /** The stream ended; true when it ended inside an event (fields read but never dispatched). */
  end(): boolean {
    if (this.buf.endsWith("\r")) {
      this.line(this.buf.slice(0, -1));
      this.buf = "";
    }
    const cut = this.buf.length > 0 || this.pendingFields;
    this.buf = "";
    this.scanned = 0;
    this.data = [];
    this.type = "";
    this.pendingFields = false;
    return cut;
  }

  private line(line: string): void {
    if (line === "") {
      if (this.data.length) this.onEvent({ event: this.type || "message", data: this.data.join("\n") });
      this.data = [];
      this.type = "";
      this.pendingFields = false;
      return;
    }
    if (line.startsWith(":")) return;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    this.pendingFields = true;
    if (field === "data") this.data.push(value);
    else if (field === "event") this.type = value;
    // id and retry concern reconnecting EventSources, which a model request never does.
  }
}

/** Newline-delimited JSON: one value per line, text cut anywhere. */
export class LineSplitter {
  private buf = "";

  constructor(private readonly onLine: (line: string) => void) {}

  write(text: string): void {
    this.buf += text;
    let start = 0;
    let nl = this.buf.indexOf("\n");
    while (nl >= 0) {
      const line = this.buf.slice(start, nl).replace(/\r$/, "");
      if (line.trim() !== "") this.onLine(line);
      start = nl + 1;
      nl = this.buf.indexOf("\n", start);
    }
    this.buf = this.buf.slice(start);
  }

  /** The text after the last newline (a last line without one, or a line cut off). */
  rest(): string {
    const r = this.buf;
    this.buf = "";
    return r;
  }
}

/** The tool calls of a streamed reply, assembled from pieces by index, in index order. */
export class ToolCallAssembler {
  private readonly calls = new Map<number, { id: string; name: string; args: string }>();
  private readonly prefix: string;

  constructor(
    private readonly emit: ((e: StreamEvent) => void) | undefined,
    idPrefix: string,
  ) {
    this.prefix = `${idPrefix}_${randomBytes(4).toString("hex")}`;
  }

  /** A piece of call `index`: its id, its name (or part of it), more of its arguments. */
  piece(index: number, id: string | undefined, name: string | undefined, argumentsDelta: string | undefined): void {
    let c = this.calls.get(index);
    if (!c) {
      c = { id: "", name: "", args: "" };
      this.calls.set(index, c);
    }
    if (id && !c.id) c.id = id;
    // Servers send the name whole in the first piece; a few repeat it in every piece, a few split it.
    if (name && name !== c.name) c.name = c.name === "" ? name : c.name + name;
    if (argumentsDelta) c.args += argumentsDelta;
    const e: { type: "tool_call"; index: number; id?: string; name?: string; argumentsDelta?: string } = { type: "tool_call", index };
    if (id) e.id = id;
    if (name) e.name = name;
    if (argumentsDelta) e.argumentsDelta = argumentsDelta;
    this.emit?.(e);
  }

  /** A call that arrived whole (Ollama's), at the next index. */
  whole(id: string | undefined, name: string, args: string): void {
    this.piece(this.calls.size === 0 ? 0 : Math.max(...this.calls.keys()) + 1, id, name, args);
  }

  get size(): number {
    return this.calls.size;
  }

  /** The calls; one the server gave no id is given a unique one. A call without a name is a protocol error. */
  done(): ToolCall[] {
    return [...this.calls.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([index, c]) => {
        if (!c.name) throw new WireError("protocol", `tool call ${index} has no function name`);
        return { id: c.id || `${this.prefix}_${index}`, name: c.name, arguments: c.args };
      });
  }
}

/** Parses a call's arguments for a protocol that sends them as an object; anything but a JSON object becomes {}. */
export function argumentsObject(text: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(text === "" ? "{}" : text);
    return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** A finite, non-negative number from a wire field, else undefined. */
export function count(v: unknown): number | undefined {
  return typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : undefined;
}
