// The machine: registers, the run loop, continuations, raise, limits and async suspension.
//
// One Runtime per interpreter. Compiled code reaches it as `R`: tail calls put
// their target in the registers and return TAIL; non-tail call sites bounce
// pending tail calls with `R.bounce()`; procedure entries and loop heads count
// fuel and call `R.poll` when it runs out or the JS stack is deep. Everything
// that needs the continuation stores an Unwind in `R.unw` and returns TAIL;
// compiled call sites add their frames on the way out (see frames.ts), and
// this run loop completes it. JS exceptions are left to errors: a compiled
// procedure's catch turns one into a pending raise the same way.

import { Procedure, arityText, procName } from "../values/procedure.js";
import { Condition, type TraceEntry } from "../values/condition.js";
import { Pair } from "../values/pair.js";
import { makeValues, valuesToArray, UNSPECIFIED } from "../values/misc.js";
import type { SourceLoc } from "../values/loc.js";
import { SchemeError, makeCondition } from "../errors.js";
import { writeShort } from "../printer/printer.js";
import { Frame, Unwind, LimitStop, recallFrame, applyArray, type ResumeFn } from "./frames.js";
import { Dyn, GuardMark, ROOT_DYN, type HandlerList } from "./dyn.js";
import { installBudget, runningBudget, STEP_NS, type Budget } from "../budget.js";
import type { HeapProbe } from "./heap.js";

/** Returned by a procedure entry that made a tail call (the call is in the registers). */
export const TAIL: { readonly tail: true } = Object.freeze({ tail: true });

/**
 * The depth counter's ceiling, in slots: each non-tail call site adds its
 * function's weight (its variables plus a fixed overhead for the frame and the
 * helpers it calls), and past the ceiling the next procedure entry reifies the
 * stack onto the heap. The ceiling is a constant of the compiled code; how
 * much room there is below it is measured (jsStackRoom): a run starts its
 * counter that far below the ceiling.
 */
export const JS_DEPTH_LIMIT = 40_000;
/**
 * Slots of room per frame of the stack probe (a one-line recursive function).
 * The costliest compiled frames found (a procedure with a rest parameter,
 * called through its arity adapter) take 1/3.2 of a probe frame per slot; 2.0
 * leaves over a third of the stack for primitives, the host and nested
 * evaluations.
 */
const ROOM_PER_PROBE_FRAME = 2.0;
/** The least room a run gets: on a tiny stack it still makes progress (a few frames per reification). */
const MIN_ROOM = 256;

let stackRoom = 0;

/**
 * Slots of JS stack compiled code may use from here: measured once per
 * thread (a worker has its own stack size) by recursing until the engine
 * refuses, so that no --stack-size, however small, makes deep recursion a
 * RangeError. `remeasure` measures again: a process started from a start-up
 * snapshot holds the value measured when the snapshot was built, which its
 * entry (host/cli/snapshot.ts) measures again only when the process was
 * started with other stack flags than the build (the probe takes milliseconds on a
 * 2 MB stack).
 */
export function jsStackRoom(remeasure = false): number {
  if (stackRoom === 0 || remeasure) {
    let frames = 0;
    const probe = function (): void {
      frames++;
      probe();
    };
    try {
      probe();
    } catch {
      // RangeError: the stack is full; `frames` says how deep it went.
    }
    stackRoom = Math.max(MIN_ROOM, Math.floor(frames * ROOM_PER_PROBE_FRAME));
  }
  return stackRoom;
}

/** Steps between two polls of the limits when no step budget is nearer. */
const BATCH = 1 << 14;
const RING = 16;
/** Small allocations announced between two looks at the heap, at most. */
const MEM_CHUNK = 1 << 20;
/** The share of the engine's heap limit past which every evaluation stops. */
const HEAP_CEILING = 0.75;
/**
 * A single piece of work estimated to take this long (ns) is checked against
 * the deadline before it starts: one that cannot end in time stops at once.
 */
const PREDICT_NS = 1e6;

/** The memory budget of an evaluation when its limits give none: 256 MiB. */
export const DEFAULT_MEMORY_BYTES = 256 * 1024 * 1024;

/** Limits of one evaluation; each ends it with a `limit` condition that Scheme code cannot catch. */
export interface Limits {
  /**
   * Steps allowed: procedure entries and loop iterations, plus the work of
   * primitives whose cost grows with their input (one step per 16 ns or so).
   */
  steps?: number;
  /** Wall-clock milliseconds allowed from the start of the evaluation. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Continuation frames allowed (the recursion depth ceiling). */
  maxDepth?: number;
  /**
   * Bytes of JS heap the evaluation may hold on to beyond what was in use
   * when it started (default DEFAULT_MEMORY_BYTES, 256 MiB; Infinity: no
   * budget of its own). Whatever the budget, an evaluation stops before the
   * heap comes near the engine's own limit.
   */
  memoryBytes?: number;
}

/** How an evaluation ended. */
export type Outcome = { ok: true; value: any } | { ok: false; error: any; condition: Condition | null };

const CALL = 0;
const RETURN = 1;
const RAISE = 2;

/** The state of one evaluation, kept across suspensions. */
class Run {
  /** The depth counter with the JS stack unwound to this run's loop (JS_DEPTH_LIMIT less the room it has). */
  base = 0;
  k: Frame | null;
  mode = CALL;
  proc: Procedure | null;
  args: any[];
  value: any = UNSPECIFIED;
  /**
   * An error no handler took, held while the after thunks of the dynamic-wind calls it left run
   * (control leaves their extent: R7RS 6.10); the run then ends with it.
   */
  failure: Outcome | null = null;
  constructor(proc: Procedure, args: any[], k: Frame | null) {
    this.proc = proc;
    this.args = args;
    this.k = k;
  }
}

type StepResult = Outcome | { suspend: Promise<any> } | { yield: true };

export class Runtime implements Budget {
  // Tail-call registers.
  tp: Procedure | null = null;
  tn = 0;
  ta: any = undefined;
  tb: any = undefined;
  tc: any = undefined;
  targs: any[] = [];
  /** Decremented at every procedure entry and loop iteration; poll() when negative. */
  fuel = BATCH;
  /** Non-tail calls currently on the JS stack. */
  depth = 0;
  dyn: Dyn = ROOT_DYN;
  /** The Unwind being collected, while compiled code returns TAIL down to the run loop. */
  unw: Unwind | null = null;
  /** Recent tail calls, for backtraces. */
  readonly ring: (Procedure | null)[] = new Array(RING).fill(null);
  /** The calling lambda and call site of each ring entry (where the tail call was written). */
  readonly ringInfo: any[] = new Array(RING).fill(null);
  readonly ringSite: number[] = new Array(RING).fill(0);
  ringIdx = 0;
  /** Caller and site of the pending tail call (set by tc0…tcN when compiled code passes them). */
  ti: any = null;
  ts = 0;
  /** Steps (procedure entries and loop iterations) taken by every evaluation so far: a profile's counter (the REPL's ,time). */
  stepsCounted = 0;
  /** The Scheme procedure (%continue k vals) that runs dynamic-wind transitions; set by the prelude. */
  travelProc: Procedure | null = null;
  /**
   * The Scheme procedure (%guard-raise obj continuable mark raise-dyn
   * handler-dyn) that tests a guard's clauses on top of the raise (ADR 0045);
   * set by the prelude.
   */
  guardRaiseProc: Procedure | null = null;
  /** The Scheme procedure (%parameter-assign! p v) that stores a converted value in a parameter; set by the prelude. */
  assignProc: Procedure | null = null;

  private stepsLeft = Infinity;
  /** stepsLeft when the current evaluation began (for charging a nested one to its parent). */
  private stepsStart = Infinity;
  private batchGiven = BATCH;
  private deadline = Infinity;
  private signal: AbortSignal | undefined;
  private maxDepth = 10_000_000;
  private asyncMode = false;
  private sliceEnd = Infinity;
  private running = 0;

  /** How the memory budget measures the heap; null: no measure (only the engine's own limit then). */
  heap: HeapProbe | null = null;
  /** Heap bytes in use (HeapProbe.used) past which the evaluation ends. */
  private memLimit = Infinity;
  /** Bytes in use past which a measure is confirmed by a collection (memLimit, or more after one). */
  private memTrigger = Infinity;
  /** Bytes the evaluation's budget allowed beyond its start (for messages and the slack after a collection). */
  private memBudget = Infinity;
  /** Bytes announced by allocate() since the heap was last measured. */
  private memPending = 0;
  /** Steps accounted since the heap was last measured at a poll. */
  private memSteps = 0;
  /** The limit is the engine's heap ceiling rather than the budget. */
  private memCeiling = false;
  /** Bytes in use after the last collection this machine made, or when it first measured (-1: never). */
  private lastLive = -1;
  /** Bytes in use when the evaluation started. */
  private memBase = 0;

  // ---- called from compiled code ---------------------------------------------------------

  /** Runs pending tail calls until one returns a value; TAIL when an Unwind is (or becomes) pending. */
  bounce(): any {
    while (this.unw === null) {
      const p = this.tp as Procedure;
      const ri = this.ringIdx++ & (RING - 1);
      this.ring[ri] = p;
      this.ringInfo[ri] = this.ti;
      this.ringSite[ri] = this.ts;
      let r;
      switch (this.tn) {
        case 0:
          r = p.f0();
          break;
        case 1:
          r = p.f1(this.ta);
          break;
        case 2:
          r = p.f2(this.ta, this.tb);
          break;
        case 3:
          r = p.f3(this.ta, this.tb, this.tc);
          break;
        default:
          r = p.fN(this.targs);
      }
      if (r !== TAIL) return r;
    }
    return TAIL;
  }

  // Compiled code passes its lambda info and the call's site as the last two
  // arguments, so a failing tail call and the backtrace can say where it was.
  tc0(p: any, info: any = null, site = 0): typeof TAIL {
    if (!(p instanceof Procedure)) notProcedure(p, []);
    this.ti = info;
    this.ts = site;
    this.tp = p;
    this.tn = 0;
    return TAIL;
  }
  tc1(p: any, a: any, info: any = null, site = 0): typeof TAIL {
    if (!(p instanceof Procedure)) notProcedure(p, [a]);
    this.ti = info;
    this.ts = site;
    this.tp = p;
    this.tn = 1;
    this.ta = a;
    return TAIL;
  }
  tc2(p: any, a: any, b: any, info: any = null, site = 0): typeof TAIL {
    if (!(p instanceof Procedure)) notProcedure(p, [a, b]);
    this.ti = info;
    this.ts = site;
    this.tp = p;
    this.tn = 2;
    this.ta = a;
    this.tb = b;
    return TAIL;
  }
  tc3(p: any, a: any, b: any, c: any, info: any = null, site = 0): typeof TAIL {
    if (!(p instanceof Procedure)) notProcedure(p, [a, b, c]);
    this.ti = info;
    this.ts = site;
    this.tp = p;
    this.tn = 3;
    this.ta = a;
    this.tb = b;
    this.tc = c;
    return TAIL;
  }
  tcN(p: any, args: any[], info: any = null, site = 0): typeof TAIL {
    if (!(p instanceof Procedure)) notProcedure(p, args);
    switch (args.length) {
      case 0:
        return this.tc0(p, info, site);
      case 1:
        return this.tc1(p, args[0], info, site);
      case 2:
        return this.tc2(p, args[0], args[1], info, site);
      case 3:
        return this.tc3(p, args[0], args[1], args[2], info, site);
    }
    this.ti = info;
    this.ts = site;
    this.tp = p;
    this.tn = 4;
    this.targs = args;
    return TAIL;
  }

  /**
   * Called by a procedure entry (`self`, `args`) or a loop head when fuel ran out
   * or the JS stack is deep. Refuels and returns false, or throws a LimitStop,
   * or starts an Unwind that re-enters `self` with `args` from the heap and
   * returns true (the caller then returns TAIL).
   */
  poll(self: Procedure, args: any[], code: (...a: any[]) => any): boolean {
    // A recalled entry runs its poll again when resumed: that second decrement
    // is given back now, so the step budget counts the entry once.
    if (this.depth > JS_DEPTH_LIMIT) {
      this.unw = this.recall(self, args, code, false);
      this.fuel++;
      return true;
    }
    this.account();
    if (this.asyncMode && performance.now() >= this.sliceEnd) {
      this.unw = this.recall(self, args, code, true);
      this.fuel++;
      return true;
    }
    return false;
  }

  /**
   * Called at the head of a contified loop when fuel ran out: refuels and
   * returns false, or throws a LimitStop, or, when the time slice is over,
   * starts an Unwind and returns true (the loop then saves its activation).
   */
  pollLoop(): boolean {
    this.account();
    if (this.asyncMode && performance.now() >= this.sliceEnd) {
      this.unw = new Unwind("recall", true);
      // The loop resumes at its head, which counts the iteration again: given back.
      this.fuel++;
      return true;
    }
    return false;
  }

  /** A call site saw the pending Unwind: adds the activation of `info` waiting at `site`. */
  save(self: any, info: any, site: number, vals: any[]): typeof TAIL {
    const u = this.unw as Unwind;
    if (u.kind !== "reinstate" && u.kind !== "escape") u.push(new Frame(resolveFrame, self, info, site, vals));
    return TAIL;
  }

  /**
   * A compiled procedure's catch: a JS exception (an error raised by a primitive,
   * or a host failure) becomes a pending raise whose continuation starts at this
   * activation. Limits are rethrown: they end the evaluation.
   */
  caught(e: any, self: any, info: any, site: number, vals: any[]): typeof TAIL {
    if (e instanceof LimitStop) throw e;
    let u: Unwind;
    if (e instanceof Unwind) u = e;
    else u = new Unwind("raise", foreignToCondition(e), false);
    if (site !== 0) u.push(new Frame(resolveFrame, self, info, site, vals));
    this.unw = u;
    return TAIL;
  }

  // ---- control primitives' entry points ------------------------------------------------------

  /** call/cc's core: reify the stack and call `receiver` with the continuation. Returns TAIL. */
  capture(receiver: Procedure): typeof TAIL {
    this.unw = new Unwind("capture", receiver);
    return TAIL;
  }

  /**
   * Raises obj: the handler is called in the raise's continuation. Returns TAIL.
   * When the current handler is a guard's and no dynamic-wind lies between the
   * raise and the guard, nothing is reified: %guard-raise is tail-called in the
   * raise's continuation on the JS stack, tests the clauses and either escapes
   * to the guard through an `escape` Unwind (no frame saved) or raises on to the
   * next handler (ADR 0045).
   */
  raise(obj: any, continuable: boolean): typeof TAIL {
    const d = this.dyn;
    const hs = d.handlers;
    if (hs !== null && hs.guard !== null && hs.guard.outer.winders === d.winders && this.guardRaiseProc !== null) {
      // An error object keeps the recent tail calls of its raise, for the backtrace should no clause apply.
      if (obj instanceof Condition && obj.tailRing === undefined) obj.tailRing = this.ringSnapshot();
      return this.tcN(this.guardRaiseProc, [obj, continuable, hs.guard, d, d.withHandlers(hs.next)]);
    }
    this.unw = new Unwind("raise", obj, continuable);
    return TAIL;
  }

  /**
   * %guard's core (ADR 0045): installs the guard's handler `general` (the path
   * through the heap, for a raise with dynamic-wind between it and the guard)
   * with the guard's mark, calls `body` on the JS stack and catches the
   * guard's own escape. When the body unwinds (a capture, a reified raise),
   * the guard's frame goes on the heap: guardResume continues it.
   */
  guardCall(body: Procedure, tag: any, clauses: Procedure, general: Procedure): any {
    const outer = this.dyn;
    const mark = new GuardMark(tag, clauses, outer);
    this.dyn = outer.withGuard(general, mark);
    const depth = this.depth;
    this.depth += GUARD_WEIGHT;
    let r: any;
    try {
      r = body.f0();
      if (r === TAIL) r = this.bounce();
    } catch (e) {
      if (e instanceof LimitStop) throw e;
      this.unw = new Unwind("raise", foreignToCondition(e), false);
      r = TAIL;
    }
    if (r === TAIL) {
      const u = this.unw as Unwind;
      if (u.kind === "escape") {
        const t = u.payload as { mark: GuardMark; value: any };
        if (t.mark !== mark) return TAIL;
        this.unw = null;
        r = t.value;
      } else {
        if (u.kind !== "reinstate") u.push(new Frame(guardResume, this, null, 0, mark));
        return TAIL;
      }
    }
    this.depth = depth;
    this.dyn = outer;
    return r;
  }

  /** A guard's clause applied with `value` (ADR 0045): leaves for the guard of `mark`, saving no frame. Returns TAIL. */
  escape(mark: GuardMark, value: any): typeof TAIL {
    this.unw = new Unwind("escape", { mark, value });
    return TAIL;
  }

  /** An async primitive's Promise: reify the stack and resume with its value. Returns TAIL. */
  suspend(p: Promise<any>): typeof TAIL {
    this.unw = new Unwind("suspend", p);
    return TAIL;
  }

  /** Makes the continuation procedure for a captured continuation. */
  makeContinuation(k: Frame | null, dyn: Dyn): Procedure {
    const rt = this;
    const data = { k, dyn };
    const call = function (this: Procedure, args: any[]): any {
      const d = this.data as { k: Frame | null; dyn: Dyn };
      if (rt.dyn.winders === d.dyn.winders || rt.travelProc === null) return rt.reinstate(this, makeValues(args));
      return rt.tc2(rt.travelProc, this, makeValues(args));
    };
    return new Procedure(
      {
        f0() {
          return call.call(this, []);
        },
        f1(a) {
          return call.call(this, [a]);
        },
        f2(a, b) {
          return call.call(this, [a, b]);
        },
        f3(a, b, c) {
          return call.call(this, [a, b, c]);
        },
        fN: call,
      },
      null,
      { name: "continuation", minArgs: 0, maxArgs: -1, kind: "continuation" },
      data,
    );
  }

  /** The procedure of a case-lambda: calls the first clause that accepts the argument count. */
  caseLambda(clauses: Procedure[], name: string): Procedure {
    const pick = (self: Procedure, n: number): Procedure => {
      for (const c of clauses) if (c.info.minArgs <= n && (c.info.maxArgs < 0 || n <= c.info.maxArgs)) return c;
      return arityError(self, n);
    };
    let min = Infinity;
    let max = 0;
    for (const c of clauses) {
      min = Math.min(min, c.info.minArgs);
      max = max < 0 || c.info.maxArgs < 0 ? -1 : Math.max(max, c.info.maxArgs);
    }
    return new Procedure(
      {
        f0() {
          return pick(this, 0).f0();
        },
        f1(a) {
          return pick(this, 1).f1(a);
        },
        f2(a, b) {
          return pick(this, 2).f2(a, b);
        },
        f3(a, b, c) {
          return pick(this, 3).f3(a, b, c);
        },
        fN(args) {
          return pick(this, args.length).fN(args);
        },
      },
      null,
      { name, minArgs: min === Infinity ? 0 : min, maxArgs: max, kind: "lambda" },
      clauses,
    );
  }

  /** Continues with continuation procedure `k` and values `v` (after dynamic-wind transitions are done). */
  reinstate(k: Procedure, v: any): typeof TAIL {
    const d = k.data as { k: Frame | null; dyn: Dyn };
    this.unw = new Unwind("reinstate", { k: d.k, value: v, dyn: d.dyn });
    return TAIL;
  }

  // ---- running evaluations -----------------------------------------------------------------------

  /** Runs `proc` applied to `args` to completion synchronously; async primitives are an error here. */
  runSync(proc: Procedure, args: any[], limits: Limits = {}): Outcome {
    const saved = this.enter(limits, false);
    try {
      const run = new Run(proc, args, null);
      run.base = this.depth;
      for (;;) {
        const r = this.step(run);
        if ("ok" in r) return r;
        if ("yield" in r) continue;
        // A Promise cannot be awaited here: raise at the suspension point instead.
        r.suspend.catch(() => {});
        run.mode = RAISE;
        run.value = makeCondition("host", "an asynchronous procedure was called in a synchronous evaluation");
        (run.value as Condition).code = "async-in-sync";
      }
    } finally {
      this.leave(saved);
    }
  }

  /** Runs `proc` applied to `args`, awaiting async primitives and yielding to the event loop now and then. */
  async runAsync(proc: Procedure, args: any[], limits: Limits = {}): Promise<Outcome> {
    const saved = this.enter(limits, true);
    const run = new Run(proc, args, null);
    run.base = this.depth;
    const onAbort = () => {
      // The next fuel check polls; the steps of the batch stay counted.
      this.batchGiven -= this.fuel + 1;
      this.fuel = -1;
    };
    limits.signal?.addEventListener("abort", onAbort);
    try {
      for (;;) {
        this.sliceEnd = performance.now() + 20;
        const r = this.step(run);
        if ("ok" in r) return r;
        if ("yield" in r) {
          await new Promise<void>((resolve) => setImmediate(resolve));
          continue;
        }
        try {
          run.value = await this.bounded(r.suspend, limits.signal);
          run.mode = RETURN;
        } catch (err) {
          if (err instanceof LimitStop) {
            const c = err.condition as Condition;
            return { ok: false, error: c, condition: c };
          }
          run.value = foreignToCondition(err);
          run.mode = RAISE;
        }
      }
    } finally {
      limits.signal?.removeEventListener("abort", onAbort);
      this.leave(saved);
    }
  }

  /** Awaits an async primitive's Promise, but no longer than the deadline or an abort allows. */
  private bounded<T>(p: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
    if (this.deadline === Infinity && signal === undefined) return p;
    return new Promise<T>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const stop = (code: string, message: string) => {
        const c = makeCondition("limit", message);
        c.code = code;
        reject(new LimitStop(c));
      };
      const onAbort = () => stop("aborted", "evaluation aborted");
      const done = () => {
        if (timer !== undefined) clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
      };
      if (signal?.aborted) return stop("aborted", "evaluation aborted");
      signal?.addEventListener("abort", onAbort, { once: true });
      if (this.deadline !== Infinity) timer = setTimeout(() => stop("timeout", "evaluation timed out"), Math.max(0, this.deadline - performance.now()));
      p.then(
        (v) => {
          done();
          resolve(v);
        },
        (e) => {
          done();
          reject(e);
        },
      );
    });
  }

  private enter(limits: Limits, asyncMode: boolean): unknown {
    const saved = {
      dyn: this.dyn,
      depth: this.depth,
      fuel: this.fuel,
      stepsLeft: this.stepsLeft,
      stepsStart: this.stepsStart,
      batchGiven: this.batchGiven,
      deadline: this.deadline,
      signal: this.signal,
      maxDepth: this.maxDepth,
      asyncMode: this.asyncMode,
      sliceEnd: this.sliceEnd,
      memLimit: this.memLimit,
      memTrigger: this.memTrigger,
      memBudget: this.memBudget,
      memPending: this.memPending,
      memCeiling: this.memCeiling,
      memBase: this.memBase,
    };
    // Every evaluation starts in the outermost dynamic environment: a nested one
    // (a checker) must not see the handlers or winders of the evaluation it
    // interrupts, whose continuations it could never return to.
    this.dyn = ROOT_DYN;
    if (this.running === 0) {
      // Each evaluation's backtraces tell only its own story.
      this.ring.fill(null);
      this.ringInfo.fill(null);
    }
    this.running++;
    this.depth = this.depthBase(saved.depth);
    // A nested evaluation (a checker, a library body) never gets more than its parent has left.
    this.stepsLeft = Math.min(limits.steps ?? Infinity, this.running > 1 ? saved.stepsLeft : Infinity);
    this.stepsStart = this.stepsLeft;
    this.deadline = Math.min(limits.timeoutMs !== undefined ? performance.now() + limits.timeoutMs : Infinity, this.running > 1 ? saved.deadline : Infinity);
    this.signal = limits.signal ?? (this.running > 1 ? saved.signal : undefined);
    this.maxDepth = limits.maxDepth ?? (this.running > 1 ? saved.maxDepth : 10_000_000);
    this.asyncMode = asyncMode;
    this.sliceEnd = Infinity;
    this.enterMemory(limits.memoryBytes ?? DEFAULT_MEMORY_BYTES, this.running > 1 ? saved.memLimit : Infinity);
    this.refuel();
    if (this.signal?.aborted) {
      this.batchGiven -= this.fuel + 1;
      this.fuel = -1;
    }
    return saved;
  }

  /**
   * Where the depth counter of a run starting now begins: the room measured
   * below the ceiling for an outermost run; for a run nested in a running
   * evaluation (of this machine, or of another interpreter whose primitive
   * started it) the parent's depth plus a margin for the JS frames between —
   * but always leaving an eighth of the room, so that the nested run makes
   * progress.
   */
  private depthBase(parentDepth: number): number {
    const room = jsStackRoom();
    const outer = runningBudget();
    const parent = this.running > 1 ? parentDepth : outer instanceof Runtime ? outer.depth : null;
    if (parent === null) return JS_DEPTH_LIMIT - room;
    return Math.min(Math.max(parent, JS_DEPTH_LIMIT - room) + room / 16, JS_DEPTH_LIMIT - room / 8);
  }

  /**
   * The memory limit of an evaluation starting now: what is in use plus its
   * budget, no more than a parent evaluation's limit, and always short of the
   * engine's own heap limit.
   */
  private enterMemory(budget: number, parentLimit: number): void {
    this.memPending = 0;
    this.memBudget = budget;
    const heap = this.heap;
    if (heap === null) {
      this.memLimit = this.memTrigger = Infinity;
      return;
    }
    const ceiling = heap.limit() * HEAP_CEILING;
    let used = heap.used();
    if (this.lastLive < 0) this.lastLive = used;
    // What is in use may be mostly garbage of earlier evaluations (one that
    // ended at its memory limit leaves all it built): counted in, it would give
    // this one more than its budget. Collect when it could be much of a budget.
    if (heap.collect !== undefined && this.running === 1 && budget !== Infinity && used > this.lastLive + budget / 2) {
      heap.collect();
      used = this.lastLive = heap.used();
    }
    this.memBase = used;
    const own = Math.min(used + budget, parentLimit);
    this.memCeiling = ceiling < own;
    this.memLimit = Math.min(own, ceiling);
    this.memTrigger = this.memLimit;
  }

  private leave(saved: any): void {
    this.running--;
    this.stepsCounted += this.batchGiven - this.fuel;
    // Steps a nested evaluation took count against its parent's budget.
    const used = this.stepsStart - this.stepsLeft + (this.batchGiven - this.fuel);
    Object.assign(this, saved);
    if (this.running > 0 && this.stepsLeft !== Infinity && Number.isFinite(used)) this.stepsLeft = Math.max(0, this.stepsLeft - used);
  }

  private refuel(): void {
    const give = Math.min(BATCH, this.stepsLeft);
    this.batchGiven = give;
    this.fuel = give;
  }

  /**
   * Accounts for a spent batch and checks every limit. The fuel counts down
   * from the batch given; the step that takes it below zero is being taken
   * (a primitive's charge may take it further below), so every decrement is
   * a step used, and the step that would go past the budget is refused.
   */
  private account(): void {
    const used = this.batchGiven - this.fuel;
    this.stepsLeft -= used;
    this.stepsCounted += used;
    this.batchGiven = this.fuel = 0;
    if (this.signal?.aborted) this.stop("aborted", "evaluation aborted");
    if (this.stepsLeft < 0) this.stop("steps", "step budget exhausted");
    if (this.deadline !== Infinity && performance.now() >= this.deadline) this.stop("timeout", "evaluation timed out");
    // The heap is measured once a batch of steps, however they were spent (a
    // primitive's charges come in large amounts; its allocations are announced).
    if (this.memLimit !== Infinity && (this.memSteps += used) >= BATCH) {
      this.memSteps = 0;
      this.checkMemory(0);
    }
    this.refuel();
  }

  // ---- the budget primitives report to (budget.ts) ---------------------------------------------

  /** Charges `ns` of a primitive's work as steps; may stop the evaluation (see budget.ts). */
  spend(ns: number): void {
    const steps = Math.floor(ns / STEP_NS);
    if (steps <= 0) return;
    this.fuel -= steps;
    if (this.fuel < 0) this.account();
    // Work too long to finish before the deadline stops now, not when it is done.
    if (ns >= PREDICT_NS && this.deadline !== Infinity && performance.now() + ns / 1e6 > this.deadline) this.stop("timeout", "evaluation timed out");
  }

  /** Announces an allocation of `bytes`; may stop the evaluation with the memory limit. */
  allocate(bytes: number): void {
    if (this.memLimit === Infinity) return;
    this.memPending += bytes;
    if (this.memPending >= MEM_CHUNK) this.checkMemory(bytes);
  }

  /**
   * Measures the heap (plus `extra` bytes about to be allocated) against the
   * memory limit. A measure past the trigger is confirmed after a collection
   * (the heap holds garbage until the engine collects it); under the limit
   * then, the next confirmation waits until a quarter of the budget more is
   * in use, so that a program near its limit does not collect at every poll.
   */
  private checkMemory(extra: number): void {
    this.memPending = 0;
    const heap = this.heap;
    if (heap === null) return;
    let used = heap.used() + extra;
    if (used <= this.memTrigger) return;
    if (heap.collect !== undefined) {
      heap.collect();
      used = heap.used();
      this.lastLive = used;
      used += extra;
    }
    if (used > this.memLimit) {
      // What it built is garbage once it stops: the next evaluation collects it
      // before it measures (enterMemory).
      this.lastLive = Math.min(this.lastLive, this.memBase);
      const why = this.memCeiling ? "the JS heap is near the engine's limit" : `${describeBytes(this.memBudget)} for this evaluation`;
      const c = makeCondition("limit", `memory limit reached (${why})`);
      c.code = "memory";
      throw new LimitStop(c);
    }
    if (heap.collect !== undefined) this.memTrigger = Math.max(this.memLimit, used + Math.max(this.memBudget / 4, MEM_CHUNK * 4));
  }

  private stop(code: string, message: string): never {
    const c = makeCondition("limit", message);
    c.code = code;
    throw new LimitStop(c);
  }

  private recall(self: Procedure, args: any[], code: (...a: any[]) => any, isYield: boolean): Unwind {
    const u = new Unwind("recall", isYield);
    u.push(recallFrame(self, args, code));
    return u;
  }

  /**
   * Runs until the evaluation ends, suspends or yields. This machine's budget
   * is the running one only while it runs: between slices of an async
   * evaluation another interpreter's evaluation may run, and its primitives
   * must charge its own budget (or none).
   */
  private step(run: Run): StepResult {
    const prev = installBudget(this);
    try {
      return this.stepLoop(run);
    } finally {
      installBudget(prev);
    }
  }

  private stepLoop(run: Run): StepResult {
    for (;;) {
      let v: any;
      try {
        v = this.advance(run);
      } catch (e) {
        // An exception outside any compiled procedure (a primitive called by the
        // run loop itself, or a limit).
        if (e instanceof LimitStop) {
          this.unw = null;
          const c = e.condition as Condition;
          return { ok: false, error: c, condition: c };
        }
        this.unw = new Unwind("raise", foreignToCondition(e), false);
        v = TAIL;
      }
      if (v !== TAIL) return run.failure ?? { ok: true, value: v };
      this.depth = run.base;
      const u = this.unw as Unwind;
      this.unw = null;
      const r = this.settle(u, run);
      if (r !== null) return r;
    }
  }

  /** Makes the pending call, then delivers values to the heap frames; TAIL when an Unwind is pending. */
  private advance(run: Run): any {
    let v: any;
    if (run.mode === CALL) {
      const p = run.proc as Procedure;
      const args = run.args;
      run.proc = null;
      run.args = NO_ARGS;
      run.mode = RETURN;
      v = applyArray(p, args);
      if (v === TAIL) v = this.bounce();
      if (v === TAIL) return TAIL;
    } else if (run.mode === RAISE) {
      run.mode = RETURN;
      this.unw = new Unwind("raise", run.value, false);
      return TAIL;
    } else v = run.value;
    while (run.k !== null) {
      const f = run.k;
      run.k = f.next;
      v = f.fn.call(f.self, f, v);
      if (v === TAIL) {
        v = this.bounce();
        if (v === TAIL) return TAIL;
      }
    }
    return v;
  }

  /** Carries out a pending Unwind: the next thing to do, or an outcome. */
  private settle(u: Unwind, run: Run): StepResult | null {
    if (u.kind === "reinstate") {
      const t = u.payload as { k: Frame | null; value: any; dyn: Dyn };
      run.k = t.k;
      this.dyn = t.dyn;
      run.mode = RETURN;
      run.value = t.value;
      return null;
    }
    if (u.kind === "escape") {
      // The guard's activation is on the heap: continue at its frame.
      const t = u.payload as { mark: GuardMark; value: any };
      let f = run.k;
      while (f !== null && !(f.fn === guardResume && f.vals === t.mark)) f = f.next;
      if (f === null) {
        run.mode = RAISE;
        run.value = makeCondition("host", "internal error: a guard's escape found no guard");
        return null;
      }
      run.k = f;
      run.mode = RETURN;
      run.value = t.value;
      return null;
    }
    const k = this.link(u, run.k);
    if (k !== null && k.depth > this.maxDepth) {
      const c = makeCondition("limit", `recursion depth limit (${this.maxDepth} frames) reached`);
      c.code = "depth";
      return { ok: false, error: c, condition: c };
    }
    switch (u.kind) {
      case "capture":
        run.k = k;
        run.mode = CALL;
        run.proc = u.payload as Procedure;
        run.args = [this.makeContinuation(k, this.dyn)];
        return null;
      case "recall":
        run.k = k;
        run.mode = RETURN;
        run.value = UNSPECIFIED;
        return u.payload === true ? { yield: true } : null;
      case "suspend":
        run.k = k;
        run.mode = RETURN;
        return { suspend: u.payload as Promise<any> };
      case "raise":
        return this.deliverRaise(u.payload, u.continuable, k, run);
    }
  }

  /** Links the frames an Unwind collected onto continuation k, setting their depths. */
  private link(u: Unwind, k: Frame | null): Frame | null {
    if (u.head === null) return k;
    (u.tail as Frame).next = k;
    let n = 0;
    for (let f: Frame | null = u.head; f !== k; f = (f as Frame).next) n++;
    let d = (k === null ? 0 : k.depth) + n;
    for (let f: Frame | null = u.head; f !== k; f = (f as Frame).next) (f as Frame).depth = d--;
    return u.head;
  }

  /** Calls the current handler with `obj` in the raise's continuation k, or ends the evaluation. */
  private deliverRaise(obj: any, continuable: boolean, k: Frame | null, run: Run): StepResult | null {
    if (obj instanceof Condition && obj.frames === undefined) {
      // A condition passed on by a guard none of whose clauses applied (ADR
      // 0045): its continuation is the raise's, below %guard-raise's frame.
      while (k !== null && k.info !== null && k.info.name === "%guard-raise") k = k.next;
      obj.frames = k;
      if (obj.tailRing === undefined) obj.tailRing = this.ringSnapshot();
      // Without a frame to point at (a failing tail call), the most recent tail call's site is the place.
      if (obj.loc === undefined) obj.loc = firstLoc(k) ?? tailLoc((obj.tailRing as TailEntry[])[0]);
    }
    const hs: HandlerList | null = this.dyn.handlers;
    if (hs === null) {
      const c = obj instanceof Condition ? obj : null;
      if (c !== null && c.backtrace === undefined) c.backtrace = backtraceOf(c);
      const failure: Outcome = { ok: false, error: obj, condition: c };
      // A raise while those after thunks run ends the run with the first error, the one to report.
      if (run.failure !== null) return run.failure;
      if (this.dyn.winders === ROOT_DYN.winders || this.travelProc === null) return failure;
      // The error leaves the evaluation: run the after thunks of the winders it leaves, innermost
      // first, by travelling to where every evaluation starts (a continuation of nothing).
      run.failure = failure;
      run.k = null;
      run.mode = CALL;
      run.proc = this.travelProc;
      run.args = [this.makeContinuation(null, ROOT_DYN), makeValues([])];
      return null;
    }
    const raiseDyn = this.dyn;
    const handlerDyn = raiseDyn.withHandlers(hs.next);
    const top = continuable
      ? new Frame(restoreDyn, this, null, 0, raiseDyn)
      : new Frame(handlerReturned, this, null, 0, obj);
    top.next = k;
    top.depth = (k === null ? 0 : k.depth) + 1;
    this.dyn = handlerDyn;
    run.k = top;
    run.mode = CALL;
    run.proc = hs.handler;
    run.args = [obj];
    return null;
  }

  private ringSnapshot(): TailEntry[] {
    const out: TailEntry[] = [];
    for (let i = 1; i <= RING; i++) {
      const j = (this.ringIdx - i) & (RING - 1);
      const p = this.ring[j];
      if (p) out.push({ proc: p, info: this.ringInfo[j], site: this.ringSite[j] as number });
    }
    return out;
  }
}

const NO_ARGS: any[] = [];

const resolveFrame: ResumeFn = function (this: any, frame: Frame, v: any): any {
  const fn = (frame.info as NonNullable<Frame["info"]>).resumer(frame.site);
  frame.fn = fn;
  return fn.call(this, frame, v);
};

/** A non-tail call's weight on the depth counter for guardCall's call of the body. */
const GUARD_WEIGHT = 16;

/**
 * The frame of a guard whose activation was reified (ADR 0045): the body's
 * value arrives here (or, from the heap path, `(tag . thunk)`: the clauses to
 * run in the guard's continuation), in the guard's dynamic environment.
 */
export const guardResume: ResumeFn = function (this: Runtime, frame: Frame, v: any): any {
  const mark = frame.vals as GuardMark;
  this.dyn = mark.outer;
  if (v instanceof Pair && v.car === mark.tag) return this.tc0(v.cdr);
  return v;
};

/** After a handler of raise-continuable returns: back to the raise point's dynamic environment. */
const restoreDyn: ResumeFn = function (this: Runtime, frame: Frame, v: any): any {
  this.dyn = frame.vals as Dyn;
  return v;
};

/** A handler returned from a non-continuable raise: a secondary error in the handler's environment. */
const handlerReturned: ResumeFn = function (this: Runtime, frame: Frame): any {
  throw new SchemeError(makeCondition("user", "exception handler returned from a non-continuable raise", [frame.vals]));
};

/** A recent tail call: the procedure called, and the lambda and site that called it. */
interface TailEntry {
  readonly proc: Procedure;
  readonly info: any;
  readonly site: number;
}

function tailLoc(t: TailEntry | undefined): SourceLoc | undefined {
  if (t === undefined || t.info === null || t.site === 0) return undefined;
  return t.info.siteLoc(t.site);
}

function firstLoc(k: Frame | null): SourceLoc | undefined {
  for (let f = k; f !== null; f = f.next) {
    if (f.info !== null && f.site !== 0) {
      const loc = f.info.siteLoc(f.site);
      if (loc) return loc;
    }
  }
  return undefined;
}

/** The Scheme backtrace of a raised condition: its continuation's call sites, then recent tail calls. */
export function backtraceOf(c: Condition, max = 24): TraceEntry[] {
  const out: TraceEntry[] = [];
  let f = c.frames as Frame | null | undefined;
  let skipped = 0;
  for (; f; f = f.next) {
    if (f.info === null) continue;
    if (out.length >= max) {
      skipped++;
      continue;
    }
    const loc = f.site !== 0 ? f.info.siteLoc(f.site) : f.info.loc;
    out.push(loc ? { name: f.info.name || "#<lambda>", loc } : { name: f.info.name || "#<lambda>" });
  }
  if (skipped > 0) out.push({ name: `... ${skipped} more frames` });
  for (const t of (c.tailRing as TailEntry[] | undefined) ?? []) {
    const loc = tailLoc(t) ?? t.proc.info.loc;
    out.push(loc ? { name: procName(t.proc), loc, tail: true } : { name: procName(t.proc), tail: true });
  }
  return out;
}

/** 256 MiB, 1.5 GiB, 512 KiB: a byte count for messages. */
function describeBytes(n: number): string {
  if (n === Infinity) return "no budget of its own";
  const units = ["bytes", "KiB", "MiB", "GiB", "TiB"];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) {
    n /= 1024;
    i++;
  }
  return `${Number.isInteger(n) ? n : n.toFixed(1)} ${units[i]}`;
}

/** Converts a JS exception that is not one of ours into a condition. */
export function foreignToCondition(e: any): any {
  if (e instanceof SchemeError) return e.condition;
  if (e instanceof RangeError && /call stack/i.test(e.message)) {
    const c = makeCondition("limit", "JS stack exhausted in a host procedure");
    c.code = "js-stack";
    return c;
  }
  if (e instanceof Condition) return e;
  const msg = e instanceof Error ? e.message : String(e);
  const c = makeCondition("host", `internal error: ${msg}`);
  c.code = "internal";
  c.payload = e;
  return c;
}

/** Raises the error for a call of a value that is not a procedure. */
export function notProcedure(p: any, args: any[]): never {
  if (p instanceof Unbound) throw new SchemeError(makeCondition("unbound", `unbound variable: ${p.name}`, [], undefined));
  throw new SchemeError(makeCondition("type", `attempt to call a non-procedure: ${writeShort(p)}`, [p, ...args]));
}

/** The value of a global that was never defined: says so when referenced or called. */
export class Unbound {
  constructor(readonly name: string) {}
}

/** Raises the arity error for calling `p` with `n` arguments. */
export function arityError(p: Procedure, n: number): never {
  throw new SchemeError(
    makeCondition("arity", `${procName(p)}: wrong number of arguments (expected ${arityText(p.info)}, got ${n})`, [], p.info.name),
  );
}

export { valuesToArray };
