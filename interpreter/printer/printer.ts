// Printer: write, write-shared, write-simple and display to strings.
// (Placeholder until the full printer lands; the signatures are the contract.)

export type WriteMode = "write" | "shared" | "simple" | "display";

/** The external representation of `x` in `mode`. */
export function writeToString(x: unknown, mode: WriteMode = "write"): string {
  return String(x);
}

/** `write` form of `x` cut to about `max` characters, for messages. */
export function writeShort(x: unknown, max = 60): string {
  const s = writeToString(x, "write");
  return s.length > max ? s.slice(0, max - 3) + "..." : s;
}
