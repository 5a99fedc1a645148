// Reader and printer on 10^6-deep input (reliability plan T8): a datum or a read error, never a RangeError; `write` of the datum reads back.
//
// How time grows with the input (each doubling at most 2.5x) is measured by
// `npm run fuzz` (test/bench/reader-scaling.mjs), not here: a test asserts no time.
import test from "ava";
import { Reader, locationOf } from "../../../interpreter/reader/reader.js";
import { SchemeError } from "../../../interpreter/errors.js";
import { writeToString } from "../../../interpreter/printer/printer.js";
import { SymbolTable } from "../../../interpreter/values/symbol.js";
import { Pair } from "../../../interpreter/values/pair.js";
import { sameDatum } from "./datum-helpers.js";

const N = 1_000_000;

/** Each shape of the plan at 10^6 characters, closed (a datum) and unclosed (a read error). */
const SHAPES: Record<string, [closed: string, open: string]> = {
  "(": ["(".repeat(N / 2) + ")".repeat(N / 2), "(".repeat(N)],
  "'": ["'".repeat(N - 1) + "x", "'".repeat(N)],
  "` and ,": ["`,".repeat(N / 2 - 1) + "`x", "`,".repeat(N / 2)],
  "#(": ["#(".repeat(N / 3) + ")".repeat(N / 3), "#(".repeat(N / 2)],
  "#u8(": ["#u8(" + "1 ".repeat(N / 2 - 4) + ")", "#u8(".repeat(N / 4)],
};

function read(text: string): { datum?: any; error?: string } {
  try {
    return { datum: new Reader(text, { symbols: new SymbolTable(), file: "deep.scm" }).read() };
  } catch (e) {
    if (!(e instanceof SchemeError)) throw e;
    return { error: e.condition.message };
  }
}

for (const [name, [closed, open]] of Object.entries(SHAPES)) {
  test(`10^6 characters of ${name}: the datum reads, writes and reads back; unclosed, a read error`, (t) => {
    const r = read(closed);
    t.is(r.error, undefined);
    const text = writeToString(r.datum, "write");
    t.true(sameDatum(r.datum, read(text).datum), "written and read back");
    const bad = read(open);
    t.regex(bad.error ?? "", /expected|end of input/);
  });
}

test("the first pair of every list and quote form carries its place; the place of a deep chain is right", (t) => {
  const d = read("'".repeat(1000) + "(a)").datum;
  let x = d;
  for (let i = 0; i < 1000; i++) {
    t.true(x instanceof Pair);
    if (i === 0 || i === 999) t.deepEqual(locationOf(x), { file: "deep.scm", line: 1, col: i + 1 });
    x = x.cdr.car;
  }
  t.deepEqual(locationOf(x), { file: "deep.scm", line: 1, col: 1001 });
});
