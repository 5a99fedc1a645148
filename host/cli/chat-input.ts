// What `nodwyn chat` reads from the person: lines, answers to a question, and Ctrl-C, behind one small interface.
//
// The implementation is node:readline for now; the REPL's terminal module
// (line editing, history, completion) can replace it without touching chat.
// Lines typed or piped while a turn runs are queued, not lost.

import type { Interface as ReadlineInterface } from "node:readline";

/** The person's side of a chat. */
export interface ChatInput {
  /** The next line (without its newline); null at the end of input (Ctrl-D). */
  readLine(prompt: string): Promise<string | null>;
  /** Called on Ctrl-C while no line is being read (at a terminal's prompt Ctrl-C clears the line), or on SIGINT when the input is not a terminal. */
  onInterrupt(handler: () => void): void;
  /** Whether a person is typing at a terminal. */
  readonly interactive: boolean;
  close(): void;
}

/** A ChatInput over node:readline on the given streams. */
export function readlineInput(input: NodeJS.ReadableStream & { isTTY?: boolean }, output: NodeJS.WritableStream): ChatInput {
  // getBuiltinModule also works when started from the snapshot (no import() there).
  const { createInterface } = process.getBuiltinModule("node:readline") as typeof import("node:readline");
  const terminal = input.isTTY === true;
  const rl: ReadlineInterface = createInterface({ input, output, terminal, historySize: terminal ? 100 : 0 });
  const queue: string[] = [];
  let waiting: ((line: string | null) => void) | null = null;
  let closed = false;
  let interrupt: (() => void) | null = null;
  rl.on("line", (line) => {
    if (waiting !== null) {
      const w = waiting;
      waiting = null;
      w(line);
    } else queue.push(line);
  });
  rl.on("close", () => {
    closed = true;
    if (waiting !== null) {
      const w = waiting;
      waiting = null;
      w(null);
    }
  });
  const onSigint = () => interrupt?.();
  if (terminal)
    rl.on("SIGINT", () => {
      // At the prompt, Ctrl-C clears the line; while a turn runs, it is the chat's to handle.
      if (waiting === null) return onSigint();
      rl.write(null, { ctrl: true, name: "e" });
      rl.write(null, { ctrl: true, name: "u" });
      output.write("^C (Ctrl-D ends the session)\n");
      rl.prompt();
    });
  else process.on("SIGINT", onSigint);
  return {
    interactive: terminal,
    readLine(prompt: string): Promise<string | null> {
      if (queue.length > 0) return Promise.resolve(queue.shift() as string);
      if (closed) return Promise.resolve(null);
      return new Promise((resolve) => {
        waiting = resolve;
        // Piped input gets no prompt: its lines are not typed in answer to one.
        if (terminal) {
          rl.setPrompt(prompt);
          rl.prompt();
        }
      });
    },
    onInterrupt(handler: () => void): void {
      interrupt = handler;
    },
    close(): void {
      if (!terminal) process.off("SIGINT", onSigint);
      rl.close();
    },
  };
}
