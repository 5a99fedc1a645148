// Exact request replay: rebuild the request an llm.req recorded from the log prefix before it and its recipe alone, and check its digest.
//
// No current tool definition, no model and no tool is used: the tools, the
// system text and every other input come from the llm.req itself, the
// conversation from the records before it. What can go wrong is an error with
// a stable code that says which, never a guessed request:
//   no-record        the log has no record at that seq
//   not-a-request    the record there is of another kind
//   no-recipe        the llm.req records no recipe or digest (a log from
//                    before recipes: its transcript replays, its requests
//                    cannot be reconstructed exactly)
//   unknown-recipe   a recipe (or estimator) this nodwyn does not know
//   recipe-mismatch  the recipe differs from the one in force (the latest
//                    session.start, session.resume or session.model before it)
//   bad-recipe       the recipe lacks what it needs, or records constants
//                    its version does not have
//   digest-mismatch  the rebuilt request's digest is not the recorded one
// The digest proves that the log prefix and the recipe give this request; it
// is not an authenticated seal: whoever can write the log can write a digest.

import type { LogRecord } from "../log/index.js";
import type { Message, ModelRequest, ToolDefinition } from "../model/types.js";
import { canonicalJson, digestOf } from "./canonical.js";
import { SHELL_HEAD_CHARS, SHELL_TAIL_CHARS } from "./clip.js";
import { KNOWN_RECIPES } from "./recipes.js";
import { article } from "./summaries.js";
import { WINDOW_V1, WindowError, rebuildRequest } from "./window-v1.js";
import { LOW_WATER, WindowV2, checkV2Estimator, reserveOf } from "./window-v2.js";
import { SessionTree } from "../checkpoint/tree.js";

/** A request rebuilt and verified. */
export interface Replayed {
  /** The llm.req's seq. */
  readonly seq: number;
  readonly recipe: string;
  readonly request: ModelRequest;
  /** The canonical JSON text of the request: its SHA-256 is the digest. */
  readonly canonical: string;
  readonly digest: string;
  /** The record the recipe in force came from (0 when the log names none). */
  readonly inForceSeq: number;
}

function fail(code: ConstructorParameters<typeof WindowError>[0], message: string): never {
  throw new WindowError(code, message);
}

/**
 * Rebuilds the request of the llm.req at `seq` from `records` (the log, in
 * order; records after `seq` are not read) and verifies its digest. Throws
 * WindowError saying what is wrong.
 */
export function replayRequest(records: Iterable<LogRecord>, seq: number): Replayed {
  const prefix: LogRecord[] = [];
  let req: LogRecord | undefined;
  let last = 0;
  for (const r of records) {
    last = r.seq;
    if (r.seq === seq) {
      req = r;
      break;
    }
    if (r.seq > seq) break;
    prefix.push(r);
  }
  if (req === undefined) fail("no-record", `the log has no record at seq ${seq} (its last record is seq ${last})`);
  if (req.kind !== "llm.req") fail("not-a-request", `seq ${seq} is ${article(req.kind)} ${req.kind} record, not an llm.req: give the seq of a request (nodwyn log show SESSION --kind llm.req lists them)`);
  const p = req.payload as Record<string, any>;
  if (p.recipe === undefined || p.digest === undefined)
    fail(
      "no-recipe",
      `the llm.req at seq ${seq} records no ${p.recipe === undefined ? "recipe" : "digest"}: it comes from before requests recorded them, so its exact request cannot be reconstructed (nodwyn replay SESSION still shows the transcript)`,
    );
  const recipe = p.recipe;
  const name = typeof recipe === "string" ? recipe : recipe?.name;
  if (!KNOWN_RECIPES.includes(name))
    fail("unknown-recipe", `the llm.req at seq ${seq} was built by recipe ${JSON.stringify(name ?? null)}, which this nodwyn does not know (it knows ${KNOWN_RECIPES.join(", ")}); it cannot be rebuilt`);
  if (typeof recipe !== "object" || recipe === null) fail("bad-recipe", `the llm.req at seq ${seq} records its recipe by name only, without its inputs`);

  // The recipe in force: the latest session.start, session.resume or session.model before the request.
  let inForce: { seq: number; kind: string; context: Record<string, unknown> } | null = null;
  for (const r of prefix)
    if ((r.kind === "session.start" || r.kind === "session.resume" || r.kind === "session.model") && r.payload.context !== null && typeof r.payload.context === "object")
      inForce = { seq: r.seq, kind: r.kind, context: r.payload.context as Record<string, unknown> };
  if (inForce !== null) {
    const c = inForce.context;
    const where = `the recipe in force (${inForce.kind} at seq ${inForce.seq})`;
    if (typeof c.recipe === "string" && c.recipe !== name)
      fail("recipe-mismatch", `the llm.req at seq ${seq} records recipe ${JSON.stringify(name)}, but ${where} is ${JSON.stringify(c.recipe)}`);
    for (const k of ["context_window", "reserve"] as const)
      if (typeof c[k] === "number" && c[k] !== recipe[k])
        fail("recipe-mismatch", `the llm.req at seq ${seq} records ${k} ${JSON.stringify(recipe[k])}, but ${where} says ${c[k]}`);
  }

  let rebuilt: { request: ModelRequest; digest: string };
  if (name === WINDOW_V1) rebuilt = rebuildRequest(prefix, req);
  else rebuilt = rebuildV2(prefix, req, seq);
  const canonical = canonicalJson(rebuilt.request);
  const digest = digestOf(canonical);
  if (digest !== p.digest)
    fail(
      "digest-mismatch",
      `the request rebuilt for the llm.req at seq ${seq} (${name}, from seq 1-${seq - 1} and its recorded recipe) has digest ${digest}, but the llm.req records ${String(p.digest)}: the log or the recipe was changed after the request was sent, or another program wrote it`,
    );
  return { seq, recipe: name, request: rebuilt.request, canonical, digest, inForceSeq: inForce?.seq ?? 0 };
}

function rebuildV2(prefix: readonly LogRecord[], req: LogRecord, seq: number): { request: ModelRequest; digest: string } {
  const p = req.payload as Record<string, any>;
  const recipe = p.recipe as Record<string, any>;
  if (typeof recipe.system !== "string" || !Number.isSafeInteger(recipe.context_window) || !Number.isSafeInteger(recipe.reserve))
    fail("bad-recipe", `the llm.req at seq ${seq}: its window-v2 recipe lacks system, context_window or reserve`);
  if (!checkV2Estimator(recipe.estimator))
    fail("unknown-recipe", `the llm.req at seq ${seq}: window-v2 estimates with chars4 v2, and this recipe records estimator ${JSON.stringify(recipe.estimator ?? null)}`);
  if (recipe.low_water !== LOW_WATER) fail("bad-recipe", `the llm.req at seq ${seq}: window-v2 elides down to low_water ${LOW_WATER}, and this recipe records ${JSON.stringify(recipe.low_water ?? null)}`);
  const clip = recipe.shell_clip;
  if (!Array.isArray(clip) || clip[0] !== SHELL_HEAD_CHARS || clip[1] !== SHELL_TAIL_CHARS)
    fail("bad-recipe", `the llm.req at seq ${seq}: window-v2 clips shell output to [${SHELL_HEAD_CHARS}, ${SHELL_TAIL_CHARS}], and this recipe records ${JSON.stringify(clip ?? null)}`);
  const params = (p.params ?? {}) as Record<string, unknown>;
  const maxOutputTokens = typeof params.max_output_tokens === "number" ? params.max_output_tokens : undefined;
  if (reserveOf(recipe.context_window, maxOutputTokens) !== recipe.reserve)
    fail("bad-recipe", `the llm.req at seq ${seq}: reserve ${recipe.reserve} is not what its params give (${reserveOf(recipe.context_window, maxOutputTokens)})`);
  // The head's branch as the prefix leaves it (head.move records, issue 17): the loop's window follows the same tree.
  const w = new WindowV2({ branch: new SessionTree() });
  for (const r of prefix) w.add(r);
  let built;
  try {
    built = w.build({
      model: String(p.model),
      system: recipe.system,
      tools: Array.isArray(p.tools) ? (p.tools as ToolDefinition[]) : [],
      contextWindow: recipe.context_window,
      ...(maxOutputTokens !== undefined ? { maxOutputTokens } : {}),
      ...(typeof params.temperature === "number" ? { temperature: params.temperature } : {}),
      ...(Array.isArray(recipe.additions) ? { additions: recipe.additions as Message[] } : {}),
    });
  } catch (e) {
    if (e instanceof WindowError) fail("digest-mismatch", `the llm.req at seq ${seq}: window-v2 cannot build a request from the log before it (${e.message}), so it was not built from this log`);
    throw e;
  }
  if (built.recipe.result_cap !== recipe.result_cap)
    fail("bad-recipe", `the llm.req at seq ${seq}: window-v2 caps results at ${built.recipe.result_cap} characters for the context in force, and this recipe records ${JSON.stringify(recipe.result_cap ?? null)}`);
  return { request: built.request, digest: built.digest };
}

/** Whether a log's requests can be replayed exactly: how many record a recipe and digest, how many do not. */
export function requestsOf(records: Iterable<LogRecord>): { withRecipe: number[]; without: number[]; recipes: string[] } {
  const withRecipe: number[] = [];
  const without: number[] = [];
  const recipes = new Set<string>();
  for (const r of records) {
    if (r.kind !== "llm.req") continue;
    const p = r.payload as Record<string, any>;
    if (p.recipe !== undefined && p.digest !== undefined) {
      withRecipe.push(r.seq);
      recipes.add(String(typeof p.recipe === "string" ? p.recipe : p.recipe?.name));
    } else without.push(r.seq);
  }
  return { withRecipe, without, recipes: [...recipes] };
}
