// Small statistics and formatting helpers for the benchmark runner.

/** The median of a non-empty list of numbers. */
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** The geometric mean of positive numbers, or null for an empty list. */
export function geomean(xs) {
  if (xs.length === 0) return null;
  return Math.exp(xs.reduce((acc, x) => acc + Math.log(x), 0) / xs.length);
}

/** Milliseconds as "123 ms", "1.23 s" or "61 s". */
export function formatMs(ms) {
  if (ms < 1) return `${ms.toFixed(2)} ms`;
  if (ms < 1000) return `${ms.toFixed(ms < 10 ? 1 : 0)} ms`;
  if (ms < 100000) return `${(ms / 1000).toFixed(ms < 10000 ? 2 : 1)} s`;
  return `${Math.round(ms / 1000).toLocaleString('en-US')} s`;
}

/** A ratio as "1.23×", "12.3×", "1234×". */
export function formatRatio(r) {
  if (r < 10) return `${r.toFixed(2)}×`;
  if (r < 100) return `${r.toFixed(1)}×`;
  return `${Math.round(r).toLocaleString('en-US')}×`;
}

/** Kilobytes as megabytes, "48 MB". */
export function formatKb(kb) {
  return kb == null ? 'n/a' : `${(kb / 1024).toFixed(kb < 10240 ? 1 : 0)} MB`;
}
