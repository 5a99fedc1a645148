// Terminal input decoded into keys: text, control keys, escape sequences (arrows, Home/End, Alt-x) and bracketed paste.

import { StringDecoder } from "node:string_decoder";

/** One key press (or a pasted text, or a run of typed characters). */
export interface Key {
  /**
   * "text" for characters to insert (in `text`), "paste" for a bracketed paste
   * (in `text`), else a key name: return, backspace, delete, tab, escape, up,
   * down, left, right, home, end, pageup, pagedown, insert, or a letter with
   * `ctrl` or `meta` (Ctrl-A is { name: "a", ctrl: true }).
   */
  readonly name: string;
  readonly ctrl?: boolean;
  readonly meta?: boolean;
  readonly shift?: boolean;
  readonly text?: string;
}

const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";

/** CSI final characters and `~` codes to key names. */
const CSI_FINAL: Readonly<Record<string, string>> = { A: "up", B: "down", C: "right", D: "left", H: "home", F: "end", Z: "tab" };
const CSI_TILDE: Readonly<Record<string, string>> = { "1": "home", "2": "insert", "3": "delete", "4": "end", "5": "pageup", "6": "pagedown", "7": "home", "8": "end" };

/**
 * Decodes a byte stream into keys. Feed it chunks as they arrive; an escape
 * sequence or a UTF-8 character split across chunks is completed by the next
 * one (a lone ESC at the end of a chunk is the Escape key: terminals send a
 * sequence in one write).
 */
export class KeyDecoder {
  private readonly utf8 = new StringDecoder("utf8");
  private pending = "";
  /** Inside a bracketed paste: what has been pasted so far. */
  private paste: string | null = null;

  feed(chunk: Buffer | string): Key[] {
    const s = this.pending + (typeof chunk === "string" ? chunk : this.utf8.write(chunk));
    this.pending = "";
    const keys: Key[] = [];
    let text = "";
    const flush = () => {
      if (text) keys.push({ name: "text", text });
      text = "";
    };
    let i = 0;
    while (i < s.length) {
      if (this.paste !== null) {
        const end = s.indexOf(PASTE_END, i);
        if (end < 0) {
          // Keep a possible partial end marker for the next chunk.
          const keep = partialSuffix(s.slice(i), PASTE_END);
          this.paste += s.slice(i, s.length - keep);
          this.pending = s.slice(s.length - keep);
          return keys;
        }
        this.paste += s.slice(i, end);
        keys.push({ name: "paste", text: this.paste.replace(/\r\n?/g, "\n") });
        this.paste = null;
        i = end + PASTE_END.length;
        continue;
      }
      const c = s[i] as string;
      const code = c.charCodeAt(0);
      if (c === "\x1b") {
        flush();
        if (s.startsWith(PASTE_START, i)) {
          this.paste = "";
          i += PASTE_START.length;
          continue;
        }
        const r = this.escape(s, i);
        if (r === null) {
          this.pending = s.slice(i);
          return keys;
        }
        keys.push(r.key);
        i = r.next;
        continue;
      }
      if (code === 13 || code === 10) {
        flush();
        keys.push({ name: "return" });
        // CR LF from a terminal that sends both is one Enter.
        i += code === 13 && s[i + 1] === "\n" ? 2 : 1;
        continue;
      }
      if (code === 127 || code === 8) {
        flush();
        keys.push({ name: "backspace" });
        i++;
        continue;
      }
      if (code === 9) {
        flush();
        keys.push({ name: "tab" });
        i++;
        continue;
      }
      if (code < 32) {
        flush();
        keys.push({ name: String.fromCharCode(code + 96), ctrl: true });
        i++;
        continue;
      }
      text += c;
      i++;
    }
    flush();
    return keys;
  }

  /** The key of the escape sequence at s[i], or null when the chunk ends inside it. */
  private escape(s: string, i: number): { key: Key; next: number } | null {
    const n = s[i + 1];
    if (n === undefined) return { key: { name: "escape" }, next: i + 1 };
    if (n === "[" || n === "O") {
      // CSI: parameters (digits and ;) then a final character; SS3: one character.
      let j = i + 2;
      if (n === "[") while (j < s.length && /[0-9;?<=>]/.test(s[j] as string)) j++;
      if (j >= s.length) return s.length - i > 16 ? { key: { name: "escape" }, next: i + 1 } : null;
      const params = s.slice(i + 2, j);
      const final = s[j] as string;
      const next = j + 1;
      const mods = params.includes(";") ? Number(params.split(";")[1]) - 1 : 0;
      const flags = { ...(mods & 1 ? { shift: true } : {}), ...(mods & 2 ? { meta: true } : {}), ...(mods & 4 ? { ctrl: true } : {}) };
      if (final === "~") {
        const name = CSI_TILDE[params.split(";")[0] as string];
        return { key: name ? { name, ...flags } : { name: "unknown" }, next };
      }
      const name = CSI_FINAL[final] ?? (n === "O" && final === "M" ? "return" : undefined);
      if (name === "tab") return { key: { name: "tab", shift: true }, next };
      return { key: name ? { name, ...flags } : { name: "unknown" }, next };
    }
    // Alt (Meta) + a key: ESC then the key.
    const code = n.charCodeAt(0);
    if (n === "\r" || n === "\n") return { key: { name: "return", meta: true }, next: i + 2 };
    if (code === 127 || code === 8) return { key: { name: "backspace", meta: true }, next: i + 2 };
    if (code < 32) return { key: { name: String.fromCharCode(code + 96), ctrl: true, meta: true }, next: i + 2 };
    if (n === "\x1b") return { key: { name: "escape" }, next: i + 1 };
    return { key: { name: n.toLowerCase(), meta: true, ...(n !== n.toLowerCase() ? { shift: true } : {}) }, next: i + 2 };
  }
}

/** How many characters at the end of `s` start `marker` (a marker cut between two chunks). */
function partialSuffix(s: string, marker: string): number {
  for (let k = Math.min(marker.length - 1, s.length); k > 0; k--) if (marker.startsWith(s.slice(s.length - k))) return k;
  return 0;
}
