// Real directory trees in temp folders for the guard, scan-engine and file-primitive tests.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** What a path in a tree is: text or bytes for a file, or a link / FIFO / empty directory. */
export type Node = string | Uint8Array | { link: string } | { fifo: true } | { dir: true };

/** Builds a tree in a fresh temp folder (removed by the returned cleanup). Paths use `/`. */
export function makeTree(spec: Record<string, Node>): { root: string; cleanup: () => void } {
  const root = mkdtempSync(join(tmpdir(), "nodwyn-guard-"));
  for (const [rel, node] of Object.entries(spec)) addNode(root, rel, node);
  return { root, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

export function addNode(root: string, rel: string, node: Node): void {
  const p = join(root, rel);
  mkdirSync(dirname(p), { recursive: true });
  if (typeof node === "string" || node instanceof Uint8Array) writeFileSync(p, node);
  else if ("link" in node) symlinkSync(node.link, p);
  else if ("fifo" in node) mkfifo(p);
  else mkdirSync(p, { recursive: true });
}

/** A FIFO made with mkfifo(1): nothing in the guard may block on it. */
export function mkfifo(path: string): void {
  execFileSync("mkfifo", [path]);
}

/** A listening Unix socket at `path`; close it when done. */
export function listenSocket(path: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(path, () => resolve(s));
  });
}
