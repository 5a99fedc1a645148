// Test helper: the real `nodwyn` in a real pseudo-terminal (node-pty), waited on by output patterns, never by sleeping.
import { createRequire } from "node:module";
import { BIN, tempDir } from "./cli.js";

const require = createRequire(import.meta.url);
const pty = require("node-pty") as typeof import("node-pty");

/** Escape sequences (colour, cursor moves) removed: the text a person reads, roughly. */
export function plain(s: string): string {
  return s
    .replace(/\x1b\[[0-9;?]*[ -/]*[@-~]/g, "")
    .replace(/\x1b[()][A-Z0-9]/g, "")
    .replace(/\r/g, "");
}

export interface PtyOptions {
  readonly args?: string[];
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly cols?: number;
  readonly rows?: number;
  /** The data dir (a fresh temp dir by default). */
  readonly dataDir?: string;
  /** The history file (default: none kept, NODWYN_REPL_HISTORY empty). */
  readonly history?: string;
}

/** The plain text of `raw` and, for each of its characters, the raw offset just after it. */
function plainMap(raw: string): { text: string; ends: number[] } {
  const esc = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][A-Z0-9]|\r/y;
  let text = "";
  const ends: number[] = [];
  let i = 0;
  while (i < raw.length) {
    esc.lastIndex = i;
    const m = esc.exec(raw);
    if (m !== null && m.index === i) {
      i += m[0].length;
      continue;
    }
    text += raw[i];
    i++;
    ends.push(i);
  }
  return { text, ends };
}

/** Generous: the machine may be loaded. */
const TIMEOUT = 60_000;

export class Pty {
  private data = "";
  private mark = 0;
  private exited: Promise<{ code: number; signal: number | undefined }>;
  readonly proc: import("node-pty").IPty;
  readonly dataDir: string;
  /** The program's HOME (a fresh temp dir unless the env gives one). */
  readonly home: string;

  constructor(o: PtyOptions = {}) {
    this.dataDir = o.dataDir ?? tempDir("nodwyn-pty-data-");
    const home = o.env?.HOME ?? tempDir("nodwyn-pty-home-");
    this.home = home;
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
    delete env.NO_COLOR;
    delete env.FORCE_COLOR;
    Object.assign(env, { TERM: "xterm-256color", HOME: home, XDG_CONFIG_HOME: home, NODWYN_DATA_DIR: this.dataDir, NODWYN_REPL_HISTORY: o.history ?? "" }, o.env ?? {});
    for (const [k, v] of Object.entries(env)) if (v === undefined) delete env[k];
    this.proc = pty.spawn(BIN, o.args ?? ["repl"], { name: "xterm-256color", cols: o.cols ?? 100, rows: o.rows ?? 30, cwd: o.cwd ?? home, env });
    this.proc.onData((d) => {
      this.data += d;
    });
    this.exited = new Promise((resolve) => this.proc.onExit((e) => resolve({ code: e.exitCode, signal: e.signal })));
  }

  /** Everything the program wrote so far, raw. */
  get output(): string {
    return this.data;
  }

  /** Everything written so far, without escape sequences. */
  get text(): string {
    return plain(this.data);
  }

  write(s: string): void {
    this.proc.write(s);
  }

  /**
   * Waits until the output written since the last wait (or `from`) matches;
   * returns the new output up to and including the match, without escapes.
   */
  async waitFor(pattern: RegExp | string, o: { timeout?: number; raw?: boolean } = {}): Promise<string> {
    const deadline = Date.now() + (o.timeout ?? TIMEOUT);
    for (;;) {
      const chunk = this.data.slice(this.mark);
      const pm = o.raw ? null : plainMap(chunk);
      const hay = pm === null ? chunk : pm.text;
      const m = typeof pattern === "string" ? (hay.includes(pattern) ? { index: hay.indexOf(pattern), 0: pattern } : null) : pattern.exec(hay);
      if (m !== null) {
        // Move the mark past the match, in raw offsets.
        const upto = (m.index ?? 0) + (m[0] as string).length;
        this.mark += pm === null ? upto : upto === 0 ? 0 : (pm.ends[upto - 1] as number);
        return hay.slice(0, upto);
      }
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${String(pattern)}; the output since the last match:\n${JSON.stringify(hay.slice(-2000))}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  /** Types a line (Enter included) and waits for the next prompt, returning what came before it. */
  async line(s: string, prompt: RegExp | string = /\n> $/): Promise<string> {
    this.write(s + "\r");
    return this.waitFor(prompt);
  }

  /** Resolves with the exit code when the program ends. */
  async exit(timeout = TIMEOUT): Promise<{ code: number; signal: number | undefined }> {
    let timer: NodeJS.Timeout | undefined;
    const t = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the program did not exit; output:\n${JSON.stringify(this.text.slice(-2000))}`)), timeout);
    });
    try {
      return await Promise.race([this.exited, t]);
    } finally {
      clearTimeout(timer);
    }
  }

  kill(): void {
    try {
      this.proc.kill("SIGKILL");
    } catch {
      // gone already
    }
  }
}
