// `nodwyn memory search|recall|cards`: the conversation memory from a terminal (declared in host/cli/commands/memory.ts).

import { resolve } from "node:path";
import { listSessions, resolveDataDir } from "../log/index.js";
import { findRepoRoot } from "../guard/index.js";
import { ConversationMemory, MemoryError, cardText, noteText, projectOfFacts, renderSearch, openTask } from "../memory/index.js";
import { EXIT, UsageError, flag, optionValue, type Invocation } from "./command.js";
import { sessionArg } from "./session-arg.js";

function rootOf(inv: Invocation): string {
  const given = optionValue(inv, "--root");
  return given !== undefined ? resolve(inv.io.cwd, given) : findRepoRoot(inv.io.cwd);
}

function fail(inv: Invocation, e: unknown): number {
  if (e instanceof MemoryError) {
    inv.io.stderr.write(`nodwyn memory: ${e.message}\n`);
    return EXIT.error;
  }
  const o = e as { name?: string; message?: string };
  if (typeof o?.name === "string" && o.name.startsWith("Log")) {
    inv.io.stderr.write(`nodwyn memory: ${o.message}\n`);
    return EXIT.error;
  }
  throw e;
}

function memoryFor(inv: Invocation, session: string | null): ConversationMemory {
  return new ConversationMemory({ dataDir: resolveDataDir(inv.io.env), session, root: rootOf(inv), env: inv.io.env, capChars: () => Number.MAX_SAFE_INTEGER });
}

export async function memorySearch(inv: Invocation): Promise<number> {
  const query = inv.args.join(" ");
  const limit = optionValue(inv, "--limit");
  try {
    const r = memoryFor(inv, null).searchEarlier(query, limit === undefined ? null : Number(limit), { ignoreLeave: true });
    if (flag(inv, "--json")) inv.io.stdout.write(JSON.stringify(r, null, 2) + "\n");
    else inv.io.stdout.write(renderSearch(r, "earlier", "nodwyn memory recall TASK SEQ reads one whole") + "\n");
    return EXIT.ok;
  } catch (e) {
    return fail(inv, e);
  }
}

/** The repository's latest task (the `last` of this repository). */
function latestTask(inv: Invocation): string {
  const dataDir = resolveDataDir(inv.io.env);
  const root = rootOf(inv);
  const all = listSessions(dataDir).reverse();
  const key = (() => {
    try {
      return projectOfFacts({ session: "", repo: root, title: "", first: "", archived: false, firstTs: "", lastTs: "" }, dataDir);
    } catch {
      return null;
    }
  })();
  for (const s of all) {
    const v = openTask(s.file, { projectOf: (f) => projectOfFacts(f, dataDir) });
    if (v === null) continue;
    const p = v.project;
    v.close();
    if (p === key) return s.session;
  }
  throw new UsageError(`this repository has no tasks in ${dataDir} yet`, "nodwyn chat or nodwyn ask records one");
}

export async function memoryRecall(inv: Invocation): Promise<number> {
  const a = [...inv.args];
  const num = (s: string, what: string, min: number) => {
    if (!/^[0-9]+$/.test(s) || Number(s) < min) throw new UsageError(`${what} must be a whole number${min > 0 ? " from 1" : ""}, got ${JSON.stringify(s)}`);
    return Number(s);
  };
  let task: string | null = null;
  if (a.length === 2 || a.length === 4 || (a.length >= 1 && !/^[0-9]+$/.test(a[0]!))) task = a.shift()!;
  if (a.length !== 1 && a.length !== 3) throw new UsageError("give SEQ, or SEQ START COUNT, after the optional TASK");
  const seq = num(a[0]!, "SEQ", 1);
  const start = a.length === 3 ? num(a[1]!, "START", 0) : 0;
  const count = a.length === 3 ? num(a[2]!, "COUNT", 0) : 0;
  try {
    const session = task === null || task === "last" ? latestTask(inv) : sessionArg(task, inv, { paths: false }).session;
    const r = memoryFor(inv, session).recall(seq, start, count, null, { whole: true });
    if (flag(inv, "--json")) inv.io.stdout.write(JSON.stringify(r, null, 2) + "\n");
    else inv.io.stdout.write(r.text + "\n");
    return EXIT.ok;
  } catch (e) {
    return fail(inv, e);
  }
}

export async function memoryCards(inv: Invocation): Promise<number> {
  const s = sessionArg(inv.args[0]!, inv, { paths: false });
  try {
    const r = memoryFor(inv, s.session).cards(s.session);
    if (flag(inv, "--json")) {
      inv.io.stdout.write(JSON.stringify({ task: s.session, ...r }, null, 2) + "\n");
      return EXIT.ok;
    }
    const out: string[] = [`task ${s.session}${r.facts.title ? ` · ${JSON.stringify(r.facts.title)}` : ""}${r.facts.archived ? " · archived" : ""}`];
    if (r.cards.length === 0) out.push("no turns yet");
    for (const c of r.cards) out.push("", ...cardText(c));
    for (const n of r.notes) out.push("", ...noteText(n));
    inv.io.stdout.write(out.join("\n") + "\n");
    return EXIT.ok;
  } catch (e) {
    return fail(inv, e);
  }
}
