// System interface: the command line and environment through a real ProcessAccess, the clocks, and no access.
import test from "ava";
import { raised } from "../../helpers/raised.js";
import {
  SymbolTable,
  MString,
  Pair,
  Flonum,
  floValue,
  isFlonum,
  NIL,
  listToArray,
  specArity,
  argError,
  type Ctx,
  type ProcessAccess,
} from "../../../interpreter/api.js";
import { systemPrimitives } from "../../../primitives/scheme/system.js";

/** Process access over this test process's real environment and a given command line (exit is never called here). */
function realProcess(commandLine: string[]): ProcessAccess {
  return {
    commandLine: () => commandLine,
    getEnv: (name) => process.env[name],
    allEnv: () => Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined)),
    exit: (code) => {
      throw new Error(`exit ${code} called in a test`);
    },
  };
}

function ctxWith(proc: ProcessAccess | null): Ctx {
  return { symbols: new SymbolTable(), files: null, process: proc } as unknown as Ctx;
}

/** Calls a table entry as the registration layer does: count and types checked, optionals padded. */
function callIn(ctx: Ctx, name: string, ...args: any[]): any {
  const spec = systemPrimitives.find((s) => s.name === name);
  if (!spec) throw new Error(`no primitive ${name}`);
  const { min, max } = specArity(spec.params);
  if (args.length < min || args.length > max) throw new Error(`${name}: ${args.length} arguments`);
  args.forEach((a, i) => {
    const ty = spec.types?.[i];
    if (ty && !ty.test(a)) argError(name, i + 1, ty.name, a);
  });
  const a = args.slice();
  while (a.length < max) a.push(undefined);
  const r = spec.impl.apply(ctx, a);
  if (r === undefined || r === null) throw new Error(`${name} returned ${r}`);
  return r;
}


const ctx = ctxWith(realProcess(["prog.scm", "--flag", "λ arg"]));
const call = (name: string, ...args: any[]) => callIn(ctx, name, ...args);
const strings = (x: any): string[] => {
  const a = listToArray(x);
  if (a === null) throw new Error("not a list");
  return a.map((s) => {
    if (!(s instanceof MString)) throw new Error("not a string");
    return s.toString();
  });
};

test("command-line is the program's command line as a list of strings", (t) => {
  t.deepEqual(strings(call("command-line")), ["prog.scm", "--flag", "λ arg"]);
  t.is(callIn(ctxWith(realProcess([])), "command-line"), NIL);
});

test("get-environment-variable reads the real environment: a string when set, #f when not", (t) => {
  process.env.NODWYN_SYSTEM_TEST_VAR = "a=b λ";
  t.teardown(() => delete process.env.NODWYN_SYSTEM_TEST_VAR);
  const v = call("get-environment-variable", new MString("NODWYN_SYSTEM_TEST_VAR"));
  t.true(v instanceof MString);
  t.is(v.toString(), "a=b λ");
  t.is(call("get-environment-variable", new MString("NODWYN_SYSTEM_TEST_SURELY_UNSET")), false);
  t.is(raised(() => call("get-environment-variable", 5)).message, "bad argument #1 to 'get-environment-variable' (string expected, got 5)");
});

test("get-environment-variables is an alist of (name . value) strings agreeing with get-environment-variable", (t) => {
  process.env.NODWYN_SYSTEM_TEST_VAR2 = "";
  t.teardown(() => delete process.env.NODWYN_SYSTEM_TEST_VAR2);
  const all = listToArray(call("get-environment-variables"));
  if (all === null) return t.fail("not a list");
  const seen = new Map<string, string>();
  for (const entry of all) {
    t.true(entry instanceof Pair && entry.car instanceof MString && entry.cdr instanceof MString);
    seen.set(entry.car.toString(), entry.cdr.toString());
  }
  t.is(seen.get("NODWYN_SYSTEM_TEST_VAR2"), "", "an empty value is a value, not #f");
  t.is(seen.size, Object.values(process.env).filter((v) => v !== undefined).length);
  for (const [k, v] of seen) t.is(call("get-environment-variable", new MString(k)).toString(), v);
});

test("without process access, command-line and the environment raise a host condition saying so", (t) => {
  const none = ctxWith(null);
  for (const [name, args] of [
    ["command-line", []],
    ["get-environment-variable", [new MString("PATH")]],
    ["get-environment-variables", []],
  ] as const) {
    const c = raised(() => callIn(none, name, ...args));
    t.is(c.kind, "host");
    t.is(c.code, "no-process-access");
    t.is(c.message, `${name}: no process access was granted to this interpreter`);
  }
  // The clocks need no grant.
  t.true(isFlonum(callIn(none, "current-second")));
  t.is(typeof callIn(none, "current-jiffy"), "number");
});

test("current-second is inexact seconds since the epoch, between the host clock's readings around it", (t) => {
  const before = Date.now() / 1000;
  const v = call("current-second");
  const after = Date.now() / 1000;
  t.true(isFlonum(v));
  const s = floValue(v as Flonum);
  t.true(s >= before && s <= after);
  t.true(s > 1.5e9);
});

test("current-jiffy is an exact integer that never decreases, counted in jiffies-per-second", (t) => {
  const jps = call("jiffies-per-second");
  t.is(jps, 1_000_000);
  let prev = call("current-jiffy");
  t.true(Number.isSafeInteger(prev) && prev >= 0);
  for (let i = 0; i < 10_000; i++) {
    const j = call("current-jiffy");
    if (!Number.isSafeInteger(j) || j < prev) return t.fail(`jiffy went from ${prev} to ${j}`);
    prev = j;
  }
  // Agrees with the host's monotonic clock: at least 5 ms of it are at least 5 ms of jiffies.
  const j0 = call("current-jiffy");
  const t0 = performance.now();
  while (performance.now() - t0 < 5);
  const j1 = call("current-jiffy");
  t.true((j1 - j0) / jps >= 0.005 - 1e-6);
});
