// The conversation memory of a session: search this task, search the project's other tasks, recall an event.

import { readdirSync } from "node:fs";
import { join } from "node:path";
import { sessionsDir, isValidSessionId, LOG_EXTENSION } from "../log/index.js";
import { projectPaths } from "../index/index.js";
import type { TurnCard, CompactionNote } from "./cards.js";
import type { TaskFacts } from "./fold.js";
import { MemMismatch } from "./mem-file.js";
import { recallEvent, RecallError, type RecallResult } from "./recall.js";
import { rankViews, DEFAULT_HITS, type MemorySearchResult } from "./search.js";
import { memFileOf, openTask, type MemAction, type TaskView } from "./task-memory.js";
import type { HeldRecords } from "./held.js";
import { earlierTasksLeave } from "./workspaces.js";
import { checkKinds, forkChain, logFileOf, recallEntry, recallLog, recallSearch, RecallLogError, sessionRepo, type RecallLogQuery, type RecallLogResult, type RecallRow, type RecallSearchQuery, type RecallSearchResult } from "./recall-log.js";

/** A failure the primitives show as a Scheme error: what and what to do. */
export class MemoryError extends Error {
  readonly domain = "memory";
  constructor(readonly code: "earlier-off" | "no-task" | "not-this-project" | "no-event" | "bad-range" | "no-log", message: string) {
    super(message);
    this.name = "MemoryError";
  }
}

/** The repository key of a task's tree (a worktree's is its repository's), or null when its tree is gone and nothing else names it. */
export function projectOfFacts(facts: TaskFacts, dataDir: string): string | null {
  for (const p of [facts.repo, facts.repository]) {
    if (typeof p !== "string" || p === "") continue;
    try {
      return projectPaths(p, dataDir).key;
    } catch {
      // gone: try the next
    }
  }
  return null;
}

export interface MemoryOptions {
  readonly dataDir: string;
  /** The session's own id (its log is <dataDir>/sessions/<id>.jsonl), or null without a log. */
  readonly session: string | null;
  /** The working tree the session runs in. */
  readonly root: string;
  /** The environment workspaces.toml is found from. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Characters of one result the window shows (recall stops at a whole line within it). */
  readonly capChars: () => number;
  /** The running session's unfinished turn, held in memory (HeldTurn): a search of its own log folds it from there. */
  readonly held?: () => HeldRecords | null;
}

/** The memory primitives' host side. */
export class ConversationMemory {
  private readonly project: string;
  /** What the last search or recall did to each task's memory (how the file was used, the log's bytes read). */
  lastOpened: { session: string; action: MemAction; logBytesRead: number }[] = [];
  constructor(private readonly o: MemoryOptions) {
    this.project = projectPaths(o.root, o.dataDir).key;
  }

  private logOf(session: string): string {
    return join(sessionsDir(this.o.dataDir), session + LOG_EXTENSION);
  }

  /** Trees' repository keys, found once per tree (many tasks ran in the same one). */
  private readonly projects = new Map<string, string | null>();
  private projectOf = (f: TaskFacts): string | null => {
    const key = `${f.repo}\u0000${f.repository ?? ""}`;
    let p = this.projects.get(key);
    if (p === undefined) this.projects.set(key, (p = projectOfFacts(f, this.o.dataDir)));
    return p;
  };

  /** Opens the views; a part that fails its check when a search reads it makes that file again from the log, and the search runs again. */
  private withViews<T>(logs: readonly string[], fn: (views: TaskView[]) => T, project?: string): T {
    const bad = new Set<string>();
    for (let attempt = 0; ; attempt++) {
      const views: TaskView[] = [];
      try {
        for (const l of logs) {
          const own = this.o.session !== null && l === this.logOf(this.o.session);
          const v = openTask(l, { projectOf: this.projectOf, rebuild: bad.size > 0 && bad.has(memFileOf(l)), ...(project !== undefined ? { project } : {}), ...(own && this.o.held ? { held: this.o.held() } : {}) });
          if (v !== null) views.push(v);
        }
        this.lastOpened = views.map((v) => ({ session: v.session, action: v.action, logBytesRead: v.logBytesRead }));
        return fn(views);
      } catch (e) {
        if (!(e instanceof MemMismatch) || attempt >= 3) throw e;
        bad.add(e.file.endsWith(LOG_EXTENSION) ? memFileOf(e.file) : e.file);
      } finally {
        for (const v of views) v.close();
      }
    }
  }

  /** This session's events ranked by the words of query. */
  searchConversation(query: string, limit: number | null): MemorySearchResult {
    if (this.o.session === null) throw new MemoryError("no-log", "this session keeps no log (--no-log), so it has no conversation to search");
    return this.withViews([this.logOf(this.o.session)], (v) => rankViews(v, query, limit ?? DEFAULT_HITS, { earlier: false }));
  }

  /** The logs of this repository's tasks (a worktree's counting as its repository's), without `except`. */
  private projectLogs(except: string | null): string[] {
    // The names alone (no stat of each log: openTask opens each one anyway, and a log gone meanwhile is a deleted task).
    const dir = sessionsDir(this.o.dataDir);
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw e;
    }
    const out: string[] = [];
    // The folder's path normalised once (a join per name normalises it again each time).
    const prefix = join(dir, "x").slice(0, -1);
    for (const name of names) {
      if (!name.endsWith(LOG_EXTENSION)) continue;
      const session = name.slice(0, -LOG_EXTENSION.length);
      if (session === except || !isValidSessionId(session)) continue;
      out.push(prefix + name);
    }
    return out;
  }

  /** The project's other tasks' events, ranked as one collection; only with the person's leave. */
  searchEarlier(query: string, limit: number | null, o: { readonly ignoreLeave?: boolean; readonly includeSelf?: boolean } = {}): MemorySearchResult {
    if (!o.ignoreLeave) {
      const leave = earlierTasksLeave(this.o.env, this.o.root, this.project, this.o.dataDir);
      if (!leave.allowed) throw new MemoryError("earlier-off", leave.why!);
    }
    const logs = this.projectLogs(o.includeSelf ? null : this.o.session);
    // Another project's task whose .mem file says so is left out before its log is opened; the filter catches the rest.
    return this.withViews(
      logs,
      (all) => {
        const mine = all.filter((v) => v.project === this.project);
        return rankViews(mine, query, limit ?? DEFAULT_HITS, { earlier: true });
      },
      this.project,
    );
  }

  /** One event: of this session, or (with leave) of another task of the project. */
  recall(seq: number, start: number, count: number, task: string | null, o: { readonly ignoreLeave?: boolean; readonly whole?: boolean } = {}): RecallResult {
    const other = task !== null && task !== this.o.session;
    let session: string;
    if (other) {
      if (!isValidSessionId(task)) throw new MemoryError("no-task", `${JSON.stringify(task)} is not a task id (ids look like 20261009T034803Z-3981612f)`);
      if (!o.ignoreLeave) {
        const leave = earlierTasksLeave(this.o.env, this.o.root, this.project, this.o.dataDir);
        if (!leave.allowed) throw new MemoryError("earlier-off", leave.why!);
      }
      session = task;
    } else {
      if (this.o.session === null) throw new MemoryError("no-log", "this session keeps no log (--no-log), so it has nothing to recall");
      session = this.o.session;
    }
    return this.withViews([this.logOf(session)], (views) => {
      const v = views[0];
      if (v === undefined) throw new MemoryError("no-task", `there is no task ${task} (its log is gone: a deleted task)`);
      if (other && v.project !== this.project) throw new MemoryError("not-this-project", `task ${task} is not one of this repository's tasks`);
      try {
        return recallEvent(v, seq, start, count, o.whole ? Number.MAX_SAFE_INTEGER : this.o.capChars(), { other });
      } catch (e) {
        if (e instanceof RecallError) throw new MemoryError(e.code, e.message);
        throw e;
      }
    });
  }

  // ---- issue 16's recall forms (recall-log.ts) ------------------------------------------------------

  private projectKeyOf = (repo: string): string | null => {
    try {
      return projectPaths(repo, this.o.dataDir).key;
    } catch {
      return null;
    }
  };

  /** The session a recall form reads: this one, or another of this repository's. */
  private recallSession(session: string | null, who: string): string {
    if (session === null || session === this.o.session) {
      if (this.o.session === null) throw new RecallLogError("no-log", `${who}: this session keeps no log (--no-log), so it has nothing to recall`);
      return this.o.session;
    }
    if (!isValidSessionId(session)) throw new RecallLogError("no-task", `${who}: ${JSON.stringify(session)} is not a session id (ids look like 20261009T034803Z-3981612f)`);
    const repo = sessionRepo(logFileOf(this.o.dataDir, session));
    if (repo === undefined) throw new RecallLogError("no-task", `${who}: there is no session ${session} (its log is gone, or never was)`);
    if (repo === null || this.projectKeyOf(repo) !== this.project) throw new RecallLogError("not-this-project", `${who}: session ${session} is not one of this repository's sessions`);
    // Another task of the project (not one this session was forked from, whose rows recall-log returns as its own):
    // the person's leave, as recall and index-search "earlier" ask it (ADR 0038).
    if (this.o.session !== null && forkChain(this.o.dataDir, this.o.session).has(session)) return session;
    const leave = earlierTasksLeave(this.o.env, this.o.root, this.project, this.o.dataDir);
    if (!leave.allowed) throw new RecallLogError("earlier-off", `${who}: ${leave.why!}`);
    return session;
  }

  /** recall-log over this session (and what it was forked from), or another of the repository's. */
  recallLog(q: RecallLogQuery & { readonly session: string | null }): RecallLogResult {
    checkKinds(q.kinds, "recall-log");
    return recallLog(this.o.dataDir, this.recallSession(q.session, "recall-log"), q);
  }

  /** recall-entry: the record at seq whole, or null. */
  recallEntry(seq: number, session: string | null): RecallRow | null {
    return recallEntry(this.o.dataDir, this.recallSession(session, "recall-entry"), seq);
  }

  /**
   * recall-search over every session of this repository. Without the person's
   * leave (ADR 0038), only this session and the sessions it was forked from,
   * and `leftOut` says how many other tasks were not searched and why (the
   * text index-search "earlier" raises, with how the person allows it).
   */
  recallSearch(q: RecallSearchQuery): RecallSearchResult {
    checkKinds(q.kinds, "recall-search");
    const leave = earlierTasksLeave(this.o.env, this.o.root, this.project, this.o.dataDir);
    const only = leave.allowed ? null : this.o.session === null ? new Set<string>() : forkChain(this.o.dataDir, this.o.session);
    const counts = { leftOut: 0 };
    const rows = recallSearch(this.o.dataDir, this.projectKeyOf, this.project, q, only, counts);
    return { rows, leftOut: counts.leftOut > 0 ? { tasks: counts.leftOut, why: leave.why! } : null };
  }

  /** A task's cards and compaction notes. */
  cards(task: string): { cards: TurnCard[]; notes: CompactionNote[]; facts: TaskFacts } {
    if (!isValidSessionId(task)) throw new MemoryError("no-task", `${JSON.stringify(task)} is not a task id`);
    return this.withViews([this.logOf(task)], (views) => {
      const v = views[0];
      if (v === undefined) throw new MemoryError("no-task", `there is no task ${task} in ${sessionsDir(this.o.dataDir)}`);
      return { cards: v.cards(), notes: v.notes(), facts: v.facts };
    });
  }
}
