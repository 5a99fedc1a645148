// How many terminal columns text takes: wide (East Asian, emoji) characters two, combining marks none, escapes none.

const ZERO = /[\p{Mn}\p{Me}\p{Cf}]/u;
const EMOJI = /\p{Emoji_Presentation}/u;

/** East Asian Wide and Fullwidth ranges (Unicode 15), as [first, last] code points. */
const WIDE: readonly (readonly [number, number])[] = [
  [0x1100, 0x115f],
  [0x231a, 0x231b],
  [0x2329, 0x232a],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xa960, 0xa97f],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe10, 0xfe19],
  [0xfe30, 0xfe6f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x1f300, 0x1f64f],
  [0x1f900, 0x1f9ff],
  [0x20000, 0x2fffd],
  [0x30000, 0x3fffd],
];

/** Columns one code point takes (0, 1 or 2). Control characters count 0 (the caller shows them escaped). */
export function charWidth(cp: number): number {
  if (cp < 32 || (cp >= 0x7f && cp < 0xa0)) return 0;
  if (cp < 0x300) return 1;
  const ch = String.fromCodePoint(cp);
  if (ZERO.test(ch) || (cp >= 0x1160 && cp <= 0x11ff) || cp === 0x200b) return 0;
  for (const [a, b] of WIDE) if (cp >= a && cp <= b) return 2;
  return EMOJI.test(ch) ? 2 : 1;
}

// CSI sequences (colours, cursor moves) and OSC sequences take no columns.
const ANSI = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g;

/** `s` without its terminal escape sequences. */
export function stripAnsi(s: string): string {
  return s.includes("\x1b") ? s.replace(ANSI, "") : s;
}

/** Columns of `s` on one line (escape sequences take none). */
export function stringWidth(s: string): number {
  const plain = stripAnsi(s);
  let w = 0;
  for (let i = 0; i < plain.length; i++) {
    const c = plain.charCodeAt(i);
    if (c < 0x300 && c >= 32 && c !== 0x7f) {
      w++;
      continue;
    }
    const cp = plain.codePointAt(i) as number;
    if (cp > 0xffff) i++;
    w += charWidth(cp);
  }
  return w;
}
