// The chevrotain lexer: token kinds for each lexical form, and total coverage of arbitrary input.
import test from "ava";
import fc from "fast-check";
import { tokenize, tokenKind, isDelimiter } from "../../../interpreter/reader/lexer.js";

const kinds = (s: string): string[] => tokenize(s).map((t) => `${tokenKind(t)} ${t.image}`);

test("each lexical form gets its token kind", (t) => {
  t.deepEqual(kinds("( ) [ ] { } #( #u8( ' ` , ,@ #; #0= #12#"), [
    "open (", "close )", "open-bracket [", "close-bracket ]", "brace {", "brace }", "vector #(", "bytevector #u8(",
    "quote '", "quasiquote `", "unquote ,", "unquote-splicing ,@", "datum-comment #;", "label-def #0=", "label-ref #12#",
  ]);
  t.deepEqual(kinds('#\\a #\\( #\\space #\\x41 #\\λ "s\\"t" |a b| #:kw #t #x1F #foo abc :kw . 1.5 ...'), [
    "char #\\a", "char #\\(", "char #\\space", "char #\\x41", "char #\\λ", 'string "s\\"t"', "bar-symbol |a b|",
    "keyword #:kw", "hash #t", "hash #x1F", "hash #foo", "atom abc", "atom :kw", "atom .", "atom 1.5", "atom ...",
  ]);
  t.deepEqual(kinds("#!fold-case #!no-fold-case"), ["directive #!fold-case", "directive #!no-fold-case"]);
});

test("comments and whitespace produce no tokens; nesting is counted", (t) => {
  t.deepEqual(kinds("; line\n #| a #| b |# c |# x\u00a0\u3000y"), ["atom x", "atom y"]);
  t.deepEqual(kinds("#| a #| b |# c"), ["unterminated-comment #| a #| b |# c"]);
});

test("unterminated strings and |symbols| are error tokens running to the end", (t) => {
  t.deepEqual(kinds('a "b\nc'), ["atom a", 'unterminated-string "b\nc']);
  t.deepEqual(kinds('"a\\"'), ['unterminated-string "a\\"']);
  t.deepEqual(kinds("|ab"), ["unterminated-bar-symbol |ab"]);
});

test("atoms end at every delimiter, quote characters included", (t) => {
  t.deepEqual(kinds("a'b`c,d|e|\"f\";g"), ["atom a", "quote '", "atom b", "quasiquote `", "atom c", "unquote ,", "atom d", "bar-symbol |e|", 'string "f"']);
  t.deepEqual(kinds("#\\a)"), ["char #\\a", "close )"]);
  t.deepEqual(kinds("#\\"), ["char #\\"]);
  t.true(isDelimiter(" ".charCodeAt(0)));
  t.true(isDelimiter("\u2028".charCodeAt(0)));
  t.false(isDelimiter("#".charCodeAt(0)));
});

test("every token's image is the text at its offset, in order, for any input", (t) => {
  const unit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));
  fc.assert(
    fc.property(fc.oneof(fc.string({ unit, maxLength: 50 }), fc.string({ unit: fc.constantFrom(..."()#|\\;\"'`,@ \nax1.:u8"), maxLength: 50 })), (s) => {
      let last = 0;
      for (const tok of tokenize(s)) {
        if (tok.startOffset < last || s.slice(tok.startOffset, tok.startOffset + tok.image.length) !== tok.image || tok.image === "") return false;
        last = tok.startOffset + tok.image.length;
      }
      return true;
    }),
    { numRuns: 3000 },
  );
  t.pass();
});
