/**
 * One rule for every CSV cell the app writes (the order reports, the activity log, and any export
 * added later): RFC 4180 quoting, and OWASP's CSV-injection rule, read the way a spreadsheet
 * reads a cell. docs/security.md says why each character is here.
 */
import { DECIMAL_PATTERN } from '../../../shared/decimal';

/** RFC 4180 ends every record with CRLF, the last one included. */
export const CRLF = '\r\n';

/** A field must be quoted when it holds a quote, a comma, a CR or an LF. */
const NEEDS_QUOTES = /[",\r\n]/;
const QUOTE = /"/g;

/**
 * What may come before a formula and still leave it a formula to some spreadsheet: any Unicode
 * white space (NBSP, the ideographic space…), control characters and invisible format
 * characters (zero-width space and joiners, word joiner, byte order mark, direction marks).
 */
const SKIPPED = '\\p{White_Space}\\p{Cc}\\p{Cf}';

/**
 * What starts a formula: OWASP's = + - @ TAB CR LF, ASVS's NUL, and every character whose
 * compatibility form (NFKC) is one of = + - @: full-width ＝ ＋ － ＠, small ﹦ ﹢ ﹣ ﹫,
 * super- and subscript ⁺ ⁼ ₊ ₌, the Hebrew alternative plus, and ⩵ ⩶. `|` and `%` start no
 * formula on their own (a DDE payload needs its `=` first), so they are not here.
 */
const STARTS =
  '=+\\-@\\t\\r\\n\\0' +
  '\\uFF1D\\uFF0B\\uFF0D\\uFF20\\uFE66\\uFE62\\uFE63\\uFE6B' +
  '\\u207A\\u207C\\u208A\\u208C\\uFB29\\u2A75\\u2A76';

const FORMULA_LIKE = new RegExp(`^[${SKIPPED}]*[${STARTS}]`, 'u');

/**
 * A first character's class, for the common case without a regex: 1 starts a formula, 2 may be
 * followed by one (white space or a control character), 0 neither. Any other code unit (≥ 128)
 * goes through FORMULA_LIKE.
 */
const ASCII = new Uint8Array(128);
for (let code = 0; code < 32; code++) ASCII[code] = 2;
ASCII[0x20] = ASCII[0x7f] = 2;
for (const char of ['=', '+', '-', '@', '\t', '\r', '\n', '\0']) ASCII[char.charCodeAt(0)] = 1;

/** True when a spreadsheet could read this text cell as a formula: it gets a leading `'`. */
export function isFormulaLike(value: string): boolean {
  const first = value.charCodeAt(0);
  if (first < 128) {
    const kind = ASCII[first];
    return kind === 1 || (kind === 2 && FORMULA_LIKE.test(value));
  }
  return FORMULA_LIKE.test(value);
}

/** A text cell as written: neutralized with a leading `'` when formula-like, quoted when needed. */
export function csvTextCell(value: string): string {
  const cell = isFormulaLike(value) ? "'" + value : value;
  if (!NEEDS_QUOTES.test(cell)) return cell;
  return '"' + cell.replace(QUOTE, '""') + '"';
}

/**
 * A text cell of tab-separated text meant for a spreadsheet (a copy to the clipboard): the same
 * rule as a CSV cell (neutralized with a leading `'` when formula-like); the tabs and line breaks
 * that would split it become one space, as tab-separated text has no quoting.
 */
export function tsvTextCell(value: string): string {
  const cell = value.replace(/[\t\r\n]+/g, ' ');
  return isFormulaLike(cell) ? "'" + cell : cell;
}

/**
 * A numeric cell: a plain decimal (DECIMAL_PATTERN) is written exactly as it is, never
 * neutralized ("-12.5" is a number to the spreadsheet, not a formula); null for anything else,
 * which the caller refuses (it is not a number and must not become text quietly).
 */
export function csvDecimalCell(value: string): string | null {
  return DECIMAL_PATTERN.test(value) ? value : null;
}

/** A cell of a row mixing whole numbers (written as they are), text, and empty cells (null). */
export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new RangeError(`${value} is not a whole number.`);
    return String(value);
  }
  return csvTextCell(value);
}

/**
 * A first character after which a text cell is written exactly as it is (no `'`, no quotes), as
 * a regex character class: printable ASCII but for the quote, the comma and = + - @. A fast path
 * testing whole lines at once (reports/lines.ts) builds its pattern from this; a cell starting
 * with anything else (a space, a letter beyond ASCII) takes csvTextCell, which is always right.
 */
export const PLAIN_FIRST_CHAR = '[!#-*.-<>?A-~]';
