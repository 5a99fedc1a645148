// Whether a shell command may run: the configured allow-list, the person's answers in this session, or a refusal.
//
// Nothing runs unasked. A command runs without a question when it starts with
// a prefix of the configured allow-list or one the person allowed "always" in
// this session; a prefix the person refused ("never") is refused without a
// question; anything else is asked (once / always for this prefix / never),
// or, with no one to ask (headless `nodwyn ask`), refused. A prefix is whole
// words, and only a simple command matches one: a command holding shell
// control characters (; & | ` $( > < newline, parentheses) could run anything
// after its first words, so it is always asked about, and "always" is not
// offered for it.
//
// File writes (fs-write, fs-edit) are approved by the same machinery, under
// their own lists: "always" allows the file's directory and everything below
// it (src/a.ts → "src/"; a file at the root allows that file only), "never"
// refuses it for the session; a write is never covered by a command's prefix.

/** The person's answer to an approval prompt. */
export type ApprovalAnswer = "once" | "session" | "never";

/** What the person is asked. */
export interface ApprovalRequest {
  /** What is asked about: a command (the default) or a file write. */
  readonly kind?: "command" | "write";
  /** The command line, or for a write the file's path relative to the root. */
  readonly command: string;
  /** For a write: what it does ("write 120 bytes to a new file", "replace 1 occurrence"). */
  readonly detail?: string;
  /** The prefix "always" would allow (null for a command no prefix can cover). */
  readonly prefix: string | null;
  /** Identifies this prompt in the approval.change record. */
  readonly promptId: string;
}

/** How a session asks its person; null when no one can answer. */
export type AskApproval = (req: ApprovalRequest) => Promise<ApprovalAnswer>;

/** What approval.change records: the requested scope, before it is applied. */
export interface ApprovalChange {
  readonly actor: string;
  readonly scope: ApprovalAnswer;
  readonly kind: "command" | "write";
  readonly prefix?: string;
  readonly prompt_id: string;
}

/** The decision about one command. */
export interface ApprovalDecision {
  readonly allowed: boolean;
  /** config (the allow-list), session (an earlier "always"), person (this answer), refused (an earlier "never"), unattended (no one to ask). */
  readonly by: "config" | "session" | "person" | "refused" | "unattended";
  /** Said to the model when refused. */
  readonly reason?: string;
}

const CONTROL = /[;&|`<>()\n\r]|\$\(|\$\{/;

/** Words of a simple command, or null when it holds shell control characters. */
export function simpleWords(command: string): string[] | null {
  if (CONTROL.test(command)) return null;
  const words = command.trim().split(/\s+/).filter(Boolean);
  return words.length === 0 ? null : words;
}

/** Programs whose first argument names what they do (git status, npm test): their prefix has two words. */
const TWO_WORD = new Set(["git", "npm", "npx", "yarn", "pnpm", "cargo", "go", "docker", "kubectl", "make", "pip", "pip3", "uv", "poetry", "bundle", "dotnet", "gh", "node"]);

/** The prefix "always" allows for a command: its program, and the subcommand for git, npm and the like. */
export function derivePrefix(command: string): string | null {
  const w = simpleWords(command);
  if (w === null) return null;
  const first = w[0] as string;
  if (first.includes("=")) return null; // VAR=value cmd: the assignment changes what runs
  const second = w[1];
  if (TWO_WORD.has(first) && second !== undefined && !second.startsWith("-")) return `${first} ${second}`;
  return first;
}

/** True when a simple command's words begin with the prefix's words. */
export function matchesPrefix(command: string, prefix: string): boolean {
  const w = simpleWords(command);
  const p = prefix.trim().split(/\s+/).filter(Boolean);
  if (w === null || p.length === 0 || p.length > w.length) return false;
  return p.every((x, i) => w[i] === x);
}

/** The path prefix "always" allows for a write: the file's directory with a slash, or a file at the root itself. */
export function writePrefix(rel: string): string {
  const i = rel.lastIndexOf("/");
  return i < 0 ? rel : rel.slice(0, i + 1);
}

/** True when a root-relative path is covered by a write prefix ("src/" covers src/a/b.ts; "README.md" only itself). */
export function matchesWritePrefix(rel: string, prefix: string): boolean {
  return prefix.endsWith("/") ? rel.startsWith(prefix) : rel === prefix;
}

/** One session's approvals of shell commands and file writes. */
export class ShellApprovals {
  private readonly allowed: string[] = [];
  private readonly refused: string[] = [];
  private readonly allowedWrites: string[] = [];
  private readonly refusedWrites: string[] = [];
  private prompts = 0;

  constructor(
    private readonly o: {
      /** The configured allow-list of prefixes. */
      readonly allow?: readonly string[];
      readonly ask: AskApproval | null;
      /** Records approval.change (before the answer is applied). */
      readonly record: (change: ApprovalChange) => void;
      /** Prefix of prompt ids, e.g. the session id. */
      readonly promptPrefix?: string;
    },
  ) {}

  /** The prefixes the person allowed for this session so far. */
  get sessionPrefixes(): readonly string[] {
    return this.allowed;
  }

  /** The write prefixes the person allowed for this session so far. */
  get writePrefixes(): readonly string[] {
    return this.allowedWrites;
  }

  /** Whether a file write (a root-relative path the write guard admitted) may happen: asked like a command. */
  async decideWrite(rel: string, detail?: string): Promise<ApprovalDecision> {
    for (const p of this.allowedWrites) if (matchesWritePrefix(rel, p)) return { allowed: true, by: "session" };
    for (const p of this.refusedWrites)
      if (matchesWritePrefix(rel, p)) return { allowed: false, by: "refused", reason: `the person refused writes to ${p.endsWith("/") ? `files under ${p}` : p} in this session` };
    if (this.o.ask === null)
      return { allowed: false, by: "unattended", reason: "writing a file needs the person's approval and no one can answer here (nodwyn ask): run it in nodwyn chat" };
    const prefix = writePrefix(rel);
    const promptId = `${this.o.promptPrefix ?? "shell"}-${++this.prompts}`;
    const answer = await this.o.ask({ kind: "write", command: rel, prefix, promptId, ...(detail !== undefined ? { detail } : {}) });
    this.o.record({ actor: "person", scope: answer, kind: "write", prefix, prompt_id: promptId });
    if (answer === "session") this.allowedWrites.push(prefix);
    if (answer === "never") {
      this.refusedWrites.push(rel);
      return { allowed: false, by: "person", reason: "the person refused this write" };
    }
    return { allowed: true, by: "person" };
  }

  async decide(command: string): Promise<ApprovalDecision> {
    for (const p of this.o.allow ?? []) if (matchesPrefix(command, p)) return { allowed: true, by: "config" };
    for (const p of this.allowed) if (matchesPrefix(command, p)) return { allowed: true, by: "session" };
    for (const p of this.refused)
      if (matchesPrefix(command, p)) return { allowed: false, by: "refused", reason: `the person refused commands starting with "${p}" in this session` };
    if (this.o.ask === null) {
      const list = (this.o.allow ?? []).length > 0 ? `the allowed prefixes are: ${(this.o.allow ?? []).map((p) => `"${p}"`).join(", ")}` : "no prefix is allowed";
      return {
        allowed: false,
        by: "unattended",
        reason: `this command needs the person's approval and no one can answer here (${list}; the person can allow prefixes in config.toml's [shell] allow)`,
      };
    }
    const prefix = derivePrefix(command);
    const promptId = `${this.o.promptPrefix ?? "shell"}-${++this.prompts}`;
    const answer = await this.o.ask({ command, prefix, promptId });
    const scope: ApprovalAnswer = answer === "session" && prefix === null ? "once" : answer;
    this.o.record({ actor: "person", scope, kind: "command", ...(prefix !== null ? { prefix } : {}), prompt_id: promptId });
    if (scope === "session" && prefix !== null) this.allowed.push(prefix);
    if (scope === "never") {
      if (prefix !== null) this.refused.push(prefix);
      return { allowed: false, by: "person", reason: "the person refused to run this command" };
    }
    return { allowed: true, by: "person" };
  }
}
