// strbuild: twin of strbuild.scm — JS strings (ASCII here, so one code unit
// per character): names grown with + and slice, case mapping through
// Array.from, map and join, the document by join(''), the scan by charCodeAt
// with slice for the fields and Number for the numbers. The character classes
// use ASCII ranges (the text is ASCII; Scheme's are Unicode-aware).
function nextRandom(x) {
  return (x * 48271) % 2147483647;
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

function randomName(seed) {
  seed = nextRandom(seed);
  const len = 3 + (seed % 6);
  let name = '';
  for (let i = 0; i < len; i++) {
    seed = nextRandom(seed);
    const k = seed % 26;
    name = name + LETTERS.slice(k, k + 1);
  }
  return [name, seed];
}

const upcase = (s) => Array.from(s, (c) => c.toUpperCase()).join('');
const downcase = (s) => Array.from(s, (c) => c.toLowerCase()).join('');

function makeDocument(count, seed) {
  const lines = [];
  for (let i = 0; i < count; i++) {
    const [name, next] = randomName(seed);
    seed = next;
    lines.push(`${name},${String(seed % 100000)},${upcase(name)};`);
  }
  return lines.join('');
}

const COMMA = 44;
const SEMICOLON = 59;

function parse(document) {
  const n = document.length;
  let start = 0;
  let fields = [];
  let records = 0;
  let sum = 0;
  let matched = 0;
  let ordered = 0;
  let capitals = 0;
  let digits = 0;
  let checksum = 0;
  let previous = '';
  for (let i = 0; i < n; i++) {
    const c = document.charCodeAt(i);
    if (c === COMMA) {
      fields.push(document.slice(start, i));
      start = i + 1;
    } else if (c === SEMICOLON) {
      const upper = document.slice(start, i);
      const [name, number] = fields;
      records += 1;
      sum += Number(number);
      if (downcase(upper) === name) matched += 1;
      if (previous < name) ordered += 1;
      previous = name;
      fields = [];
      start = i + 1;
    } else {
      if (c >= 65 && c <= 90) capitals += 1;
      if (c >= 48 && c <= 57) digits += 1;
      checksum = (checksum * 31 + c) % 1000003;
    }
  }
  return [records, sum, matched, ordered, capitals, digits, checksum];
}

const run = () => parse(makeDocument(2000, 777));

const BENCH_REPEAT = 6;

function repeatWork(thunk) {
  let result = thunk();
  for (let i = 1; i < BENCH_REPEAT; i++) result = thunk();
  return result;
}

console.log(repeatWork(run).join(' '));
