// Where each key of a TOML document is: line and column by key path, which smol-toml does not give.
//
// The scanner reads a document smol-toml has already accepted, so it follows
// the grammar without judging it: table headers ([a.b], [[a.b]] with their
// element numbers), dotted and quoted keys, inline tables and arrays (each
// element numbered), and every kind of string, so that brackets, quotes and
// '#' inside a string are never taken for structure. On text it does not
// expect it stops quietly: a missing place only makes an error message less
// precise, never wrong.

/** A 1-based line and column. */
export interface Place {
  readonly line: number;
  readonly col: number;
}

/** A key path: table keys and array indices, e.g. ["servers", "local", "url"] or ["reply", 1, "tool_calls", 0]. */
export type KeyPath = readonly (string | number)[];

/** The places of a document's keys, and of its array elements. */
export class Places {
  private readonly map = new Map<string, Place>();

  /** Records where path is, unless it is known already (a key's first mention is where it is defined). */
  set(path: KeyPath, place: Place): void {
    const k = JSON.stringify(path);
    if (!this.map.has(k)) this.map.set(k, place);
  }

  /** The place of path itself, if the scanner saw it. */
  exact(path: KeyPath): Place | undefined {
    return this.map.get(JSON.stringify(path));
  }

  /** The place of path, or of its nearest enclosing key the scanner saw; line 1 column 1 when none. */
  of(path: KeyPath): Place {
    for (let n = path.length; n > 0; n--) {
      const p = this.map.get(JSON.stringify(path.slice(0, n)));
      if (p) return p;
    }
    return { line: 1, col: 1 };
  }

  /** How many places are known. */
  get size(): number {
    return this.map.size;
  }
}

const BARE = /[A-Za-z0-9_-]/;

class Scanner {
  private i = 0;
  private line = 1;
  private lineStart = 0;
  // Arrays of tables: the path of each (with the indices of its parents) → its last element's index.
  private readonly aot = new Map<string, number>();

  constructor(
    private readonly s: string,
    private readonly places: Places,
  ) {}

  private here(): Place {
    return { line: this.line, col: this.i - this.lineStart + 1 };
  }

  private peek(o = 0): string {
    return this.s[this.i + o] ?? "";
  }

  private advance(): void {
    const c = this.s[this.i];
    this.i++;
    if (c === "\n") {
      this.line++;
      this.lineStart = this.i;
    }
  }

  private skipSpaces(): void {
    while (this.peek() === " " || this.peek() === "\t") this.advance();
  }

  // Spaces, newlines and comments (inside arrays, and between statements).
  private skipBlank(): void {
    for (;;) {
      const c = this.peek();
      if (c === " " || c === "\t" || c === "\r" || c === "\n") this.advance();
      else if (c === "#") this.skipComment();
      else return;
    }
  }

  private skipComment(): void {
    while (this.i < this.s.length && this.peek() !== "\n") this.advance();
  }

  run(): void {
    let table: KeyPath = [];
    while (this.i < this.s.length) {
      this.skipBlank();
      if (this.i >= this.s.length) return;
      const start = this.here();
      if (this.peek() === "[") {
        const many = this.peek(1) === "[";
        this.advance();
        if (many) this.advance();
        this.skipSpaces();
        const key = this.key();
        if (key === null) return;
        this.skipSpaces();
        if (this.peek() !== "]") return;
        this.advance();
        if (many) {
          if (this.peek() !== "]") return;
          this.advance();
        }
        table = this.resolveHeader(key, many);
        for (let n = 1; n <= table.length; n++) this.places.set(table.slice(0, n), start);
        this.skipSpaces();
        if (this.peek() === "#") this.skipComment();
        continue;
      }
      if (!this.keyValue(table)) return;
      this.skipSpaces();
      if (this.peek() === "#") this.skipComment();
      this.skipSpaces();
      if (this.peek() === "\r") this.advance();
      if (this.i < this.s.length && this.peek() !== "\n") return; // not what a valid document has here
    }
  }

  // A header's path: a segment naming an array of tables stands for its last element,
  // and [[a.b]] itself opens a new element of a.b.
  private resolveHeader(key: readonly string[], many: boolean): KeyPath {
    const out: (string | number)[] = [];
    key.forEach((seg, n) => {
      out.push(seg);
      const k = JSON.stringify(out);
      const last = n === key.length - 1;
      if (last && many) {
        const next = (this.aot.get(k) ?? -1) + 1;
        this.aot.set(k, next);
        out.push(next);
      } else {
        const idx = this.aot.get(k);
        if (idx !== undefined) out.push(idx);
      }
    });
    return out;
  }

  // key = value, inside table; records the key (and each dotted prefix) and what the value holds.
  private keyValue(table: KeyPath): boolean {
    const start = this.here();
    const key = this.key();
    if (key === null) return false;
    for (let n = 1; n <= key.length; n++) this.places.set([...table, ...key.slice(0, n)], start);
    this.skipSpaces();
    if (this.peek() !== "=") return false;
    this.advance();
    this.skipSpaces();
    return this.value([...table, ...key]);
  }

  // A dotted key: bare or quoted segments, with optional spaces around the dots.
  private key(): string[] | null {
    const segs: string[] = [];
    for (;;) {
      this.skipSpaces();
      const c = this.peek();
      let seg: string | null;
      if (c === '"') seg = this.basicString();
      else if (c === "'") seg = this.literalString();
      else {
        const from = this.i;
        while (BARE.test(this.peek())) this.advance();
        seg = this.i > from ? this.s.slice(from, this.i) : null;
      }
      if (seg === null) return null;
      segs.push(seg);
      this.skipSpaces();
      if (this.peek() !== ".") return segs;
      this.advance();
    }
  }

  private value(path: KeyPath): boolean {
    const c = this.peek();
    if (c === '"') {
      if (this.s.startsWith('"""', this.i)) return this.multiline('"""');
      return this.basicString() !== null;
    }
    if (c === "'") {
      if (this.s.startsWith("'''", this.i)) return this.multiline("'''");
      return this.literalString() !== null;
    }
    if (c === "[") return this.array(path);
    if (c === "{") return this.inlineTable(path);
    // A number, boolean or date: up to the next delimiter.
    const from = this.i;
    while (this.i < this.s.length && !/[,\]}\n#]/.test(this.peek())) this.advance();
    return this.i > from;
  }

  private array(path: KeyPath): boolean {
    this.advance(); // [
    let n = 0;
    for (;;) {
      this.skipBlank();
      if (this.peek() === "]") {
        this.advance();
        return true;
      }
      this.places.set([...path, n], this.here());
      if (!this.value([...path, n])) return false;
      n++;
      this.skipBlank();
      if (this.peek() === ",") this.advance();
      else if (this.peek() !== "]") return false;
    }
  }

  private inlineTable(path: KeyPath): boolean {
    this.advance(); // {
    for (;;) {
      this.skipBlank();
      if (this.peek() === "}") {
        this.advance();
        return true;
      }
      if (!this.keyValue(path)) return false;
      this.skipBlank();
      if (this.peek() === ",") this.advance();
      else if (this.peek() !== "}") return false;
    }
  }

  // "…" with escapes; returns the text (escapes decoded enough for key names) or null.
  private basicString(): string | null {
    this.advance(); // "
    let out = "";
    while (this.i < this.s.length) {
      const c = this.peek();
      if (c === '"') {
        this.advance();
        return out;
      }
      if (c === "\n") return null;
      if (c === "\\") {
        const e = this.peek(1);
        this.advance();
        this.advance();
        const simple: Record<string, string> = { b: "\b", t: "\t", n: "\n", f: "\f", r: "\r", e: "\x1b", '"': '"', "\\": "\\" };
        if (e in simple) out += simple[e];
        else if (e === "u" || e === "U" || e === "x") {
          const len = e === "u" ? 4 : e === "U" ? 8 : 2;
          const hex = this.s.slice(this.i, this.i + len);
          for (let k = 0; k < len; k++) this.advance();
          const code = Number.parseInt(hex, 16);
          out += Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : "";
        }
        continue;
      }
      out += c;
      this.advance();
    }
    return null;
  }

  private literalString(): string | null {
    this.advance(); // '
    const from = this.i;
    while (this.i < this.s.length && this.peek() !== "'") {
      if (this.peek() === "\n") return null;
      this.advance();
    }
    if (this.i >= this.s.length) return null;
    const out = this.s.slice(from, this.i);
    this.advance();
    return out;
  }

  // """…""" or '''…''': up to the closing delimiter (which may be followed by one or two more quotes).
  private multiline(delim: string): boolean {
    for (let k = 0; k < 3; k++) this.advance();
    const q = delim[0];
    while (this.i < this.s.length) {
      if (q === '"' && this.peek() === "\\") {
        this.advance();
        this.advance();
        continue;
      }
      if (this.s.startsWith(delim, this.i)) {
        for (let k = 0; k < 3; k++) this.advance();
        // Up to two quotes right before the delimiter belong to the string: """a""""" is 'a""'.
        while (this.peek() === q) this.advance();
        return true;
      }
      this.advance();
    }
    return false;
  }
}

/** The places of every key (and array element) of a TOML document, by key path. */
export function tomlPlaces(text: string): Places {
  const places = new Places();
  new Scanner(text, places).run();
  return places;
}

/** A key path as TOML writes it: bare keys as they are, others quoted, array indices in brackets (reply[2].text). */
export function formatKeyPath(path: KeyPath): string {
  let out = "";
  for (const seg of path) {
    if (typeof seg === "number") out += `[${seg}]`;
    else {
      const s = /^[A-Za-z0-9_-]+$/.test(seg) ? seg : JSON.stringify(seg);
      out += out === "" ? s : `.${s}`;
    }
  }
  return out;
}
