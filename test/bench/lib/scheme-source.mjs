// Reading a benchmark program: its expected answer, its repeat count, and the
// source rewritten for an implementation (imports removed, repeat lowered).

import { readFileSync } from 'node:fs';

const ANSWER_LINE = /^;; answer:[ \t]?(.*)$/m;
const REPEAT_DEFINE = /^\(define bench-repeat (\d+)\)/m;
const JS_REPEAT = /^const BENCH_REPEAT = (\d+);/m;

/**
 * Reads a .scm program: `{ source, answer, repeat }`. The answer is the text
 * after `;; answer:`; repeat is the value of `(define bench-repeat N)`, or null
 * for a program without one.
 */
export function readProgram(path) {
  const source = readFileSync(path, 'utf8');
  const answer = source.match(ANSWER_LINE);
  if (!answer) throw new Error(`${path}: no ';; answer:' line`);
  const repeat = source.match(REPEAT_DEFINE);
  return { source, answer: answer[1].trim(), repeat: repeat ? Number(repeat[1]) : null };
}

/** The BENCH_REPEAT of a JS twin, or null. */
export function readJsRepeat(path) {
  const m = readFileSync(path, 'utf8').match(JS_REPEAT);
  return m ? Number(m[1]) : null;
}

/** The source with `(define bench-repeat N)` set to `repeat`. */
export function withRepeat(source, repeat) {
  if (!REPEAT_DEFINE.test(source)) throw new Error('program has no (define bench-repeat N)');
  return source.replace(REPEAT_DEFINE, `(define bench-repeat ${repeat})`);
}

/**
 * The source with every top-level `(import ...)` form blanked out (newlines
 * kept, so line numbers in error messages still match), for implementations
 * without R7RS libraries. Skips comments, strings and character literals while
 * matching parentheses.
 */
export function stripImports(source) {
  const out = source.split('');
  let depth = 0;
  let formStart = -1;
  let isImport = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === ';') {
      while (i < source.length && source[i] !== '\n') i++;
    } else if (c === '"') {
      for (i++; i < source.length && source[i] !== '"'; i++) if (source[i] === '\\') i++;
    } else if (c === '#' && source[i + 1] === '\\') {
      i += 2; // the character after #\ is never a delimiter, even ( or ;
    } else if (c === '#' && source[i + 1] === '|') {
      const end = source.indexOf('|#', i + 2);
      i = end < 0 ? source.length : end + 1;
    } else if (c === '(') {
      if (depth === 0) {
        formStart = i;
        isImport = /^\(\s*import[\s)]/.test(source.slice(i, i + 10));
      }
      depth++;
    } else if (c === ')') {
      depth--;
      if (depth === 0 && isImport) {
        for (let j = formStart; j <= i; j++) if (out[j] !== '\n') out[j] = ' ';
        isImport = false;
      }
    }
  }
  return out.join('');
}
