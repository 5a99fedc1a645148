// Bytevectors: bytes 0..255, range checks, overlap-safe copying, UTF-8 conversions with ranges and invalid input.
import test from "ava";
import fc from "fast-check";
import {
  MString,
  UNSPECIFIED,
} from "../../../interpreter/api.js";
import { call, raised } from "../../helpers/prim.js";

const bv = (...b: number[]) => Uint8Array.from(b);
const bytes = (x: Uint8Array) => {
  if (!(x instanceof Uint8Array)) throw new Error("not a bytevector");
  return Array.from(x);
};
const s = (x: string) => new MString(x);

test("bytevector?, make-bytevector, bytevector, bytevector-length", (t) => {
  t.true(call("bytevector?", bv()));
  t.false(call("bytevector?", []));
  t.false(call("bytevector?", s("abc")));
  t.deepEqual(bytes(call("make-bytevector", 3, 7)), [7, 7, 7]);
  t.deepEqual(bytes(call("make-bytevector", 2)), [0, 0]);
  t.is(call("bytevector-length", call("make-bytevector", 3)), 3);
  t.deepEqual(bytes(call("bytevector", 9, 8, 0, 255)), [9, 8, 0, 255]);
  t.deepEqual(bytes(call("bytevector")), []);
  t.is(raised(() => call("bytevector", 1, 256)).kind, "type");
  t.regex(raised(() => call("bytevector", 1, 256)).message, /^bad argument #2 to 'bytevector' \(byte/);
  t.is(raised(() => call("bytevector", -1)).kind, "type");
  t.is(raised(() => call("make-bytevector", 2, 300)).kind, "type");
  // Too large for the memory budget: refused before anything is allocated (ADR 0006).
  t.is(raised(() => call("make-bytevector", 2 ** 40)).code, "memory");
});

test("bytevector-u8-ref and bytevector-u8-set! check index and byte", (t) => {
  t.is(call("bytevector-u8-ref", bv(4, 8, 15, 16, 23, 42), 4), 23);
  t.is(call("bytevector-u8-ref", bv(255), 0), 255);
  const e = raised(() => call("bytevector-u8-ref", bv(1, 2), 2));
  t.is(e.kind, "range");
  t.is(e.message, "bad argument #2 to 'bytevector-u8-ref' (index 2 out of range [0, 2))");
  const b = bv(1, 2, 3);
  t.is(call("bytevector-u8-set!", b, 1, 255), UNSPECIFIED);
  t.deepEqual(bytes(b), [1, 255, 3]);
  t.is(raised(() => call("bytevector-u8-set!", bv(1, 2), 5, 0)).kind, "range");
  t.is(raised(() => call("bytevector-u8-set!", bv(1, 2), 0, 256)).kind, "type");
});

test("bytevector-copy makes an independent copy of a range", (t) => {
  t.deepEqual(bytes(call("bytevector-copy", bv(10, 20, 30, 40, 50), 1, 4)), [20, 30, 40]);
  t.deepEqual(bytes(call("bytevector-copy", bv(1, 2, 3, 4, 5), 3)), [4, 5]);
  const a = bv(1, 2);
  const b = call("bytevector-copy", a);
  b[0] = 9;
  t.deepEqual(bytes(a), [1, 2]);
  // A Node Buffer (which a host might hand over) is copied too, not viewed.
  const buf = Buffer.from([1, 2, 3]);
  const c = call("bytevector-copy", buf, 1);
  c[0] = 9;
  t.is(buf[1], 2);
  t.is(raised(() => call("bytevector-copy", bv(1), 2)).kind, "range");
});

test("bytevector-copy! handles overlap in both directions", (t) => {
  const a = bv(1, 2, 3, 4, 5);
  t.is(call("bytevector-copy!", a, 1, bv(9, 9)), UNSPECIFIED);
  t.deepEqual(bytes(a), [1, 9, 9, 4, 5]);
  const b = bv(1, 2, 3, 4, 5);
  call("bytevector-copy!", b, 0, bv(6, 7, 8, 9), 2);
  t.deepEqual(bytes(b), [8, 9, 3, 4, 5]);
  const o = bv(1, 2, 3, 4, 5);
  call("bytevector-copy!", o, 2, o, 0, 3);
  t.deepEqual(bytes(o), [1, 2, 1, 2, 3]);
  const o2 = bv(1, 2, 3, 4, 5);
  call("bytevector-copy!", o2, 0, o2, 1, 4);
  t.deepEqual(bytes(o2), [2, 3, 4, 4, 5]);
  t.is(raised(() => call("bytevector-copy!", bv(1, 2), 1, bv(7, 8))).kind, "range");
  t.is(raised(() => call("bytevector-copy!", bv(1, 2), 3, bv())).kind, "range");
});

test("bytevector-copy! agrees with copying through a temporary array", (t) => {
  const arb = fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 10 });
  fc.assert(
    fc.property(arb, arb, fc.nat(11), fc.nat(11), fc.nat(11), fc.boolean(), (x, y, at, start, end, same) => {
      const to = Uint8Array.from(x);
      const from = same ? to : Uint8Array.from(y);
      const src = Array.from(from);
      if (start <= end && end <= src.length && at <= to.length && end - start <= to.length - at) {
        const expected = Array.from(to);
        expected.splice(at, end - start, ...src.slice(start, end));
        call("bytevector-copy!", to, at, from, start, end);
        t.deepEqual(bytes(to), expected);
      } else t.is(raised(() => call("bytevector-copy!", to, at, from, start, end)).kind, "range");
    }),
    { numRuns: 500 },
  );
});

test("bytevector-append", (t) => {
  t.deepEqual(bytes(call("bytevector-append", bv(9), bv(8, 7), bv(6))), [9, 8, 7, 6]);
  t.deepEqual(bytes(call("bytevector-append")), []);
  t.deepEqual(bytes(call("bytevector-append", bv(), bv(7), bv())), [7]);
  const a = bv(1);
  t.not(call("bytevector-append", a), a);
  t.is(raised(() => call("bytevector-append", bv(1), [2])).kind, "type");
});

test("utf8->string decodes ranges of UTF-8", (t) => {
  t.is(call("utf8->string", bv(0x7a, 0x21)).toString(), "z!");
  t.is(call("utf8->string", bv(0xce, 0xbb)).toString(), "λ");
  const grin = call("utf8->string", bv(0xf0, 0x9f, 0x98, 0x80));
  t.is(grin.toString(), "😀");
  t.is(grin.length, 1);
  t.is(call("utf8->string", bv(65, 66, 67, 68), 1, 3).toString(), "BC");
  t.is(call("utf8->string", bv(65, 66, 67, 68), 2).toString(), "CD");
  t.is(raised(() => call("utf8->string", bv(65), 0, 2)).kind, "range");
  t.true(call("utf8->string", bv(65)) instanceof MString);
});

test("utf8->string turns each malformed sequence into U+FFFD and keeps a leading BOM", (t) => {
  const dec = (...b: number[]) => call("utf8->string", bv(...b)).toString();
  t.is(dec(0x41, 0xff, 0x42), "A\ufffdB");
  t.is(dec(0xce), "\ufffd"); // truncated two-byte sequence
  t.is(dec(0xe2, 0x82), "\ufffd"); // truncated three-byte sequence: one replacement
  t.is(dec(0xc0, 0xaf), "\ufffd\ufffd"); // overlong
  t.is(dec(0xed, 0xa0, 0x80), "\ufffd\ufffd\ufffd"); // an encoded surrogate
  t.is(dec(0xef, 0xbb, 0xbf, 0x41), "\ufeffA");
  // A range that cuts a character in two.
  t.is(call("utf8->string", bv(0xce, 0xbb, 0x41), 1).toString(), "\ufffdA");
});

test("string->utf8 encodes ranges of characters", (t) => {
  t.deepEqual(bytes(call("string->utf8", s("aλ"))), [0x61, 0xce, 0xbb]);
  t.deepEqual(bytes(call("string->utf8", s("abc"), 1)), [98, 99]);
  t.deepEqual(bytes(call("string->utf8", s("😀"))), [240, 159, 152, 128]);
  t.deepEqual(bytes(call("string->utf8", s("aλb"), 1, 2)), [206, 187]);
  t.deepEqual(bytes(call("string->utf8", s("a😀b"), 1, 2)), [240, 159, 152, 128]);
  t.deepEqual(bytes(call("string->utf8", s(""))), []);
  t.is(call("string->utf8", s("aé€😀")).length, 10);
  t.is(raised(() => call("string->utf8", s("a😀"), 0, 3)).kind, "range");
});

test("string->utf8 matches Node's encoder and utf8->string inverts it", (t) => {
  const scalar = fc.oneof(fc.integer({ min: 0, max: 0xd7ff }), fc.integer({ min: 0xe000, max: 0x10ffff }));
  fc.assert(
    fc.property(fc.array(scalar, { maxLength: 20 }), (cps) => {
      const text = String.fromCodePoint(...cps);
      const enc = call("string->utf8", s(text));
      t.deepEqual(bytes(enc), Array.from(Buffer.from(text, "utf8")));
      t.is(call("utf8->string", enc).toString(), text);
    }),
    { numRuns: 500 },
  );
});
