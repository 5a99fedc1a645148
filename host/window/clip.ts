// Clipping a long tool result to its head and tail, saying how much was cut (the seed's shell rule).

/** Characters of a shell result the model reads from its start. */
export const SHELL_HEAD_CHARS = 1500;
/** Characters of a shell result the model reads from its end. */
export const SHELL_TAIL_CHARS = 6000;

/**
 * `text` whole when it has at most head + tail characters, else its first
 * `head` and last `tail` characters around a line that counts the cut:
 * `[… 12345 characters cut …]`. Cuts never split a surrogate pair.
 */
export function clipMiddle(text: string, head = SHELL_HEAD_CHARS, tail = SHELL_TAIL_CHARS): string {
  if (text.length <= head + tail) return text;
  let a = head;
  // Do not end the head between the two halves of a surrogate pair, nor start the tail there.
  if (isLow(text.charCodeAt(a)) && isHigh(text.charCodeAt(a - 1))) a--;
  let b = text.length - tail;
  if (isLow(text.charCodeAt(b)) && isHigh(text.charCodeAt(b - 1))) b++;
  return `${text.slice(0, a)}\n[… ${b - a} characters cut …]\n${text.slice(b)}`;
}

function isHigh(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}
function isLow(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

/**
 * Like clipMiddle, with the line between head and tail made by `note` from the
 * number of characters cut (window-v2 names the seq that holds the whole text).
 */
export function clipWith(text: string, head: number, tail: number, note: (cut: number) => string): string {
  if (text.length <= head + tail) return text;
  let a = head;
  if (isLow(text.charCodeAt(a)) && isHigh(text.charCodeAt(a - 1))) a--;
  let b = text.length - tail;
  if (isLow(text.charCodeAt(b)) && isHigh(text.charCodeAt(b - 1))) b++;
  return `${text.slice(0, a)}\n${note(b - a)}\n${text.slice(b)}`;
}
