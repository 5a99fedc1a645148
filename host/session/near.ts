// "Did you mean …?": the names nearest to a misspelt one, by edit distance.

/** Optimal string alignment distance (Levenshtein with adjacent transpositions), stopping early past `max`. */
export function editDistance(a: string, b: string, max = Infinity): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev2: number[] = [];
  let prev: number[] = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur: number[] = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min((prev[j] as number) + 1, (cur[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, (prev2[j - 2] as number) + 1);
      cur.push(d);
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > max) return max + 1;
    prev2 = prev;
    prev = cur;
  }
  return prev[b.length] as number;
}

/** How far a name may be from a candidate to be suggested: about a third of its length, at least one edit. */
function budget(name: string): number {
  return Math.max(1, Math.min(3, Math.floor(name.length / 3)));
}

/**
 * The candidates nearest to `name` (at most `limit`, best first; ties in
 * candidate order), within an edit budget that grows with the name's length.
 * Case differences count as one edit in all.
 */
export function nearestAll(name: string, candidates: Iterable<string>, limit = 3): string[] {
  const max = budget(name);
  const lower = name.toLowerCase();
  const scored: { c: string; d: number; i: number }[] = [];
  let i = 0;
  for (const c of candidates) {
    i++;
    if (c === name) continue;
    let d = editDistance(lower, c.toLowerCase(), max);
    if (d === 0) d = 0.5; // differs only in case
    // Near, not merely short: replacing every character of g gives *, which is no suggestion.
    else if (d >= Math.min(name.length, c.length)) continue;
    if (d <= max) scored.push({ c, d, i });
  }
  scored.sort((x, y) => x.d - y.d || x.i - y.i);
  const out: string[] = [];
  for (const s of scored) if (!out.includes(s.c) && out.push(s.c) >= limit) break;
  return out;
}

/** The one candidate nearest to `name`, or undefined. */
export function nearest(name: string, candidates: Iterable<string>): string | undefined {
  return nearestAll(name, candidates, 1)[0];
}
