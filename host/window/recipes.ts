// The window's recipes: named, versioned policies that turn a log prefix into a provider-neutral request.
//
// A session records the recipe in force in its session.start, session.resume
// and session.model (`context`: recipe, context_window, reserve, estimator);
// each llm.req records the recipe its request was built with, everything the
// recipe needs that is not in the log prefix (system text, tools as offered,
// context size, reserve, estimator, the strategy's additions) and the digest.
// Replay (replay.ts) dispatches on the recorded name, so a request keeps the
// policy it was built with whatever the current one is.

import type { LogRecord } from "../log/index.js";
import type { Message, ModelRequest, ToolDefinition } from "../model/types.js";
import { CHARS4_V1, CHARS4_V2 } from "./estimate.js";
import { WINDOW_V1, WindowV1, defaultReserve, type RecipeV1 } from "./window-v1.js";
import { WINDOW_V2, WindowV2, reserveOf, type BranchFilter, type RecipeV2 } from "./window-v2.js";

/**
 * The recipe new sessions record; old requests keep theirs. What each version added:
 *   window-v1 (issue 12, docs/decisions/0014): user.msg, llm.resp and tool.result
 *     as messages; shell-exec output clipped to its first 1,500 and last 6,000
 *     characters; when over context − reserve (chars4 v1), whole old turns and
 *     then the running turn's old rounds leave, a user marker naming their seqs;
 *     nothing kept between builds.
 *   window-v2 (issue 13, docs/decisions/0025): chars4 v2 (non-ASCII counts a
 *     token a code unit); any tool result capped at a quarter of the usable
 *     context (2,000 to 32,000 characters), the cut naming the seq that holds
 *     it; sticky elision of old replies and results into `[elided seq=N]`
 *     (down to 60% of what fits), then collapse of old units into
 *     `[elided seq=A-B]`, never the latest two user messages, the newest round
 *     last; reviewed summaries (active ones as one labelled assistant message);
 *     context.narrow / context.fold; a user message first and never two
 *     assistant messages in a row ([continued] between); decisions reset by
 *     every edit.
 */
export const RECIPE_VERSION = WINDOW_V2;

/** Every recipe this nodwyn can build and replay. */
export const KNOWN_RECIPES: readonly string[] = [WINDOW_V1, WINDOW_V2];

/** What any recipe's build needs beyond the log. */
export interface BuildParams {
  readonly model: string;
  readonly system: string;
  readonly tools: readonly ToolDefinition[];
  readonly contextWindow: number;
  readonly maxOutputTokens?: number;
  readonly temperature?: number;
  readonly additions?: readonly Message[];
}

/** A built request and what llm.req records of it, for any recipe. */
export interface Built {
  readonly request: ModelRequest;
  readonly recipe: RecipeV1 | RecipeV2;
  readonly digest: string;
  readonly tokens: number;
  readonly params: { readonly max_output_tokens?: number; readonly temperature?: number };
}

/** A window of one session under one recipe: fold records in, build requests. */
export interface RecipeWindow {
  /** The recipe's name. */
  readonly recipe: string;
  /** The seq of the last record folded in. */
  readonly seq: number;
  /** Changes whenever the next build would differ: a request built before is stale. */
  readonly version: number;
  add(r: LogRecord): void;
  build(p: BuildParams): Built;
  /** The window-v2 view, for what strategies read (null under window-v1). */
  readonly v2: WindowV2 | null;
}

class V1Adapter implements RecipeWindow {
  readonly recipe = WINDOW_V1;
  readonly v2 = null;
  private readonly w = new WindowV1();
  get seq(): number {
    return this.w.seq;
  }
  get version(): number {
    return this.w.size;
  }
  add(r: LogRecord): void {
    this.w.add(r);
  }
  build(p: BuildParams): Built {
    return this.w.build(p);
  }
}

class V2Adapter implements RecipeWindow {
  readonly recipe = WINDOW_V2;
  readonly v2: WindowV2;
  constructor(branch?: BranchFilter) {
    this.v2 = new WindowV2(branch ? { branch } : {});
  }
  get seq(): number {
    return this.v2.seq;
  }
  get version(): number {
    return this.v2.version;
  }
  add(r: LogRecord): void {
    this.v2.add(r);
  }
  build(p: BuildParams): Built {
    return this.v2.build(p);
  }
}

/** A new window of the named recipe (the current one by default); throws for a name this nodwyn does not know. */
export function createWindow(name: string = RECIPE_VERSION, o: { readonly branch?: BranchFilter } = {}): RecipeWindow {
  if (name === WINDOW_V2) return new V2Adapter(o.branch);
  if (name === WINDOW_V1) return new V1Adapter();
  throw new RangeError(`unknown window recipe ${JSON.stringify(name)} (known: ${KNOWN_RECIPES.join(", ")})`);
}

/** The `context` a session records for a recipe and model (session.start, session.resume, session.model). */
export function recipeContext(name: string, contextWindow: number, maxOutputTokens?: number): { recipe: string; context_window: number; reserve: number; estimator: string } {
  const est = name === WINDOW_V1 ? CHARS4_V1 : CHARS4_V2;
  const reserve = name === WINDOW_V1 ? (maxOutputTokens ?? defaultReserve(contextWindow)) : reserveOf(contextWindow, maxOutputTokens);
  return { recipe: name, context_window: contextWindow, reserve, estimator: `${est.name}-v${est.version}` };
}
