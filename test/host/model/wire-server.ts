// A real HTTP server on 127.0.0.1 for the wire tests: each request is answered by the next queued responder, and recorded.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A request as the server received it. */
export interface Received {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage["headers"];
  readonly body: unknown;
  readonly raw: string;
}

/** Answers one request. */
export type Responder = (res: ServerResponse, req: Received) => void | Promise<void>;

export class WireServer {
  readonly requests: Received[] = [];
  private readonly queue: Responder[] = [];

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<WireServer> {
    let self: WireServer | undefined;
    const server = createServer((req, res) => {
      const parts: Buffer[] = [];
      req.on("data", (b: Buffer) => parts.push(b));
      req.on("end", () => {
        const raw = Buffer.concat(parts).toString("utf8");
        let body: unknown = raw;
        try {
          body = JSON.parse(raw);
        } catch {
          // kept as text
        }
        const r: Received = { method: req.method ?? "", path: req.url ?? "", headers: req.headers, body, raw };
        self!.requests.push(r);
        const next = self!.queue.shift();
        if (!next) {
          res.writeHead(599, { "content-type": "text/plain" }).end("the test queued no responder for this request");
          return;
        }
        Promise.resolve(next(res, r)).catch((e: unknown) => {
          res.destroy(e instanceof Error ? e : new Error(String(e)));
        });
      });
    });
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    const { port } = server.address() as AddressInfo;
    self = new WireServer(server, `http://127.0.0.1:${port}`);
    return self;
  }

  /** Queues responders for the next requests, in order. */
  answer(...responders: Responder[]): void {
    this.queue.push(...responders);
  }

  get pending(): number {
    return this.queue.length;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((done) => this.server.close(() => done()));
  }
}

/** Waits a little, so that the client reads what was written so far as its own chunk. */
export function tick(ms = 1): Promise<void> {
  return new Promise((done) => setTimeout(done, ms));
}

/** Cuts bytes into pieces of 1 to max bytes (UTF-8 sequences and lines split anywhere), deterministically from seed. */
export function cutBytes(text: string, seed: number, max = 7): Buffer[] {
  const bytes = Buffer.from(text, "utf8");
  const out: Buffer[] = [];
  let s = seed >>> 0 || 1;
  for (let i = 0; i < bytes.length; ) {
    s = (s * 1103515245 + 12345) >>> 0;
    const n = 1 + (s % max);
    out.push(bytes.subarray(i, i + n));
    i += n;
  }
  return out;
}

/** Options of stream(). */
export interface StreamOptions {
  readonly status?: number;
  readonly headers?: Record<string, string>;
  /** Pause between pieces (ms); 0 writes them back to back. */
  readonly gapMs?: number;
  /** Destroy the connection after this many pieces, without ending the response. */
  readonly dropAfter?: number;
}

/** A responder writing pieces one after another (each flushed), then ending, or dropping the connection part way. */
export function stream(contentType: string, pieces: readonly (string | Buffer)[], o: StreamOptions = {}): Responder {
  return async (res) => {
    res.writeHead(o.status ?? 200, { "content-type": contentType, ...(o.headers ?? {}) });
    res.flushHeaders();
    for (let i = 0; i < pieces.length; i++) {
      if (res.destroyed || res.writableEnded) return; // the client went away
      if (o.dropAfter !== undefined && i >= o.dropAfter) {
        await tick(5);
        res.socket?.destroy();
        return;
      }
      res.write(pieces[i]);
      if (o.gapMs === undefined || o.gapMs > 0) await tick(o.gapMs ?? 1);
    }
    if (o.dropAfter !== undefined) {
      await tick(5);
      res.socket?.destroy();
      return;
    }
    res.end();
  };
}

/** A responder answering with a status and a body at once. */
export function status(code: number, body: string, headers: Record<string, string> = {}): Responder {
  return (res) => {
    res.writeHead(code, { "content-type": "application/json", ...headers });
    res.end(body);
  };
}

/** A responder that sends its headers and then nothing, until the client goes away. */
export function silent(contentType: string, beforeHeaders = false): Responder {
  return (res) =>
    new Promise<void>((done) => {
      if (!beforeHeaders) {
        res.writeHead(200, { "content-type": contentType });
        res.flushHeaders();
      }
      res.on("close", () => done());
    });
}

/** A responder that drops the connection before any response. */
export function hangUp(): Responder {
  return (res) => {
    res.socket?.destroy();
  };
}

/** Server-sent events: each event's lines, a blank line after each. */
export function sseText(events: readonly { event?: string; data: unknown }[]): string {
  return events
    .map((e) => `${e.event ? `event: ${e.event}\n` : ""}data: ${typeof e.data === "string" ? e.data : JSON.stringify(e.data)}\n\n`)
    .join("");
}

/** JSON lines. */
export function ndjsonText(objects: readonly unknown[]): string {
  return objects.map((o) => JSON.stringify(o) + "\n").join("");
}
