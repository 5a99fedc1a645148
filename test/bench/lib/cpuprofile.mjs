// Reading a V8 .cpuprofile (node --cpu-prof): self time per function, the
// figures docs/performance.md quotes for "where the time goes".

import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Self time per function, largest first: `[{ name, where, url, line, column,
 * ms, share }]` (line and column 0-based, as V8 gives them).
 * A function is its name with its file and line (the same name in two places
 * is two rows); samples are charged to the node they land on, each sample's
 * duration the gap to the next (the profile's timeDeltas). `root` shortens
 * file URLs under it to relative paths.
 */
export function selfTimes(profile, { root } = {}) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const perNode = new Map();
  const { samples = [], timeDeltas = [] } = profile;
  for (let i = 0; i < samples.length; i++) {
    // timeDeltas[i] is the time before sample i; the time sample i stands for
    // is the gap to the next one (the last sample gets the profile's end).
    const next = i + 1 < samples.length ? timeDeltas[i + 1] : Math.max(0, profile.endTime - profile.startTime - timeDeltas.reduce((a, b) => a + b, 0));
    perNode.set(samples[i], (perNode.get(samples[i]) ?? 0) + next);
  }
  const rows = new Map();
  let total = 0;
  for (const [id, us] of perNode) {
    const node = byId.get(id);
    if (!node) continue;
    const cf = node.callFrame;
    let url = cf.url || '';
    if (root && url.startsWith('file://')) {
      try {
        url = relative(root, fileURLToPath(url));
      } catch {
        // not a file URL after all
      }
    }
    const name = cf.functionName || '(anonymous)';
    const where = url ? `${url}:${cf.lineNumber + 1}` : '';
    const key = `${name}\u0000${where}`;
    const row = rows.get(key) ?? { name, where, url: cf.url || '', line: cf.lineNumber, column: cf.columnNumber, ms: 0 };
    row.ms += us / 1000;
    rows.set(key, row);
    total += us / 1000;
  }
  return [...rows.values()]
    .map((r) => ({ ...r, share: total > 0 ? r.ms / total : 0 }))
    .sort((a, b) => b.ms - a.ms || a.name.localeCompare(b.name));
}
