// What `nodwyn chat` reads from the person: entries, answers to a question, and Ctrl-C while a turn runs, behind one small interface.
//
// At a terminal it is the REPL's terminal module (host/cli/terminal/): the
// line editor with its keys and a history of its own (~/.nodwyn_chat_history,
// NODWYN_CHAT_HISTORY; empty keeps none), raw mode for the whole chat, so a
// Ctrl-C while a turn runs reaches the chat and keys typed ahead wait for the
// next prompt. Piped input is read line by line (LineInput), without prompts;
// SIGINT then cancels the running turn.

import { join } from "node:path";
import { homedir } from "node:os";
import { Terminal } from "./terminal/terminal.js";
import { History } from "./terminal/history.js";
import { LineInput } from "./terminal/line-input.js";
import { colorEnabled, styleFor } from "./terminal/style.js";

/** The /commands Tab completes at the start of an entry. */
const SLASH_COMMANDS = ["/help"];

/** The person's side of a chat. */
export interface ChatInput {
  /** The next entry; null at the end of input (Ctrl-D on an empty entry). A Ctrl-C at the prompt drops the entry and asks again. */
  readLine(prompt: string): Promise<string | null>;
  /** Runs a turn: Ctrl-C (SIGINT for piped input) calls onInterrupt instead of editing. */
  busy<T>(onInterrupt: () => void, work: () => Promise<T>): Promise<T>;
  /** One line answered while a turn runs (an approval); null for Ctrl-C or the end of input. */
  question(prompt: string): Promise<string | null>;
  /** Called before each prompt: whether the last output left the cursor mid-line. */
  midLine?: () => boolean;
  /** Whether a person is typing at a terminal. */
  readonly interactive: boolean;
  close(): void;
}

/** Where chat keeps its history: NODWYN_CHAT_HISTORY (empty: none), else ~/.nodwyn_chat_history. */
export function chatHistoryFile(env: NodeJS.ProcessEnv): string | null {
  const v = env.NODWYN_CHAT_HISTORY;
  if (v !== undefined) return v.trim() === "" ? null : v;
  return join(env.HOME || homedir(), ".nodwyn_chat_history");
}

/** A ChatInput on the process's standard input: the terminal module at a TTY, lines otherwise. */
export function chatInput(stdin: NodeJS.ReadableStream & { isTTY?: boolean }, stdout: NodeJS.WritableStream, env: NodeJS.ProcessEnv): ChatInput {
  if (stdin.isTTY === true && (stdout as { isTTY?: boolean }).isTTY === true) return terminalInput(stdin as NodeJS.ReadStream, stdout as NodeJS.WriteStream, env);
  return pipedInput(stdin as NodeJS.ReadStream);
}

function terminalInput(stdin: NodeJS.ReadStream, stdout: NodeJS.WriteStream, env: NodeJS.ProcessEnv): ChatInput {
  const terminal = new Terminal({ input: stdin, output: stdout });
  const history = new History({ file: chatHistoryFile(env), onError: (m) => stdout.write(`nodwyn chat: history: ${m}\n`) });
  const style = styleFor(colorEnabled(stdout, env));
  // Tab completes a /command typed at the start of the entry.
  const complete = (text: string, cursor: number) => {
    const head = text.slice(0, cursor);
    return /^\/\S*$/.test(head) ? { start: 0, candidates: SLASH_COMMANDS.filter((c) => c.startsWith(head)) } : null;
  };
  terminal.start();
  const input: ChatInput = {
    interactive: true,
    async readLine(prompt) {
      terminal.freshLine = () => (input.midLine?.() ? "\n" : "");
      for (;;) {
        const r = await terminal.readEntry({ prompt: style.prompt(prompt), continuation: style.prompt(". "), history, complete });
        if (r.kind === "eof") return null;
        if (r.kind === "entry") return r.text;
        // Ctrl-C at the prompt dropped the entry; say how to leave, as the REPL does.
        if (r.text.trim() === "") terminal.write(style.dim("(Ctrl-D ends the session)") + "\r\n");
      }
    },
    busy: (onInterrupt, work) => terminal.busy(onInterrupt, work),
    question: (prompt) => terminal.question(prompt),
    close: () => terminal.close(),
  };
  return input;
}

function pipedInput(stdin: NodeJS.ReadStream): ChatInput {
  const lines = new LineInput(stdin);
  // SIGINT cancels a running turn; with none running it ends the input, as Ctrl-D would.
  let onInterrupt: (() => void) | null = null;
  let idle: ((v: null) => void) | null = null;
  const onSigint = () => {
    if (onInterrupt !== null) onInterrupt();
    else idle?.(null);
  };
  process.on("SIGINT", onSigint);
  const next = async (): Promise<string | null> => {
    const l = await Promise.race([lines.nextLine(), new Promise<null>((r) => (idle = r))]);
    idle = null;
    return l === null ? null : l.replace(/\r?\n$/, "");
  };
  return {
    interactive: false,
    readLine: () => next(),
    async busy(handler, work) {
      onInterrupt = handler;
      try {
        return await work();
      } finally {
        onInterrupt = null;
      }
    },
    question: () => next(),
    close() {
      process.off("SIGINT", onSigint);
      stdin.pause();
    },
  };
}
