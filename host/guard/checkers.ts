// Project checkers: plain functions the guard consults after its own rules, which can only narrow them.
//
// The session wraps each Scheme procedure registered with `register-check` into
// a CheckerFn (running it with a step budget, and throwing when the budget or a
// Scheme error ends it); the guard sees only functions, so host/ never imports
// the interpreter.

/** What a checker may say about one file. Anything else a checker returns denies. */
export type CheckerVerdict =
  | "allow"
  | "ask"
  | { readonly deny: true; readonly reason: string }
  | { readonly ask: true; readonly reason: string };

/** What a checker learns about the file (from lstat, before anything is opened). */
export interface CheckerInfo {
  /** Size in bytes. */
  readonly size: number;
  /** Modification time, milliseconds since the epoch. */
  readonly mtimeMs: number;
  /** Always "file" today: checkers are consulted for file reads only. */
  readonly kind: "file";
  /** The path relative to the repository root, with `/` separators (the same as the first argument). */
  readonly relPath: string;
  /** The absolute path. */
  readonly absPath: string;
  /** Who reads: "model", "strategy", "index", … (as the caller says). */
  readonly actor: string;
}

/** A checker: may be synchronous or return a Promise. A throw or a rejection denies. */
export type CheckerFn = (path: string, info: CheckerInfo) => CheckerVerdict | Promise<CheckerVerdict>;

/** A deny verdict. */
export function denyVerdict(reason: string): CheckerVerdict {
  return { deny: true, reason };
}

/** An ask verdict with the question's reason. */
export function askVerdict(reason: string): CheckerVerdict {
  return { ask: true, reason };
}

/**
 * The checkers of a session, by name, consulted in registration order.
 * Registering a name again replaces that checker in place (reloading
 * `.nodwyn/checks.scm` does not duplicate them).
 */
export class CheckerRegistry {
  private byName = new Map<string, CheckerFn>();
  private source: (() => void) | null = null;

  /**
   * Where the checkers come from, asked to bring them up to date before the
   * guard decides (the session re-reads .nodwyn/checks.scm when it changed).
   * It must not throw: a source that cannot load its checkers replaces them
   * with one that denies.
   */
  setSource(refresh: (() => void) | null): void {
    this.source = refresh;
  }

  /** Brings the checkers up to date with their source (the guard calls it at the start of each operation). */
  refresh(): void {
    this.source?.();
  }

  /** Replaces every checker at once, in the given order (a re-read of checks.scm). */
  replaceAll(checkers: readonly { readonly name: string; readonly fn: CheckerFn }[]): void {
    const next = new Map<string, CheckerFn>();
    for (const { name, fn } of checkers) {
      if (typeof name !== "string" || name === "") throw new TypeError("a checker needs a non-empty name");
      if (typeof fn !== "function") throw new TypeError(`checker ${name} is not a function`);
      next.set(name, fn);
    }
    this.byName = next;
  }

  register(name: string, fn: CheckerFn): void {
    if (typeof name !== "string" || name === "") throw new TypeError("a checker needs a non-empty name");
    if (typeof fn !== "function") throw new TypeError(`checker ${name} is not a function`);
    this.byName.set(name, fn);
  }

  /** Removes a checker; returns whether it was there. */
  unregister(name: string): boolean {
    return this.byName.delete(name);
  }

  /** The checkers in consultation order. */
  list(): Array<{ readonly name: string; readonly fn: CheckerFn }> {
    return [...this.byName].map(([name, fn]) => ({ name, fn }));
  }

  get size(): number {
    return this.byName.size;
  }
}

/** The outcome of consulting every checker about one file. */
export type CheckersOutcome =
  | { readonly verdict: "none" } // no checker registered
  | { readonly verdict: "allow"; readonly checker: string } // the names of all checkers, comma-separated
  | { readonly verdict: "deny"; readonly checker: string; readonly reason: string }
  | { readonly verdict: "ask"; readonly checker: string; readonly reason: string };

function normalise(v: unknown, name: string): CheckerVerdict {
  if (v === "allow" || v === "ask") return v;
  if (v !== null && typeof v === "object") {
    const o = v as Record<string, unknown>;
    if (o.deny === true && typeof o.reason === "string") return { deny: true, reason: o.reason };
    if (o.ask === true && typeof o.reason === "string") return { ask: true, reason: o.reason };
  }
  return { deny: true, reason: `checker ${name} returned an invalid verdict` };
}

const TIMED_OUT = Symbol("timed-out");

/**
 * Consults the checkers in order. The first deny ends it (later checkers are not
 * called); an ask is remembered and wins over allow; a checker that throws,
 * rejects, returns something that is not a verdict or takes longer than
 * `timeoutMs` denies.
 */
export async function consultCheckers(
  checkers: readonly { readonly name: string; readonly fn: CheckerFn }[],
  path: string,
  info: CheckerInfo,
  timeoutMs: number,
): Promise<CheckersOutcome> {
  if (checkers.length === 0) return { verdict: "none" };
  let ask: { checker: string; reason: string } | null = null;
  for (const { name, fn } of checkers) {
    let raw: unknown;
    try {
      raw = fn(path, info);
      if (raw !== null && typeof raw === "object" && typeof (raw as PromiseLike<unknown>).then === "function") {
        raw = await withTimeout(raw as Promise<unknown>, timeoutMs);
      }
    } catch (e) {
      return { verdict: "deny", checker: name, reason: `checker ${name} failed: ${describe(e)}` };
    }
    if (raw === TIMED_OUT) return { verdict: "deny", checker: name, reason: `checker ${name} exceeded its budget (${timeoutMs} ms)` };
    const v = normalise(raw, name);
    if (v === "allow") continue;
    if (v === "ask") {
      ask ??= { checker: name, reason: `checker ${name} asks` };
      continue;
    }
    if ("deny" in v) return { verdict: "deny", checker: name, reason: v.reason };
    ask ??= { checker: name, reason: v.reason };
  }
  if (ask !== null) return { verdict: "ask", ...ask };
  return { verdict: "allow", checker: checkers.map((c) => c.name).join(", ") };
}

/**
 * consultCheckers for a synchronous read (a Scheme file port, `load`): the
 * same order and rules, but a checker that answers with a Promise cannot be
 * waited for and denies (its Promise is left to settle unobserved).
 */
export function consultCheckersSync(checkers: readonly { readonly name: string; readonly fn: CheckerFn }[], path: string, info: CheckerInfo): CheckersOutcome {
  if (checkers.length === 0) return { verdict: "none" };
  let ask: { checker: string; reason: string } | null = null;
  for (const { name, fn } of checkers) {
    let raw: unknown;
    try {
      raw = fn(path, info);
    } catch (e) {
      return { verdict: "deny", checker: name, reason: `checker ${name} failed: ${describe(e)}` };
    }
    if (raw !== null && typeof raw === "object" && typeof (raw as PromiseLike<unknown>).then === "function") {
      (raw as Promise<unknown>).then(undefined, () => {}); // settles later, unobserved: no unhandled rejection
      return { verdict: "deny", checker: name, reason: `checker ${name} answered asynchronously, which a synchronous read cannot wait for` };
    }
    const v = normalise(raw, name);
    if (v === "allow") continue;
    if (v === "ask") {
      ask ??= { checker: name, reason: `checker ${name} asks` };
      continue;
    }
    if ("deny" in v) return { verdict: "deny", checker: name, reason: v.reason };
    ask ??= { checker: name, reason: v.reason };
  }
  if (ask !== null) return { verdict: "ask", ...ask };
  return { verdict: "allow", checker: checkers.map((c) => c.name).join(", ") };
}

function withTimeout(p: Promise<unknown>, ms: number): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const t = new Promise<unknown>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), ms);
  });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}

function describe(e: unknown): string {
  if (e instanceof Error) return e.message;
  if (e !== null && typeof e === "object" && typeof (e as { message?: unknown }).message === "string") return (e as { message: string }).message;
  return String(e);
}
