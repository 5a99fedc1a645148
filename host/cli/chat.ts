// `nodwyn chat`'s conversation: the prompt, the reply streamed as it arrives, a line per tool call, a footer per turn.

import type { AgentSession, TurnObserver, TurnResult } from "../session/agent.js";
import type { ApprovalAnswer, ApprovalRequest } from "../shell/index.js";
import type { StreamEvent } from "../model/types.js";
import type { AskRequest } from "../guard/index.js";
import type { ChatInput } from "./chat-input.js";
import { colorEnabled } from "./terminal/style.js";
import { treeCommand, type TreeChat } from "./chat-tree.js";
import { contextCommand } from "./chat-context.js";

/** Colour as the terminal module decides it: --color / --no-color, FORCE_COLOR, NO_COLOR, a TTY, TERM=dumb. */
export function useColor(out: { isTTY?: boolean }, env: NodeJS.ProcessEnv, forced?: boolean): boolean {
  return colorEnabled(out, env, forced);
}

/** A tool call's arguments, one line, at most `max` characters. */
export function shortArgs(json: string, max = 60): string {
  let s: string;
  try {
    const v = JSON.parse(json || "{}");
    s =
      v !== null && typeof v === "object" && !Array.isArray(v)
        ? Object.entries(v)
            .map(([k, x]) => `${k}=${JSON.stringify(x)}`)
            .join(" ")
        : JSON.stringify(v);
  } catch {
    s = json;
  }
  s = s.replace(/\s+/g, " ");
  return s.length > max ? s.slice(0, max - 1) + "…" : s;
}

/** A size in characters as a person reads it: 812 chars, 3.4 KB, 1.2 MB. */
export function size(chars: number): string {
  if (chars < 1000) return `${chars} chars`;
  if (chars < 1_000_000) return `${(chars / 1000).toFixed(1)} KB`;
  return `${(chars / 1_000_000).toFixed(1)} MB`;
}

function ms(n: number): string {
  return n < 1000 ? `${n} ms` : `${(n / 1000).toFixed(1)} s`;
}

/** The footer after a turn: model, tokens, cost, time, and how it ended when not done. */
export function footer(agent: AgentSession, r: TurnResult): string {
  const tokens =
    r.unreported > 0 && r.unreported === r.modelCalls
      ? "tokens not reported"
      : `${r.inputTokens.toLocaleString("en-US")} in · ${r.outputTokens.toLocaleString("en-US")} out tokens${r.unreported > 0 ? ` (${r.unreported} ${r.unreported === 1 ? "reply" : "replies"} unreported)` : ""}`;
  const parts = [agent.model.id, `turn ${r.turn}`, tokens];
  if (r.cost !== undefined) parts.push(`$${r.cost.toFixed(4)}`);
  parts.push(ms(r.elapsedMs));
  if (r.outcome !== "done") parts.push(r.outcome + (r.error ? `: ${r.error}` : ""));
  return `[${parts.join(" · ")}]`;
}

/** Writes a turn as it happens: what the observer of the agent session is told, shown on `out`. */
export class ChatView implements TurnObserver {
  private lineOpen = false;
  private streaming = false;
  constructor(
    private readonly out: NodeJS.WritableStream,
    private readonly color: boolean,
  ) {}

  private dim(s: string): string {
    return this.color ? `\x1b[2m${s}\x1b[22m` : s;
  }

  private red(s: string): string {
    return this.color ? `\x1b[31m${s}\x1b[39m` : s;
  }

  /** Whether the last thing written left the cursor mid-line. */
  midLine(): boolean {
    return this.lineOpen;
  }

  /** Ends a line left open (a streamed reply, a tool line), before anything else is written. */
  newline(): void {
    if (this.lineOpen) this.out.write("\n");
    this.lineOpen = false;
    this.streaming = false;
  }

  write(text: string): void {
    this.newline();
    this.out.write(text.endsWith("\n") ? text : text + "\n");
  }

  onStream(ev: StreamEvent): void {
    if (ev.type === "text" && ev.delta) {
      if (!this.streaming) this.newline();
      this.streaming = true;
      this.out.write(ev.delta);
      this.lineOpen = !ev.delta.endsWith("\n");
    } else if (ev.type === "reasoning" && ev.delta) {
      if (!this.streaming) this.newline();
      this.streaming = true;
      this.out.write(this.dim(ev.delta));
      this.lineOpen = !ev.delta.endsWith("\n");
    } else if (ev.type === "retry") {
      this.write(this.dim(`[the model's reply failed (${ev.reason}); trying again in ${ms(ev.delayMs)}]`));
    }
  }

  onToolStart(call: { readonly name: string; readonly arguments: string }): void {
    this.newline();
    this.out.write(this.dim(`  ⏺ ${call.name} ${shortArgs(call.arguments)}`));
    this.lineOpen = true;
  }

  onToolEnd(r: { readonly name: string; readonly arguments: string; readonly ok: boolean; readonly chars: number; readonly durationMs: number; readonly error?: string }): void {
    const tail = r.ok ? this.dim(` → ${size(r.chars)}, ${ms(r.durationMs)}`) : this.red(` → error, ${ms(r.durationMs)}: ${(r.error ?? "").split("\n")[0]!.slice(0, 100)}`);
    if (!this.lineOpen) this.out.write(this.dim(`  ⏺ ${r.name} ${shortArgs(r.arguments)}`));
    this.out.write(tail + "\n");
    this.lineOpen = false;
  }

  onCheckpoint(b: { readonly dimension: string; readonly used: number; readonly limit: number }): void {
    this.write(this.dim(`[budget reached: ${b.dimension} ${b.used} of ${b.limit}]`));
  }

  onStrategyOutput(text: string): void {
    this.newline();
    this.out.write(this.dim(text));
    this.lineOpen = !text.endsWith("\n");
  }

  footer(agent: AgentSession, r: TurnResult): void {
    this.newline();
    this.out.write(this.dim(footer(agent, r)) + "\n");
  }
}

/** Asks the person whether a command may run, on the chat's input. */
export function askOnInput(input: ChatInput, view: ChatView): (req: ApprovalRequest) => Promise<ApprovalAnswer> {
  return async (req) => {
    view.newline();
    const write = req.kind === "write";
    const always =
      req.prefix !== null ? (write ? `, [a]lways for ${req.prefix.endsWith("/") ? `files under ${req.prefix}` : req.prefix} in this session` : `, [a]lways for "${req.prefix}" in this session`) : "";
    const what = write ? `Write ${req.command}${req.detail ? ` (${req.detail})` : ""}?` : `Run \`${req.command}\`?`;
    for (;;) {
      const a = await input.question(`${what} [o]nce${always}, [n]ever: `);
      const k = (a ?? "n").trim().toLowerCase();
      if (k === "o" || k === "once" || k === "y" || k === "yes") return "once";
      if ((k === "a" || k === "always") && req.prefix !== null) return "session";
      if (k === "n" || k === "never" || k === "no" || a === null) return "never";
    }
  };
}

/**
 * A checker's `ask` verdict put to the person while the turn runs: y lets the
 * model read the file; n, an empty answer, Ctrl-C or the end of input deny it.
 */
export function askGuardOnInput(input: ChatInput, view: ChatView): (req: AskRequest) => Promise<"allow" | "deny"> {
  return async (req) => {
    view.write(`checker ${req.checker} asks about ${req.path}: ${req.reason}`);
    for (;;) {
      const a = await input.question(`let the model read ${req.path}? [y/N] `);
      if (a === null) return "deny";
      const k = a.trim().toLowerCase();
      if (k === "y" || k === "yes") return "allow";
      if (k === "" || k === "n" || k === "no") return "deny";
    }
  };
}

const HELP = `Type a message and press Enter (Alt-Enter for a new line; Up and Ctrl-R for earlier messages). Ctrl-C cancels
the running turn (the session stays), or drops what you are typing; Ctrl-D on an empty line ends the session.
The session tree: /tree (or /checkpoints) shows every turn, /tree N continues from turn N, /undo rewinds the
last turn and restores the files it changed (/undo --keep-files leaves them), /redo returns to the branch the
last rewind left, /fork starts a new session at the head. /model NAME talks to another configured model from
the next turn, /title TEXT names the session. A checker's question (let the model read FILE? [y/N]) is answered
here too. /context shows the context window, where its size came from and how much the window uses (/context set N
records the model's size). /help shows this; other /commands go to the strategy (/compact, /evict).
`;

/**
 * The conversation: a turn per entry of the person, until the input ends.
 * Ctrl-C while a turn runs cancels it (turn.end cancelled) and the chat goes on.
 */
export async function runChat(
  first: AgentSession,
  input: ChatInput,
  view: ChatView,
  out: NodeJS.WritableStream,
  more: Pick<TreeChat, "switchTo" | "switchModel"> = {},
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  input.midLine = () => view.midLine();
  const tree: TreeChat = { agent: first, input, write: (t) => view.write(t), ...more };
  let agent = first;
  for (;;) {
    const line = await input.readLine("> ");
    if (line === null) break;
    const text = line.trim();
    if (text === "") continue;
    if (text.startsWith("/")) {
      const [name, ...rest] = text.slice(1).split(/\s+/);
      if (name === "help" || name === "?") out.write(HELP);
      else if (name === "quit" || name === "exit") break;
      else if (name === "context") view.write(contextCommand(agent, rest.join(" "), env));
      else if (await treeCommand(tree, name ?? "", rest.join(" ")).catch((e) => (view.write(`/${name}: ${(e as Error).message}`), true))) agent = tree.agent;
      else if (!(await agent.command(name ?? "", rest.join(" ")).catch((e) => (view.write(`/${name}: ${(e as Error).message}`), true))))
        view.write(`unknown command /${name}: /help lists the commands`);
      continue;
    }
    const running = new AbortController();
    let interrupted = false;
    const r = await input.busy(
      () => {
        interrupted = true;
        running.abort();
      },
      () => agent.turn(text, { signal: running.signal }),
    );
    // The terminal echoed ^C where the cursor was: the footer starts a line of its own.
    if (interrupted && input.interactive) out.write("\n");
    view.footer(agent, r);
  }
  view.newline();
  return 0;
}
