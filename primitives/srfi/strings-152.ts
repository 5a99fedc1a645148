// The string procedures SRFI 152 (and SRFI 130) add to SRFI 13's: splitting, segmenting, searching from the right, replicating.
//
// (srfi 152) exports SRFI 13's bindings for everything the two share (the
// same procedures: a program may import both), and these for the rest;
// (srfi 130) imports them too.

import { type ProcSpec, T, NIL, Pair, MString, Sym, argError, rangeError } from "../../interpreter/api.js";
import { Text, range, fromCodes, producing } from "./text.js";

const S = T.string;
const I = T.index;

const GRAMMARS = ["infix", "strict-infix", "suffix", "prefix"];

function list(items: readonly string[]): any {
  let out: any = NIL;
  for (let i = items.length - 1; i >= 0; i--) out = new Pair(new MString(items[i] as string), out);
  return out;
}

/** The code point index in t of the last occurrence of t2[a2, b2) within t1[a1, b1), or false. */
function lastOccurrence(t1: Text, a1: number, b1: number, t2: Text, a2: number, b2: number): number | false {
  const hay = t1.js.slice(t1.off(a1), t1.off(b1));
  const u = hay.lastIndexOf(t2.slice(a2, b2));
  return u < 0 ? false : t1.index(t1.off(a1) + u);
}

/** The code points [from, to) of the infinite repetition of t[a, b). */
function replicate(who: string, t: Text, from: number | bigint, to: number | bigint, a: number, b: number): MString {
  const count = BigInt(to) - BigInt(from);
  if (count < 0n) rangeError(who, 3, `to ${to} is less than from ${from}`, to);
  if (count > 2n ** 26n) rangeError(who, 3, `${count} characters exceed the maximum string length`, to);
  const n = Number(count);
  const len = b - a;
  if (len === 0) {
    if (n > 0) rangeError(who, 4, "an empty substring cannot be replicated", a);
    return new MString("");
  }
  const L = BigInt(len);
  const first = Number(((BigInt(from) % L) + L) % L);
  const out = new Array<number>(n);
  for (let i = 0; i < n; i++) out[i] = t.at(a + ((first + i) % len));
  return fromCodes(out);
}

/** The procedures of (nodwyn primitives srfi 152). */
export const stringPrimitives152: ProcSpec[] = [
  {
    name: "string-split",
    params: ["s", "delimiter", "[grammar]", "[limit]", "[start]", "[end]"],
    types: [S, S, T.symbol, null, I, I],
    doc:
      "The words of s[start, end) between the occurrences of delimiter, a list one longer than the occurrences (single characters for an empty delimiter). " +
      "With grammar infix (the default) an empty string gives (), with strict-infix it is an error, prefix and suffix drop a leading or trailing empty word; " +
      "with limit, at most limit splits are made and the rest is the last word.",
    impl(s: MString, delim: MString, grammar?: Sym, limit?: any, start?: number, end?: number) {
      const g = grammar === undefined ? "infix" : grammar.name;
      if (!GRAMMARS.includes(g)) argError("string-split", 3, "grammar infix, strict-infix, suffix or prefix", grammar);
      if (limit !== undefined && limit !== false && !(typeof limit === "number" && Number.isInteger(limit) && limit >= 0)) argError("string-split", 4, "exact non-negative integer or #f", limit);
      const max = limit === undefined || limit === false ? Infinity : (limit as number);
      const t = new Text(s);
      const [a, b] = range("string-split", 5, start, end, t.n);
      const text = t.slice(a, b);
      if (text.length === 0) {
        if (g === "strict-infix") rangeError("string-split", 1, "an empty string cannot be split with the strict-infix grammar", s);
        return NIL;
      }
      const d = delim.toString();
      producing(text.length);
      const words: string[] = [];
      if (d.length === 0) {
        const chars = Array.from(text);
        let i = 0;
        for (; i < chars.length - 1 && words.length < max; i++) words.push(chars[i] as string);
        words.push(chars.slice(i).join(""));
      } else {
        let from = 0;
        for (;;) {
          const at = words.length < max ? text.indexOf(d, from) : -1;
          if (at < 0) {
            words.push(text.slice(from));
            break;
          }
          words.push(text.slice(from, at));
          from = at + d.length;
        }
      }
      if (g === "prefix" && words.length > 0 && words[0] === "") words.shift();
      if (g === "suffix" && words.length > 0 && words[words.length - 1] === "") words.pop();
      return list(words);
    },
  },
  {
    name: "string-segment",
    params: ["s", "k"],
    types: [S, I],
    doc: "The list of the consecutive substrings of s of length k (the last one may be shorter).",
    impl(s: MString, k: number) {
      if (k < 1) rangeError("string-segment", 2, `a segment length must be positive, not ${k}`, k);
      const t = new Text(s);
      producing(t.n);
      const out: string[] = [];
      for (let i = 0; i < t.n; i += k) out.push(t.slice(i, Math.min(i + k, t.n)));
      return list(out);
    },
  },
  {
    name: "string-contains-right",
    params: ["s1", "s2", "[start1]", "[end1]", "[start2]", "[end2]"],
    types: [S, S, I, I, I, I],
    doc: "The index in s1 of the first character of the last occurrence of s2[start2, end2) within s1[start1, end1) (end1 for an empty s2), or #f.",
    impl(s1: MString, s2: MString, st1?: number, e1?: number, st2?: number, e2?: number) {
      const t1 = new Text(s1);
      const t2 = new Text(s2);
      const [a1, b1] = range("string-contains-right", 3, st1, e1, t1.n);
      const [a2, b2] = range("string-contains-right", 5, st2, e2, t2.n);
      if (a2 === b2) return b1;
      return lastOccurrence(t1, a1, b1, t2, a2, b2);
    },
  },
  {
    name: "string-replicate",
    params: ["s", "from", "[to]", "[start]", "[end]"],
    types: [S, T.exactInteger, T.exactInteger, I, I],
    doc: "The characters from index from to index to of s[start, end) repeated without end in both directions: (string-replicate \"abcdef\" 2 8) is \"cdefab\", (string-replicate \"abc\" 0 7) is \"abcabca\". to may be left out, as in SRFI 13's xsubstring: from plus the length of the range.",
    impl(s: MString, from: number | bigint, to?: number | bigint, start?: number, end?: number) {
      const t = new Text(s);
      const [a, b] = range("string-replicate", 4, start, end, t.n);
      return replicate("string-replicate", t, from, to ?? BigInt(from) + BigInt(b - a), a, b);
    },
  },
];
