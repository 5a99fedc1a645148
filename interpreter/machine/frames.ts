// Heap frames: the reified part of a continuation, and the signals that reify it.
//
// Compiled code runs on the JS stack. When a signal below (an Unwind) passes
// through a compiled procedure's catch, the procedure appends a Frame that
// knows how to continue it after the call it was making, then rethrows. The run
// loop links the recorded frames onto the heap continuation it already holds.
// Frames are never mutated once linked (except the cached resume function), so
// a continuation can be resumed any number of times.

import type { SourceLoc } from "../values/loc.js";
import type { Procedure } from "../values/procedure.js";

/** What a compiled lambda tells the machine about itself (implemented by the compiler). */
export interface LambdaInfo {
  readonly name: string;
  readonly loc: SourceLoc | undefined;
  /** Location of call/primitive site `site` (1-based ids). */
  siteLoc(site: number): SourceLoc | undefined;
  /** The function continuing this lambda after non-tail call `site` returns. */
  resumer(site: number): ResumeFn;
}

/** Continues a frame with the value `v` delivered to it; `this` is the frame's `self`. */
export type ResumeFn = (this: any, frame: Frame, v: any) => any;

export class Frame {
  /** Resume function; for lambda frames it is resolved from `info` on first use. */
  fn: ResumeFn;
  /** `this` for fn: the closure for lambda frames, or kind-specific data. */
  readonly self: any;
  readonly info: LambdaInfo | null;
  readonly site: number;
  /** Saved variables of the activation, or kind-specific data. */
  readonly vals: any;
  next: Frame | null;
  /** Number of frames in the chain starting here (set when linked). */
  depth: number;
  constructor(fn: ResumeFn, self: any, info: LambdaInfo | null, site: number, vals: any) {
    this.fn = fn;
    this.self = self;
    this.info = info;
    this.site = site;
    this.vals = vals;
    this.next = null;
    this.depth = 0;
  }
}

/** Resolves a lambda frame's resume function on first use and caches it on the frame. */
export const resolveLambdaFrame: ResumeFn = function (this: any, frame: Frame, v: any): any {
  const fn = (frame.info as LambdaInfo).resumer(frame.site);
  frame.fn = fn;
  return fn.call(this, frame, v);
};

export type UnwindKind = "capture" | "raise" | "suspend" | "recall" | "reinstate" | "escape";

/**
 * The signal that reifies the JS stack. It is not thrown: the procedure that
 * starts it stores it in the runtime (`R.unw`) and returns TAIL, and every
 * compiled call site that sees TAIL come back with an Unwind pending appends its
 * frame (innermost first) and returns TAIL in turn, down to the run loop.
 * `reinstate` (calling a continuation) abandons the stack: no frames are kept;
 * so does `escape` (a guard's clause applied, ADR 0045), which the guard's
 * activation takes when it is on the JS stack, or else the run loop.
 */
export class Unwind {
  readonly kind: UnwindKind;
  head: Frame | null = null;
  tail: Frame | null = null;
  /**
   * capture: the receiver procedure; raise: the raised object; suspend: the
   * promise; recall: true when yielding the time slice; reinstate: the target
   * {k, value, dyn}; escape: {mark, value}, the guard's GuardMark and the clause's values.
   */
  readonly payload: any;
  /** raise: raise-continuable. */
  readonly continuable: boolean;
  /** raise: the dynamic environment at the raise point (handlers are looked up there). */
  dyn: any = null;
  constructor(kind: UnwindKind, payload: any, continuable = false) {
    this.kind = kind;
    this.payload = payload;
    this.continuable = continuable;
  }
  push(f: Frame): void {
    if (this.tail === null) this.head = this.tail = f;
    else {
      this.tail.next = f;
      this.tail = f;
    }
  }
}

export { LimitStop } from "../budget.js";


/**
 * A frame that re-enters a compiled procedure when resumed (ignoring the value):
 * `code` is its JS function, called with `this` = the closure and its raw
 * parameters (a rest parameter already as a list), so no arity adapter is in between.
 */
export function recallFrame(self: Procedure, args: any[], code: (...a: any[]) => any): Frame {
  return new Frame(recallResume, self, null, 0, { code, args });
}
const recallResume: ResumeFn = function (this: Procedure, frame: Frame): any {
  const { code, args } = frame.vals as { code: (...a: any[]) => any; args: any[] };
  return code.apply(this, args);
};

/** Calls procedure p with an array of arguments through the calling convention (may return TAIL). */
export function applyArray(p: Procedure, args: any[]): any {
  switch (args.length) {
    case 0:
      return p.f0();
    case 1:
      return p.f1(args[0]);
    case 2:
      return p.f2(args[0], args[1]);
    case 3:
      return p.f3(args[0], args[1], args[2]);
    default:
      return p.fN(args);
  }
}

/** Walks a continuation for a backtrace: innermost first, at most `max` entries. */
export function framesOf(k: Frame | null, max: number): Frame[] {
  const out: Frame[] = [];
  for (let f = k; f !== null && out.length < max; f = f.next) out.push(f);
  return out;
}
