// The condition a Scheme error carries, for tests that expect one (no interpreter made here).
import { SchemeError, type Condition } from "../../interpreter/api.js";

/** The condition raised by fn. */
export function raised(fn: () => unknown): Condition {
  try {
    fn();
  } catch (e) {
    if (e instanceof SchemeError) return e.condition;
    throw e;
  }
  throw new Error("expected a Scheme error");
}
