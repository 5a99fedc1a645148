// Reader and printer time against input length (reliability plan T8, finding 10): each doubling of the input at most 2.5x the time.
//
// CPU time (not wall time) of the fastest of 3 runs, for 10^5 to 8*10^5 characters
// of each shape. Exits 1 when the whole range grows more than 2.5^3 (15.6x) for
// 8x the input, or any one doubling more than 3.5x (noise on a loaded machine).
// Run by `npm run fuzz`; prints a table of milliseconds and ratios.
import { Reader } from "../../dist/interpreter/reader/reader.js";
import { SymbolTable } from "../../dist/interpreter/values/symbol.js";
import { writeToString } from "../../dist/interpreter/printer/printer.js";

const shapes = {
  "'": (n) => "'".repeat(n - 1) + "x",
  "` ,": (n) => "`,".repeat(n / 2 - 1) + "`x",
  ",@": (n) => ",@".repeat(n / 2 - 1) + "`x",
  "(": (n) => "(".repeat(n / 2) + ")".repeat(n / 2),
  "#(": (n) => "#(".repeat(n / 2) + ")".repeat(n / 2),
  "list": (n) => "(" + "a ".repeat(n / 2 - 1) + ")",
  "symbol": (n) => "a".repeat(n),
  "string": (n) => '"' + "a".repeat(n - 2) + '"',
  "number": (n) => "1".repeat(n),
  "#;": (n) => "#;x ".repeat(n / 4),
  "#n=": (n) => { let s = ""; for (let i = 0; s.length < n - 20; i++) s += `#${i}=(`; return s + ")".repeat(s.split("(").length - 1); },
};
const SIZES = [100_000, 200_000, 400_000, 800_000];
function cpu(f) {
  const t0 = process.cpuUsage();
  f();
  const u = process.cpuUsage(t0);
  return (u.user + u.system) / 1000;
}
let bad = 0;
const row = (name, ms) => {
  const ratios = ms.slice(1).map((x, i) => x / Math.max(ms[i], 0.5));
  const whole = ms[3] / Math.max(ms[0], 0.5);
  const fail = ms[3] > 20 && (whole > 2.5 ** 3 || ratios.some((r) => r > 3.5));
  if (fail) bad++;
  console.log(`${name.padEnd(16)} ${ms.map((x) => x.toFixed(0).padStart(6)).join(" ")}  x${ratios.map((r) => r.toFixed(2)).join(" x")}  8x input: x${whole.toFixed(1)}${fail ? "  TOO SLOW" : ""}`);
};
console.log(`shape            ${SIZES.map((s) => String(s).padStart(6)).join(" ")}  (CPU ms, best of 3)`);
for (const [name, gen] of Object.entries(shapes)) {
  const r = [];
  const w = [];
  for (const n of SIZES) {
    const text = gen(n);
    let d;
    let br = Infinity;
    let bw = Infinity;
    for (let k = 0; k < 3; k++) {
      br = Math.min(br, cpu(() => (d = new Reader(text, { symbols: new SymbolTable(), file: "t" }).readAll())));
      bw = Math.min(bw, cpu(() => writeToString(d, "write")));
    }
    r.push(br);
    w.push(bw);
  }
  row(`read ${name}`, r);
  row(`write ${name}`, w);
}
process.exit(bad ? 1 : 0);
