// What the REPL's commands (meta.ts) may use of the REPL (repl.ts).

import type { Interpreter, Outcome, SourceLoc } from "../../../interpreter/api.js";
import type { Session } from "../../session/session.js";
import type { Style } from "../terminal/style.js";
import type { DescribeContext } from "./describe.js";
import type { ShowLimits } from "./show.js";
import type { Tracer } from "./trace.js";

/** The REPL as its commands see it (meta.ts). */
export interface ReplCore {
  readonly interp: Interpreter;
  readonly session: Session;
  readonly style: Style;
  readonly tracer: Tracer;
  readonly lastError: (Outcome & { ok: false }) | null;
  print(s: string): void;
  printError(s: string): void;
  printFailure(out: Outcome & { ok: false }): void;
  errorHeadline(out: Outcome & { ok: false }): string;
  sourceExcerpt(loc: SourceLoc): string | null;
  show(v: unknown, whole: boolean, limits?: ShowLimits): string;
  describeContext(): DescribeContext;
  nextFile(): string;
  quit(code: number): void;
  evaluateAndPrint(text: string, o?: EvalPrint): Promise<void>;
  timed(text: string): Promise<void>;
}

/** How ,pp ,json ,load and ,time print what they evaluate. */
export interface EvalPrint {
  /** Print values whole (,pp). */
  readonly whole?: boolean;
  /** Print no value (,load); `after` says what happened instead. */
  readonly quiet?: boolean;
  readonly after?: () => string;
  /** Turn the value into text (,json); an Error thrown is reported. */
  readonly render?: (v: unknown) => string;
}
