// Lexer: the R7RS-small lexical syntax (§2, §7.1) as chevrotain tokens.
//
// Every character of any input lexes to some token: malformed text becomes an
// error token (an unterminated string, an unknown `#` form, a reserved brace…)
// that the reader turns into a Scheme read error at the right place, so the
// chevrotain lexer itself never reports errors and the reader never sees a JS
// exception. Tokens carry only text and offset; the reader resolves their
// values (numbers, escapes, character names) because that depends on
// `#!fold-case` state and must report errors with locations.
//
// Lexical decisions (docs/decisions/0001-reader-chevrotain-lexer-iterative-parser.md):
// - `[` `]` are accepted as list parentheses (they must match each other); `{` `}` are reserved.
// - Delimiters are whitespace, `( ) [ ] { } " ; |` and also `' \` ,` (R7RS identifiers
//   cannot contain them, so `a'b` reads as `a` then `'b`).
// - An atom is any run of non-delimiters not starting with `#`; the reader decides
//   whether it is a number, `.`, a keyword (`:name`) or a symbol.

import type { IToken, TokenType } from "chevrotain";
import type * as Chevrotain from "chevrotain";

// chevrotain's package entry loads its sources as hundreds of small modules
// (with lodash-es), about 0.4 s of start-up on every run; the single-file
// build it publishes beside them (lib/chevrotain.min.mjs) loads in about 15 ms.
// Resolve it next to the package entry, and fall back to the entry.
async function loadChevrotain(): Promise<typeof Chevrotain> {
  try {
    return (await import(new URL("../chevrotain.min.mjs", import.meta.resolve("chevrotain")).href)) as typeof Chevrotain;
  } catch {
    return await import("chevrotain");
  }
}
const { createToken, Lexer } = await loadChevrotain();

/** What a token is, as the reader sees it. */
export type TokenKind =
  | "open" // (
  | "close" // )
  | "open-bracket" // [
  | "close-bracket" // ]
  | "brace" // { or }: reserved
  | "vector" // #(
  | "bytevector" // #u8(
  | "quote" // '
  | "quasiquote" // `
  | "unquote" // ,
  | "unquote-splicing" // ,@
  | "datum-comment" // #;
  | "directive" // #!fold-case, #!no-fold-case, or an unknown #!name
  | "label-def" // #12=
  | "label-ref" // #12#
  | "char" // #\a #\space #\x41 (also a lone #\ at the end of input)
  | "keyword" // #:name
  | "hash" // any other #...: #t #false #x1F #e1.5, or bad syntax such as #foo
  | "string" // "..." (escapes not yet processed)
  | "bar-symbol" // |...| (escapes not yet processed)
  | "atom" // number, identifier, `.`, or :keyword
  | "unterminated-string"
  | "unterminated-bar-symbol"
  | "unterminated-comment"
  | "invalid"; // never produced for real input: every character is covered above

/** Delimiter characters after which an atom ends (whitespace is handled by isDelimiter). */
const DELIMS = "()[]{}\";'`,|";
const ATOM_BODY = "[^\\s()\\[\\]{}\";'`,|]";

const ASCII_DELIMITER = new Uint8Array(128);
for (const ch of DELIMS + " \t\n\v\f\r") ASCII_DELIMITER[ch.charCodeAt(0)] = 1;

/** True when code unit `c` ends an atom or a character name: JS `\s` whitespace or a delimiter. */
export function isDelimiter(c: number): boolean {
  if (c < 128) return ASCII_DELIMITER[c] === 1;
  // The non-ASCII members of JS `\s`, so that the regex tokens and this agree.
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

// Custom matchers: each returns the matched text, or null to let a later token try.

type Match = [string] | null;

/** `#| … |#` with nesting; null when unterminated (then UnterminatedComment matches). */
function matchBlockComment(text: string, offset: number): Match {
  if (text.charCodeAt(offset) !== 35 || text.charCodeAt(offset + 1) !== 124) return null;
  let depth = 1;
  let i = offset + 2;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 124 /* | */ && text.charCodeAt(i + 1) === 35 /* # */) {
      i += 2;
      if (--depth === 0) return [text.slice(offset, i)];
    } else if (c === 35 && text.charCodeAt(i + 1) === 124) {
      i += 2;
      depth++;
    } else i++;
  }
  return null;
}

/** Text between `open` and the matching unescaped `close`; null when unterminated. */
function matchQuoted(text: string, offset: number, quote: number): Match {
  if (text.charCodeAt(offset) !== quote) return null;
  const n = text.length;
  for (let i = offset + 1; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === quote) return [text.slice(offset, i + 1)];
    if (c === 92 /* \ */) i++;
  }
  return null;
}

/**
 * `#\` then one character taken as is (even a delimiter), then — unless that
 * character was a delimiter — the rest of a name (`#\space`, `#\x41`).
 */
function matchChar(text: string, offset: number): Match {
  if (text.charCodeAt(offset) !== 35 || text.charCodeAt(offset + 1) !== 92) return null;
  let i = offset + 2;
  const n = text.length;
  if (i >= n) return [text.slice(offset, i)];
  const first = text.codePointAt(i) as number;
  i += first > 0xffff ? 2 : 1;
  if (!(first < 0x10000 && isDelimiter(first))) {
    while (i < n && !isDelimiter(text.charCodeAt(i))) i++;
  }
  return [text.slice(offset, i)];
}

const Whitespace = createToken({ name: "Whitespace", pattern: /\s+/, group: Lexer.SKIPPED, line_breaks: true });
const LineComment = createToken({ name: "LineComment", pattern: /;[^\n\r]*/, group: Lexer.SKIPPED });
const BlockComment = createToken({
  name: "BlockComment",
  pattern: { exec: matchBlockComment },
  group: Lexer.SKIPPED,
  line_breaks: true,
  start_chars_hint: ["#"],
});
const UnterminatedComment = createToken({ name: "UnterminatedComment", pattern: /#\|[\s\S]*/, line_breaks: true });
const DatumComment = createToken({ name: "DatumComment", pattern: "#;" });
const Directive = createToken({ name: "Directive", pattern: new RegExp("#!" + ATOM_BODY + "*") });
const VectorOpen = createToken({ name: "VectorOpen", pattern: "#(" });
const BytevectorOpen = createToken({ name: "BytevectorOpen", pattern: "#u8(" });
const LabelDef = createToken({ name: "LabelDef", pattern: /#[0-9]+=/ });
const LabelRef = createToken({ name: "LabelRef", pattern: /#[0-9]+#/ });
const CharTok = createToken({ name: "Char", pattern: { exec: matchChar }, line_breaks: true, start_chars_hint: ["#"] });
const KeywordTok = createToken({ name: "Keyword", pattern: new RegExp("#:" + ATOM_BODY + "*") });
const Hash = createToken({ name: "Hash", pattern: new RegExp("#" + ATOM_BODY + "*") });
const BarSymbol = createToken({
  name: "BarSymbol",
  pattern: { exec: (t: string, o: number) => matchQuoted(t, o, 124) },
  line_breaks: true,
  start_chars_hint: ["|"],
});
const UnterminatedBar = createToken({ name: "UnterminatedBar", pattern: /\|[\s\S]*/, line_breaks: true });
const StringTok = createToken({
  name: "String",
  pattern: { exec: (t: string, o: number) => matchQuoted(t, o, 34) },
  line_breaks: true,
  start_chars_hint: ['"'],
});
const UnterminatedString = createToken({ name: "UnterminatedString", pattern: /"[\s\S]*/, line_breaks: true });
const LParen = createToken({ name: "LParen", pattern: "(" });
const RParen = createToken({ name: "RParen", pattern: ")" });
const LBracket = createToken({ name: "LBracket", pattern: "[" });
const RBracket = createToken({ name: "RBracket", pattern: "]" });
const Brace = createToken({ name: "Brace", pattern: /[{}]/ });
const Quote = createToken({ name: "Quote", pattern: "'" });
const Quasiquote = createToken({ name: "Quasiquote", pattern: "`" });
const UnquoteSplicing = createToken({ name: "UnquoteSplicing", pattern: ",@" });
const Unquote = createToken({ name: "Unquote", pattern: "," });
// Chevrotain cannot derive the first characters of a negated class, and without
// them it drops its first-character dispatch for the whole lexer (3-4× slower).
// So the atom and catch-all tokens are custom matchers with explicit hints: every
// code unit below 256 that may start them, and one representative of each
// 255-wide block above (chevrotain buckets code units ≥ 256 that way).
function matchAtom(text: string, offset: number): Match {
  let i = offset;
  const n = text.length;
  while (i < n && !isDelimiter(text.charCodeAt(i))) i++;
  return i > offset ? [text.slice(offset, i)] : null;
}
function startHints(accept: (c: number) => boolean): number[] {
  const hints: number[] = [];
  for (let c = 0; c < 256; c++) if (accept(c)) hints.push(c);
  for (let c = 256; c < 65536; c += 255) hints.push(c);
  hints.push(65535);
  return hints;
}
const Atom = createToken({
  name: "Atom",
  pattern: { exec: matchAtom },
  start_chars_hint: startHints((c) => c !== 35 && !isDelimiter(c)),
});
const Invalid = createToken({
  name: "Invalid",
  pattern: { exec: (t: string, o: number) => (o < t.length ? [t[o] as string] : null) },
  line_breaks: true,
  start_chars_hint: startHints(() => true),
});

// Order matters: chevrotain takes the first pattern that matches.
const TOKENS: [TokenType, TokenKind | null][] = [
  [Whitespace, null],
  [LineComment, null],
  [BlockComment, null],
  [UnterminatedComment, "unterminated-comment"],
  [DatumComment, "datum-comment"],
  [Directive, "directive"],
  [VectorOpen, "vector"],
  [BytevectorOpen, "bytevector"],
  [LabelDef, "label-def"],
  [LabelRef, "label-ref"],
  [CharTok, "char"],
  [KeywordTok, "keyword"],
  [Hash, "hash"],
  [BarSymbol, "bar-symbol"],
  [UnterminatedBar, "unterminated-bar-symbol"],
  [StringTok, "string"],
  [UnterminatedString, "unterminated-string"],
  [LParen, "open"],
  [RParen, "close"],
  [LBracket, "open-bracket"],
  [RBracket, "close-bracket"],
  [Brace, "brace"],
  [Quote, "quote"],
  [Quasiquote, "quasiquote"],
  [UnquoteSplicing, "unquote-splicing"],
  [Unquote, "unquote"],
  [Atom, "atom"],
  [Invalid, "invalid"],
];

// The lexer holds no per-input state, so one instance serves every interpreter.
const LEXER = new Lexer(
  TOKENS.map(([t]) => t),
  // The token definitions are fixed and covered by tests: skipping the validations
  // saves most of the lexer's construction time at every start.
  { positionTracking: "onlyOffset", ensureOptimizations: true, recoveryEnabled: true, skipValidations: true },
);

const KINDS: TokenKind[] = [];
for (const [t, k] of TOKENS) if (k !== null) KINDS[t.tokenTypeIdx as number] = k;

/** The reader's view of a chevrotain token. */
export function tokenKind(t: IToken): TokenKind {
  return KINDS[t.tokenType.tokenTypeIdx as number] ?? "invalid";
}

/**
 * Tokens of `text` (whitespace and comments dropped), offsets relative to `text`.
 * Never fails: malformed input yields error tokens.
 */
export function tokenize(text: string): IToken[] {
  return LEXER.tokenize(text).tokens;
}
