// ,trace NAME and ,untrace: calls of a procedure and their results printed as they happen, nested by depth.
//
// The traced global is replaced by a Scheme procedure that prints the call,
// calls the original (so tail calls inside it are no longer tail calls, and
// recursion shows as nesting), prints what it returned and returns it. Only
// procedures defined at the REPL or loaded into it can be traced: imported
// ones are constants that compiled code may have inlined.

import { Procedure, UNSPECIFIED, writeShort, type Interpreter, type ProcSpec } from "../../../interpreter/api.js";

/** Source of the wrapper maker, evaluated once per interpreter. */
const WRAPPER = `(lambda (name proc enter leave)
  (lambda args
    (enter name args)
    (call-with-values (lambda () (apply proc args))
      (lambda results (leave name results) (apply values results)))))`;

export class Tracer {
  private readonly traced = new Map<string, { original: Procedure; wrapper: Procedure }>();
  private maker: Procedure | null = null;
  private depth = 0;
  private readonly enter: Procedure;
  private readonly leave: Procedure;

  constructor(
    private readonly interp: Interpreter,
    private readonly print: (line: string) => void,
  ) {
    const self = this;
    const mk = (name: string, fn: (n: any, xs: any[]) => void): ProcSpec => ({
      name,
      params: ["name", "values"],
      doc: "Internal: prints a traced call or its result.",
      impl(n: any, xs: any) {
        const arr: any[] = [];
        for (let p = xs; p && p.car !== undefined; p = p.cdr) arr.push(p.car);
        fn(n, arr);
        return UNSPECIFIED;
      },
    });
    this.enter = interp.define(
      mk("%trace-enter", (n, args) => {
        self.print(`${"| ".repeat(self.depth)}> (${[n.name, ...args.map((a) => writeShort(a, 60))].join(" ")})`);
        self.depth++;
      }),
    );
    this.leave = interp.define(
      mk("%trace-leave", (_n, results) => {
        self.depth = Math.max(0, self.depth - 1);
        self.print(`${"| ".repeat(self.depth)}< ${results.length === 1 ? writeShort(results[0], 60) : results.map((r) => writeShort(r, 40)).join(" ") || "(no values)"}`);
      }),
    );
  }

  /** Names traced now. */
  names(): string[] {
    return [...this.traced.keys()];
  }

  /** Called before each evaluation: a call left by an escape or an error does not indent the next. */
  reset(): void {
    this.depth = 0;
  }

  /** Traces a global procedure; returns what to tell the person. */
  async trace(name: string): Promise<string> {
    const cell = this.cellOf(name);
    if (typeof cell === "string") return cell;
    if (this.traced.has(name)) return `${name} is traced already (,untrace ${name} stops it)`;
    if (!(cell.v instanceof Procedure)) return `${name} is not a procedure`;
    if (cell.constant) return `${name} is imported and may be compiled in place, so its calls cannot be traced; trace a procedure of your own`;
    this.maker ??= (await this.interp.evaluate(WRAPPER, { file: "<trace>" })) as Procedure;
    const wrapper = (await this.interp.call(this.maker, [this.interp.symbols.intern(name), cell.v, this.enter, this.leave])) as Procedure;
    wrapper.info = { ...wrapper.info, name };
    this.traced.set(name, { original: cell.v, wrapper });
    cell.v = wrapper;
    return `tracing ${name}: each call prints > (${name} args …) and < its value (,untrace ${name} stops it)`;
  }

  /** Stops tracing one name, or all of them. */
  untrace(name?: string): string {
    const names = name === undefined ? this.names() : [name];
    if (names.length === 0) return "nothing is traced";
    const done: string[] = [];
    for (const n of names) {
      const t = this.traced.get(n);
      if (t === undefined) return `${n} is not traced${this.traced.size ? ` (traced: ${this.names().join(", ")})` : ""}`;
      const cell = this.cellOf(n);
      // A definition made since replaced the wrapper: leave the new value alone.
      if (typeof cell !== "string" && cell.v === t.wrapper) cell.v = t.original;
      this.traced.delete(n);
      done.push(n);
    }
    return `no longer tracing ${done.join(", ")}`;
  }

  private cellOf(name: string): { v: any; constant: boolean } | string {
    const b = this.interp.interactionEnvironment().table.get(this.interp.symbols.intern(name));
    if (b === undefined || b.k !== "global" || b.cell.v?.constructor?.name === "Unbound") return `nothing is bound to ${name}`;
    return b.cell;
  }
}


