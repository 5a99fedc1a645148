// strings: twin of strings.scm — characters are one-character JS strings,
// string->list is Array.from, list->string is join, the output string port is
// string concatenation (V8 ropes) and the input port is an index into the text.
// The character classes use ASCII ranges (the text is ASCII; Scheme's are
// Unicode-aware), and case mapping uses toUpperCase/toLowerCase.
function nextRandom(x) {
  return (x * 48271) % 2147483647;
}

const ALPHABET = 'abcdeilmnorst';

function randomWord(seed) {
  seed = nextRandom(seed);
  const len = 2 + (seed % 6);
  const chars = [];
  for (let i = 0; i < len; i++) {
    seed = nextRandom(seed);
    chars.unshift(ALPHABET[seed % 13]);
  }
  return [chars.join(''), seed];
}

const isAlphabetic = (c) => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
const isUpperCase = (c) => c >= 'A' && c <= 'Z';

function rot13(c) {
  if (!isAlphabetic(c)) return c;
  const base = isUpperCase(c) ? 65 : 97;
  return String.fromCharCode(base + ((c.charCodeAt(0) - base + 13) % 26));
}

function capitalize(word) {
  const chars = Array.from(word);
  chars[0] = chars[0].toUpperCase();
  return chars.join('');
}

function isPalindrome(word) {
  const chars = Array.from(word);
  const reversed = chars.slice().reverse();
  return chars.every((c, i) => c === reversed[i]);
}

function makeText(count, seed) {
  let out = '';
  let previous = '';
  let ordered = 0;
  let palindromes = 0;
  for (let i = 0; i < count; i++) {
    const [word, nextSeed] = randomWord(seed);
    seed = nextSeed;
    const encoded = Array.from(capitalize(word)).map(rot13).join('');
    out += encoded + '-' + String(word.length);
    out += ' ';
    if (previous < word) ordered += 1;
    if (isPalindrome(word)) palindromes += 1;
    previous = word;
  }
  return [out, ordered, palindromes];
}

function scan(text) {
  let words = 0;
  let capitals = 0;
  let vowels = 0;
  let checksum = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === ' ') {
      words += 1;
    } else {
      if (isUpperCase(c)) capitals += 1;
      if ('aeiou'.includes(c.toLowerCase())) vowels += 1;
      checksum = (checksum * 31 + c.charCodeAt(0)) % 1000003;
    }
  }
  return [words, capitals, vowels, checksum];
}

const BENCH_REPEAT = 100;

function repeatWork(thunk) {
  let result = thunk();
  for (let i = 1; i < BENCH_REPEAT; i++) result = thunk();
  return result;
}

function run() {
  const [text, ordered, palindromes] = makeText(1000, 2024);
  return [text.length, ordered, palindromes, ...scan(text.substring(0, 20).toUpperCase()), ...scan(text)];
}

console.log(repeatWork(run).join(' '));
