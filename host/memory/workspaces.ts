// The person's leave to search earlier tasks: earlier_tasks on the project's entry in $XDG_CONFIG_HOME/nodwyn/workspaces.toml.
//
// The file is the person's, outside every repository: $XDG_CONFIG_HOME/nodwyn/
// (else ~/.config/nodwyn/). No model tool writes there, the guard keeps the
// model's reads inside the repository, and a file that resolves into the
// project's own tree (a symbolic link a repository could control) is not
// taken. It is read again at every call, so turning it on or off counts at the
// next call; off is the default.
//
//   [[workspace]]
//   path = "/home/me/src/nodwyn"     # the repository, or any of its worktrees
//   earlier_tasks = true

import { readFileSync, realpathSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join, sep } from "node:path";
import { parseToml, TomlSyntaxError } from "../toml/index.js";
import { projectPaths } from "../index/index.js";

/** Where workspaces.toml is for this environment. */
export function workspacesFile(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const xdg = env.XDG_CONFIG_HOME;
  if (xdg && isAbsolute(xdg)) return join(xdg, "nodwyn", "workspaces.toml");
  return join(env.HOME || homedir(), ".config", "nodwyn", "workspaces.toml");
}

/** Whether earlier tasks may be searched, and if not, what to tell the person. */
export interface EarlierLeave {
  readonly allowed: boolean;
  readonly file: string;
  /** Why not (the message of the error a search raises). */
  readonly why?: string;
}

/**
 * How the person turns it on, for the error the model reads: no host path in
 * it (the file is named by its place in the configuration folder).
 */
export function howToAllow(): string {
  return (
    "the person can allow it in workspaces.toml in nodwyn's configuration folder ($XDG_CONFIG_HOME/nodwyn, else ~/.config/nodwyn), " +
    'with an entry for this repository: [[workspace]] path = "<the repository\'s folder>" earlier_tasks = true; ' +
    "no model, strategy or repository can write that file, and it is read again at every call"
  );
}

/** Reads the leave for the project of `root` (its repository key `project`). */
export function earlierTasksLeave(env: Readonly<Record<string, string | undefined>>, root: string, project: string, dataDir: string): EarlierLeave {
  const file = workspacesFile(env);
  const off = (why: string): EarlierLeave => ({ allowed: false, file, why: `${why}: ${howToAllow()}` });
  let text: string;
  let real: string;
  try {
    real = realpathSync(file);
    text = readFileSync(real, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return off("searching earlier tasks is off (there is no workspaces.toml)");
    return off(`searching earlier tasks is off (workspaces.toml cannot be read: ${(e as NodeJS.ErrnoException).code ?? "error"})`);
  }
  let rootReal = root;
  try {
    rootReal = realpathSync(root);
  } catch {
    // the tree's path as given
  }
  if (real === rootReal || real.startsWith(rootReal + sep)) return off(`searching earlier tasks is off (workspaces.toml lies inside the repository, which may not give itself leave)`);
  let doc: Record<string, unknown>;
  try {
    doc = parseToml(text).value;
  } catch (e) {
    if (e instanceof TomlSyntaxError) return off(`searching earlier tasks is off (workspaces.toml:${e.line}:${e.col}: ${e.detail})`);
    throw e;
  }
  const list = doc.workspace;
  if (list === undefined) return off(`searching earlier tasks is off (workspaces.toml has no [[workspace]] entry for this repository)`);
  if (!Array.isArray(list)) return off(`searching earlier tasks is off (workspaces.toml: workspace must be an array of tables, [[workspace]])`);
  for (const [i, w] of list.entries()) {
    if (w === null || typeof w !== "object" || Array.isArray(w)) return off(`searching earlier tasks is off (workspaces.toml: workspace entry ${i + 1} is not a table)`);
    const o = w as Record<string, unknown>;
    if (typeof o.path !== "string") return off(`searching earlier tasks is off (workspaces.toml: workspace entry ${i + 1} has no path)`);
    let key: string | null = null;
    try {
      key = projectPaths(o.path, dataDir).key;
    } catch {
      key = null; // a path that is gone names no project
    }
    if (key !== project) continue;
    const v = o.earlier_tasks;
    if (v === undefined) return off(`searching earlier tasks is off (this repository's entry in workspaces.toml does not set earlier_tasks)`);
    if (typeof v !== "boolean") return off(`searching earlier tasks is off (workspaces.toml: earlier_tasks of workspace entry ${i + 1} must be true or false)`);
    return v ? { allowed: true, file } : off(`searching earlier tasks is off (earlier_tasks = false for this repository in workspaces.toml)`);
  }
  return off(`searching earlier tasks is off (workspaces.toml has no [[workspace]] entry for this repository)`);
}
