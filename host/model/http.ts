// One model request over HTTP with Node's fetch: timeouts, cancellation, retries with backoff and jitter, every failure named.
//
// Retried (up to `retries` more attempts): 408, 429 and 5xx statuses, a
// connection reset or dropped before or during the reply, a stream that ends
// before the reply does, and an error the server sends inside the stream that
// says to try again (Anthropic's overloaded_error). A Retry-After (seconds or
// an HTTP date) or retry-after-ms header sets the delay; otherwise it doubles
// from baseDelayMs with jitter. Not retried: other statuses, a refused
// connection or unknown host (the server is not there: say so at once), a
// timeout (the server is slow: a second wait would double it), malformed
// replies, cancellation. wall_ms is the successful attempt's time alone.

import type { Redactor } from "../redact/index.js";
import type { RetryTiming } from "./spec.js";
import { WireError, excerpt, type Decoder, type DecodedReply } from "./stream.js";
import { ModelError, type ModelErrorCode, type ModelResponse, type StreamEvent } from "./types.js";

/** One request as a protocol builds it. */
export interface WireRequest {
  /** The [servers.NAME] entry, for messages. */
  readonly server: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** A fresh decoder for each attempt. */
  readonly decoder: (emit: ((e: StreamEvent) => void) | undefined) => Decoder;
}

/** How the transport behaves. */
export interface TransportOptions {
  readonly timeoutMs: number;
  readonly idleTimeoutMs: number;
  /** Attempts after the first. */
  readonly retries: number;
  readonly retry?: RetryTiming;
  readonly redactor: Redactor;
  readonly signal?: AbortSignal;
  readonly onEvent?: (e: StreamEvent) => void;
}

const DEFAULT_BASE_DELAY_MS = 500;
const DEFAULT_MAX_DELAY_MS = 30_000;
const DEFAULT_MAX_RETRY_AFTER_MS = 120_000;
const ERROR_BODY_MAX = 64 * 1024;

// A failed attempt: the error to report, whether another attempt may succeed, and how long the server asked to wait.
class Failure {
  constructor(
    readonly code: ModelErrorCode,
    readonly detail: string,
    readonly retryable: boolean,
    readonly status?: number,
    readonly retryAfterMs?: number,
  ) {}
}

/** The delay a Retry-After / retry-after-ms header asks for, in milliseconds; undefined when none is usable. */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const ms = headers.get("retry-after-ms");
  if (ms !== null && /^\s*\d+(\.\d+)?\s*$/.test(ms)) return Number(ms);
  const ra = headers.get("retry-after");
  if (ra === null) return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(ra)) return Number(ra) * 1000;
  const at = Date.parse(ra);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The backoff before attempt `next` (2, 3, …): doubling from base, capped, half of it random ("equal jitter"). */
export function backoffMs(next: number, timing: RetryTiming = {}, random: () => number = Math.random): number {
  const base = timing.baseDelayMs ?? DEFAULT_BASE_DELAY_MS;
  const cap = Math.min(timing.maxDelayMs ?? DEFAULT_MAX_DELAY_MS, base * 2 ** Math.max(0, next - 2));
  return cap / 2 + (random() * cap) / 2;
}

// The message a server put in an error body: OpenAI's and Anthropic's {error: {message}}, Ollama's {error: "…"}, or the text.
function serverMessage(body: string): string {
  try {
    const j = JSON.parse(body) as Record<string, unknown>;
    const e = j.error;
    if (typeof e === "string") return excerpt(e, 300);
    if (e && typeof e === "object") {
      const m = (e as Record<string, unknown>).message;
      const type = (e as Record<string, unknown>).type;
      if (typeof m === "string") return excerpt(typeof type === "string" && type !== "" ? `${m} (${type})` : m, 300);
    }
    if (typeof j.message === "string") return excerpt(j.message, 300);
    if (typeof j.detail === "string") return excerpt(j.detail, 300);
  } catch {
    // not JSON: the text itself
  }
  return excerpt(body, 300);
}

function causeCode(e: unknown): string | undefined {
  let c: unknown = e;
  for (let depth = 0; depth < 5 && c; depth++) {
    const code = (c as { code?: unknown }).code;
    if (typeof code === "string") return code;
    c = (c as { cause?: unknown }).cause;
  }
  return undefined;
}

function networkFailure(e: unknown, phase: "connect" | "body"): Failure {
  const code = causeCode(e);
  if (code === "ECONNREFUSED") return new Failure("network", "connection refused: is the server running at that address?", false);
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return new Failure("network", "host not found: check the server's url", false);
  if (code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT")
    return new Failure("timeout", "no answer within Node's own 300 s limit", false);
  const why = code ? `${code}` : (e as Error)?.message || "connection failed";
  if (phase === "body") return new Failure("truncated", `the connection dropped in the middle of the reply (${why})`, true);
  return new Failure("network", `the connection failed (${why})`, true);
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  return new Promise((done) => {
    if (signal?.aborted) return done(false);
    const onAbort = (): void => {
      clearTimeout(timer);
      done(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      done(true);
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

// The URL as shown in messages: no credentials, no query.
function shownUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return url;
  }
}

/** Sends a request, retrying as the header says; resolves to the reply or rejects with a ModelError naming the server. */
export async function sendRequest(req: WireRequest, o: TransportOptions): Promise<ModelResponse> {
  const where = `server ${req.server} (POST ${shownUrl(req.url)})`;
  const fail = (code: ModelErrorCode, detail: string, status: number | undefined, attempts: number): ModelError => {
    const tries = attempts > 1 ? ` (after ${attempts} attempts)` : "";
    const message = o.redactor.redactText(`${where}: ${detail}${tries}`).text;
    return new ModelError(code, req.server, message, status, attempts);
  };
  const cancelled = (attempts: number): ModelError => fail("cancelled", "the request was cancelled", undefined, attempts);
  const maxRetryAfter = o.retry?.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS;
  const attemptsAllowed = 1 + Math.max(0, o.retries);

  for (let attempt = 1; ; attempt++) {
    if (o.signal?.aborted) throw cancelled(attempt - 1 || 1);
    const result = await oneAttempt(req, o);
    if (!(result instanceof Failure)) return { ...result, attempts: attempt };
    if (result.code === "cancelled") throw cancelled(attempt);
    if (!result.retryable || attempt >= attemptsAllowed) {
      const status = result.status;
      throw fail(result.code, result.detail, status, attempt);
    }
    let delay = result.retryAfterMs;
    if (delay !== undefined && delay > maxRetryAfter)
      throw fail(
        result.code,
        `${result.detail}; the server asks to retry after ${Math.ceil(delay / 1000)} s, longer than nodwyn waits (${Math.ceil(maxRetryAfter / 1000)} s)`,
        result.status,
        attempt,
      );
    delay ??= backoffMs(attempt + 1, o.retry);
    o.onEvent?.({ type: "retry", attempt: attempt + 1, delayMs: delay, reason: result.detail });
    if (!(await sleep(delay, o.signal))) throw cancelled(attempt);
  }
}

type Reply = Omit<ModelResponse, "attempts">;

// One attempt: its own abort controller, fired by the caller's signal, the whole-attempt timer or the silence timer.
async function oneAttempt(req: WireRequest, o: TransportOptions): Promise<Reply | Failure> {
  const ac = new AbortController();
  let why: "cancelled" | "timeout" | "idle" | undefined;
  const stop = (reason: "cancelled" | "timeout" | "idle"): void => {
    why ??= reason;
    ac.abort();
  };
  const onAbort = (): void => stop("cancelled");
  o.signal?.addEventListener("abort", onAbort, { once: true });
  const total = setTimeout(() => stop("timeout"), o.timeoutMs);
  let idle = setTimeout(() => stop("idle"), o.idleTimeoutMs);
  const heard = (): void => {
    clearTimeout(idle);
    idle = setTimeout(() => stop("idle"), o.idleTimeoutMs);
  };
  const stopped = (): Failure => {
    if (why === "cancelled") return new Failure("cancelled", "the request was cancelled", false);
    if (why === "timeout") return new Failure("timeout", `no complete reply within ${fmtSeconds(o.timeoutMs)} (its timeout)`, false);
    return new Failure("timeout", `the server was silent for ${fmtSeconds(o.idleTimeoutMs)} (its idle_timeout)`, false);
  };
  // An exception thrown by the caller's onEvent is the caller's: it ends the request as it is, never as a network error.
  let emitError: { e: unknown } | undefined;
  const user = o.onEvent;
  const emit = user
    ? (ev: StreamEvent): void => {
        // Once the attempt is stopped (cancelled, timed out), what is left of the chunk being read is not shown.
        if (why !== undefined) return;
        try {
          user(ev);
        } catch (e) {
          emitError ??= { e };
          throw e;
        }
      }
    : undefined;
  const started = performance.now();
  // Set once the reply was read to its end: the connection may then go back to the pool.
  let whole = false;
  try {
    let res: Response;
    try {
      res = await fetch(req.url, { method: "POST", headers: req.headers, body: req.body, signal: ac.signal });
    } catch (e) {
      return why ? stopped() : networkFailure(e, "connect");
    }
    heard();
    if (!res.ok) {
      let body = "";
      try {
        body = await readText(res, ERROR_BODY_MAX, heard);
      } catch (e) {
        if (why) return stopped();
        void e; // the status says enough
      }
      const status = res.status;
      const should = res.headers.get("x-should-retry");
      const retryable = should === "true" ? true : should === "false" ? false : status === 408 || status === 429 || status >= 500;
      const text = body.trim() ? `: ${serverMessage(body)}` : "";
      return new Failure("http", `HTTP ${status}${res.statusText ? ` ${res.statusText}` : ""}${text}`, retryable, status, retryAfterMs(res.headers));
    }
    const decoder = req.decoder(emit);
    const type = (res.headers.get("content-type") ?? "").toLowerCase();
    if (type.includes("text/html")) {
      // A proxy's or a login page, not a model's reply: say what came instead of calling it a cut-off stream.
      const page = await readText(res, ERROR_BODY_MAX, heard).catch(() => "");
      return new Failure("protocol", `the server answered with a web page (${type}), not a model's reply: ${excerpt(page)}`, false);
    }
    let reply: DecodedReply;
    try {
      if (decoder.whole && type.includes("application/json")) {
        const body = await readText(res, 64 * 1024 * 1024, heard);
        let json: unknown;
        try {
          json = JSON.parse(body);
        } catch {
          return new Failure("protocol", `malformed JSON in the reply: ${excerpt(body)}`, false);
        }
        reply = decoder.whole(json);
      } else {
        await readStream(res, decoder, heard);
        reply = decoder.end();
      }
    } catch (e) {
      if (emitError && e === emitError.e) throw e;
      if (why) return stopped();
      if (e instanceof WireError) {
        if (e.kind === "truncated") return new Failure("truncated", e.message, true);
        if (e.kind === "server") return new Failure("http", e.message, e.retryable, e.status);
        return new Failure("protocol", e.message, false);
      }
      return networkFailure(e, "body");
    }
    const wallMs = performance.now() - started;
    whole = true;
    return { ...reply, usage: { ...reply.usage, wallMs } };
  } finally {
    clearTimeout(total);
    clearTimeout(idle);
    o.signal?.removeEventListener("abort", onAbort);
    // Whatever is left of a failed attempt's body is not wanted: free the connection.
    if (!whole && !ac.signal.aborted) ac.abort();
  }
}

function fmtSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

async function readStream(res: Response, decoder: Decoder, heard: () => void): Promise<void> {
  if (!res.body) return;
  const reader = res.body.getReader();
  const text = new TextDecoder("utf-8");
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    heard();
    decoder.write(text.decode(value, { stream: true }));
  }
  const last = text.decode();
  if (last) decoder.write(last);
}

async function readText(res: Response, max: number, heard: () => void): Promise<string> {
  if (!res.body) return "";
  const reader = res.body.getReader();
  const text = new TextDecoder("utf-8");
  let out = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    heard();
    out += text.decode(value, { stream: true });
    if (out.length > max) {
      await reader.cancel().catch(() => undefined);
      break;
    }
  }
  return out + text.decode();
}
