import test from "ava";
import { compareNames } from "../../../host/search/index.js";
import { comparePaths } from "../../../host/index/index.js";

/** The order by its definition: component by component with compareNames, then fewer components first. */
function byComponents(a: string, b: string): number {
  const x = a.split("/");
  const y = b.split("/");
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const c = compareNames(x[i] as string, y[i] as string);
    if (c !== 0) return c;
  }
  return x.length - y.length;
}

const sign = (n: number): number => (n < 0 ? -1 : n > 0 ? 1 : 0);

test("comparePaths orders a directory's files where the directory's name sorts", (t) => {
  // "a" < "a-b" < "a.c" as names, so everything under a/ comes before a-b and a.c, though "/" > "-" as a character.
  const paths = ["a.c", "a-b/x", "a/z", "a/b/c", "a-b", "a", "b", "a/b"];
  t.deepEqual([...paths].sort(comparePaths), ["a", "a/b", "a/b/c", "a/z", "a-b", "a-b/x", "a.c", "b"]);
  // An astral character sorts after U+FFFD (compareNames' code point order, not UTF-16's).
  t.true(comparePaths("d/\u{1F600}", "d/\uFFFD") > 0);
  t.true(comparePaths("d\u{1F600}/x", "d\uFFFD") > 0);
});

test("comparePaths agrees with the order by components on random paths", (t) => {
  const alphabet = ["a", "b", "/", "-", ".", "_", "0", "\uFFFD", "\u{1F600}", "\u00e9"];
  let seed = 12345;
  const rnd = (n: number): number => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  const path = (): string => {
    let s = "";
    const len = 1 + rnd(8);
    for (let i = 0; i < len; i++) s += alphabet[rnd(alphabet.length)];
    // Paths as a listing has them: no empty component.
    return s.split("/").filter((c) => c !== "").join("/") || "a";
  };
  const ps = Array.from({ length: 400 }, path);
  let n = 0;
  for (const a of ps) {
    for (const b of ps.slice(0, 100)) {
      if (sign(comparePaths(a, b)) !== sign(byComponents(a, b))) t.fail(`${JSON.stringify(a)} against ${JSON.stringify(b)}`);
      n++;
    }
  }
  t.is(n, 40_000);
});
