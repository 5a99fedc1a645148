// The reader's regression corpus (reliability plan T7): inputs that once failed or that sit on an edge, read on every npm test.
//
// Add each input a fuzz run finds (minimised, as fast-check reports it) under a
// name that says what it broke.

const big = 100_000;

export const REGRESSIONS: Record<string, string> = {
  // Finding 10: prefix chains and deep nesting took superlinear time (a weak table of every located pair).
  "10^5 quotes": "'".repeat(big) + "x",
  "10^5 quasiquote-unquote pairs": "`,".repeat(big / 2) + "x",
  "10^5 unquote-splicing": ",@".repeat(big / 2) + "x",
  "10^5 nested lists": "(".repeat(big / 2) + ")".repeat(big / 2),
  "10^5 nested vectors": "#(".repeat(big / 2) + ")".repeat(big / 2),
  "10^5 unclosed lists": "(".repeat(big),
  "10^5 unclosed vectors": "#(".repeat(big / 2),
  "10^5 unclosed bytevectors": "#u8(".repeat(big / 4),
  "10^5 datum comments": "#;".repeat(big / 2) + "x",
  "10^5 nested block comments": "#|".repeat(big / 2),
  "10^5 datum labels": Array.from({ length: 10_000 }, (_, i) => `#${i}=(`).join(""),
  "a long symbol": "a".repeat(big),
  "a long unterminated string": '"' + "a".repeat(big),
  "a long unterminated |symbol|": "|" + "a".repeat(big),
  "a long number": "1".repeat(big),
  "a long hex number": "#x" + "f".repeat(big),
  // Numbers at the edges of exactness and of size.
  "exact 10^400000000": "#e1e400000000",
  "exact 10^-400000000": "#e1e-400000000",
  "inexact overflow": "1e400000000 -1e400000000 1e-400000000",
  "exact infinity": "#e+inf.0",
  "inexact 1/0": "#i1/0",
  "a rational with a long denominator": "123456789/" + "9".repeat(50_000),
  // Characters and escapes outside Unicode scalar values.
  "#\\x110000": "#\\x110000",
  "a surrogate character": "#\\xD800",
  "a surrogate in a string escape": '"\\xD800;"',
  "a surrogate in a symbol escape": "|\\xDFFF;|",
  "lone surrogates in text": "(a \uD800 b \uDC00)",
  "NUL bytes": "(a\0b \0)",
  "a byte order mark": "\uFEFF(a)",
  // Structure.
  "a label that is only itself": "#0=#0#",
  "a label in both halves of a pair": "#1=(#1# . #1#)",
  "datum comments at the end": "#;#;#;",
  "a stray comment close": "#| |# |#",
  "fold-case character names": "#!fold-case #\\NEWLINE #\\Space",
  "a byte past 255": "#u8(256)",
};
