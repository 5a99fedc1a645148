// System interface (R7RS §6.14): the command line, environment variables and time.
//
// exit, emergency-exit, load and features belong to the interpreter itself;
// file-exists? and delete-file are with the file ports in io.ts.

import { type Ctx, type ProcessAccess, type ProcSpec, T, MString, Pair, flo, arrayToList, hostError } from "../../interpreter/api.js";

function processOf(ctx: Ctx, who: string): ProcessAccess {
  if (ctx.process === null) hostError("no-process-access", `${who}: no process access was granted to this interpreter`, [], who);
  return ctx.process;
}

/** Jiffies are microseconds: fine enough to time one procedure call, and exact integers for 285 years. */
const JIFFIES_PER_SECOND = 1_000_000;

/** The process-context and time primitives of R7RS §6.14. */
export const systemPrimitives: ProcSpec[] = [
  {
    name: "command-line",
    params: [],
    doc: "The command line of the program as a list of strings, the program's name first.",
    impl(this: Ctx) {
      return arrayToList(processOf(this, "command-line").commandLine().map((s) => new MString(s)));
    },
  },
  {
    name: "get-environment-variable",
    params: ["name"],
    types: [T.string],
    doc: "The value of the environment variable name as a string, or #f when it is not set.",
    impl(this: Ctx, name: MString) {
      const v = processOf(this, "get-environment-variable").getEnv(name.toString());
      return v === undefined ? false : new MString(v);
    },
  },
  {
    name: "get-environment-variables",
    params: [],
    doc: "Every environment variable as an association list of (name . value) string pairs.",
    impl(this: Ctx) {
      const env = processOf(this, "get-environment-variables").allEnv();
      return arrayToList(Object.entries(env).map(([k, v]) => new Pair(new MString(k), new MString(v))));
    },
  },
  {
    name: "current-second",
    params: [],
    // R7RS allows UTC plus a constant for TAI; we return plain UTC, which is
    // what every date tool an agent compares with uses.
    doc: "The current time in seconds since the Unix epoch (1970-01-01 UTC) as an inexact number, with millisecond precision.",
    impl: () => flo(Date.now() / 1000),
  },
  {
    name: "current-jiffy",
    params: [],
    doc:
      "The number of jiffies (microseconds, see jiffies-per-second) since an arbitrary epoch fixed for the run, an " +
      "exact integer that never decreases: for measuring time, not for telling it.",
    // performance.now() is monotonic (unlike Date.now()) and counts from the start of the process.
    impl: () => Math.floor(globalThis.performance.now() * 1000),
  },
  {
    name: "jiffies-per-second",
    params: [],
    doc: "The number of jiffies in a second: 1000000 (a jiffy is a microsecond).",
    impl: () => JIFFIES_PER_SECOND,
  },
];
