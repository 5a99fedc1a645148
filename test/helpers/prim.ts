// Test helpers: call R7RS procedures through a real interpreter's registration layer.
//
// `call` runs the procedure bound to a name in the builtins environment, as
// Scheme would call it: arity and argument types are checked by the same
// entries compiled code uses, and a raised condition comes back as a thrown
// SchemeError.
import { createNodeInterpreter } from "../../host/session/node-interpreter.js";
import { SchemeError, Procedure, type Ctx } from "../../interpreter/api.js";

const interp = createNodeInterpreter({});

/** The interpreter's context (its symbol table interns the symbols the procedures return). */
export const ctx: Ctx = interp.ctx;

/** Applies the built-in procedure `name` to `args` and returns its value (a MultipleValues for several). */
export function call(name: string, ...args: any[]): any {
  const b = interp.builtins.table.get(interp.symbols.intern(name));
  if (b === undefined || b.k !== "global" || !(b.cell.v instanceof Procedure)) throw new Error(`no procedure ${name}`);
  const out = interp.rt.runSync(b.cell.v, args);
  if (!out.ok) throw out.condition ? new SchemeError(out.condition) : new Error(`raised ${String(out.error)}`);
  return out.value;
}

export { raised } from "./raised.js";
