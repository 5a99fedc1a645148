// What work outside compiled Scheme code reports of its cost and memory to the evaluation that runs it.
//
// Compiled code counts its own steps (the machine's fuel), and the machine
// measures the heap at its poll points. Work done inside one call of a
// primitive — copying a long list, a bignum gcd, printing a large datum — and
// what it allocates at once would escape the step budget, the deadline and the
// memory budget if it did not say so: `spend` and `allocate` pass it on to the
// running evaluation, which may end there with its limit. Call them before the
// work when its size is known, so that a request that cannot fit fails before
// it is made (docs/decisions/0006-resource-limits.md).
//
// The running evaluation is a property of the JS thread, not of an
// interpreter: one evaluation runs at a time on a thread, the machine installs
// its budget on entry and restores the previous one on exit (a nested
// evaluation, such as a checker, has its own). With no evaluation running,
// nothing is charged.

/**
 * Ends the evaluation: a limit was reached. Thrown through primitives and
 * compiled code down to the run loop; Scheme handlers never see it, and code
 * that catches JS exceptions must let it pass (rethrow it).
 */
export class LimitStop {
  constructor(readonly condition: any) {}
}

/** The limits of the running evaluation, as primitives see them. */
export interface Budget {
  /** Charges about `ns` nanoseconds of work: may end the evaluation (steps, deadline, abort). */
  spend(ns: number): void;
  /** Announces `bytes` about to be allocated: may end the evaluation (memory). */
  allocate(bytes: number): void;
}

const FREE: Budget = {
  spend() {},
  allocate() {},
};

let current: Budget = FREE;

/** The running evaluation's budget (null when none runs): a machine starting inside another one's primitive asks. */
export function runningBudget(): Budget | null {
  return current === FREE ? null : current;
}

/** Makes `b` the running evaluation's budget; returns the one it replaces (to restore on exit). */
export function installBudget(b: Budget | null): Budget {
  const prev = current;
  current = b ?? FREE;
  return prev;
}

/**
 * Charges about `ns` nanoseconds of work to the running evaluation (one step
 * of the step budget is 16 ns; less than a step is not charged). Throws the
 * evaluation's limit (a LimitStop, which no Scheme handler sees) when its
 * steps are spent, its deadline is past — or would be before `ns` of work is
 * done — or it was aborted.
 */
export function spend(ns: number): void {
  if (ns >= STEP_NS) current.spend(ns);
}

/**
 * Announces an allocation of about `bytes` to the running evaluation before it
 * is made. Throws the memory limit when the evaluation's memory budget cannot
 * hold it.
 */
export function allocate(bytes: number): void {
  current.allocate(bytes);
}

/** Nanoseconds of work one step of the step budget stands for (about a procedure call). */
export const STEP_NS = 16;

/**
 * Rough costs for `spend` (nanoseconds) and `allocate` (bytes), per element
 * processed or made. They are estimates on purpose: what matters is that the
 * charge grows with the work.
 */
export const COST = {
  /** Visiting one element of a list or vector. */
  elementNs: 2,
  /** One character of a string scanned or copied. */
  charNs: 1,
  /** A pair. */
  pairBytes: 40,
  /** A slot of a vector (or of any JS array). */
  slotBytes: 8,
  /** A character of a string held as code points (a JS string takes 1 or 2). */
  codePointBytes: 8,
} as const;
