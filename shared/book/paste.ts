/**
 * Reading a pasted list of strategy ids (the book's "Add many"): one id a line, or one column of
 * a CSV or TSV file. Tolerated: a byte-order mark, blank lines, a header line, stray spaces
 * (including non-breaking and zero-width ones), quotes around an id, ids in capitals, and the
 * same id twice. Every line that is not blank gets a kind; nothing is guessed beyond that.
 * Plain TypeScript: the renderer and the main process read a paste the same way.
 */

export type PastedLineKind = 'id' | 'not-an-id' | 'duplicate' | 'header';

export interface PastedLine {
  /** The line's number in the text, from 1. */
  line: number;
  /** The cell read from the line, trimmed and unquoted (cut to 200 characters). */
  text: string;
  kind: PastedLineKind;
  /** The id, lower-cased (for 'id' and 'duplicate'). */
  id: string | null;
  /** For a duplicate: the line where the id came first. */
  firstLine: number | null;
}

export interface PastedIds {
  lines: PastedLine[];
  /** Blank lines, skipped. */
  blank: number;
  /** The distinct ids, in the order they came. */
  ids: string[];
  /** The separator the text was read with ('' for one id a line). */
  separator: '' | '\t' | ',' | ';';
  /** The column the ids were read from (0 for one id a line). */
  column: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/**
 * What is taken off both ends of a cell, as often as it wraps it: white space, the invisible
 * spaces a copy from a spreadsheet or a web page may carry (zero-width, word joiner, byte-order
 * mark), and quotes (straight, curly, single, backtick). Read one character at a time from each
 * end: linear in the cell, whatever it holds (a regex anchored at the end backtracks over a long
 * run of spaces, once per space).
 */
const WRAPPING = new Set([
  '\u200b',
  '\u200c',
  '\u200d',
  '\u2060',
  '\ufeff',
  ...`"'\u2018\u2019\u201c\u201d\``,
]);
const wraps = (ch: string): boolean => WRAPPING.has(ch) || /\s/.test(ch);
const HEADER = /^(strategy[\s_-]*)?(id|uuid|identifier)s?$/i;
const MAX_TEXT = 200;

export function isStrategyId(value: string): boolean {
  return UUID.test(value);
}

/** A cell as an id may hide in it: spaces and quotes taken off, as often as they wrap it. */
export function cleanCell(cell: string): string {
  let start = 0;
  let end = cell.length;
  while (start < end && wraps(cell[start]!)) start++;
  while (end > start && wraps(cell[end - 1]!)) end--;
  return cell.slice(start, end);
}

/** The cells of one line, split on `separator` outside double quotes ("" is a quote). */
export function splitLine(line: string, separator: string): string[] {
  if (separator === '') return [line];
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  // Whether the cell so far is only white space (kept as it grows: no trim per quote).
  let blank = true;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        cell += '"';
        blank = false;
        i++;
      } else if (ch === '"') quoted = false;
      else {
        cell += ch;
        if (blank && !/\s/.test(ch)) blank = false;
      }
    } else if (ch === '"' && blank) {
      quoted = true;
      cell = '';
    } else if (ch === separator) {
      cells.push(cell);
      cell = '';
      blank = true;
    } else {
      cell += ch;
      if (blank && !/\s/.test(ch)) blank = false;
    }
  }
  cells.push(cell);
  return cells;
}

/** The separator most lines carry: tab, then comma, then semicolon; '' when none does. */
function separatorOf(lines: readonly string[]): PastedIds['separator'] {
  let best: PastedIds['separator'] = '';
  let bestCount = 0;
  for (const separator of ['\t', ',', ';'] as const) {
    let count = 0;
    for (const line of lines) if (line.includes(separator)) count++;
    if (count > bestCount) {
      best = separator;
      bestCount = count;
    }
  }
  return best;
}

/** The column holding the most ids (the first such column on a tie). */
function idColumnOf(rows: readonly string[][]): number {
  const counts: number[] = [];
  for (const cells of rows)
    cells.forEach((cell, i) => {
      if (isStrategyId(cleanCell(cell))) counts[i] = (counts[i] ?? 0) + 1;
    });
  let column = 0;
  counts.forEach((count, i) => {
    if (count > (counts[column] ?? 0)) column = i;
  });
  return column;
}

export function parsePastedIds(text: string): PastedIds {
  const raw = text.startsWith('\ufeff') ? text.slice(1) : text;
  const all = raw.split(/\r\n|\r|\n/);
  // A text ending with a line break has no last line after it.
  if (all.length > 1 && all.at(-1) === '') all.pop();
  const filled: { line: number; content: string }[] = [];
  let blank = 0;
  all.forEach((content, i) => {
    if (cleanCell(content) === '') blank++;
    else filled.push({ line: i + 1, content });
  });
  const separator = separatorOf(filled.map((l) => l.content));
  const rows = filled.map((l) => splitLine(l.content, separator));
  const column = separator === '' ? 0 : idColumnOf(rows);

  const seen = new Map<string, number>();
  const ids: string[] = [];
  const lines: PastedLine[] = filled.map(({ line }, i) => {
    const cell = cleanCell(rows[i]![column] ?? '');
    const shown = cell.length > MAX_TEXT ? `${cell.slice(0, MAX_TEXT - 1)}…` : cell;
    if (isStrategyId(cell)) {
      const id = cell.toLowerCase();
      const first = seen.get(id);
      if (first !== undefined)
        return { line, text: shown, kind: 'duplicate', id, firstLine: first };
      seen.set(id, line);
      ids.push(id);
      return { line, text: shown, kind: 'id', id, firstLine: null };
    }
    // Only the first line may be a header: its id column's name, or cells with no id at all.
    const header =
      i === 0 &&
      (HEADER.test(cell) ||
        (separator !== '' && rows[0]!.every((c) => !isStrategyId(cleanCell(c)))));
    return { line, text: shown, kind: header ? 'header' : 'not-an-id', id: null, firstLine: null };
  });
  return { lines, blank, ids, separator, column };
}

/**
 * Why a file's bytes are not text the app can read, or null when they are: UTF-8 (with or
 * without a byte-order mark) or UTF-16 with its byte-order mark. A NUL byte, or bytes that are
 * not UTF-8, mean a spreadsheet, a picture or an archive rather than a list of ids.
 */
export function notTextProblem(bytes: Uint8Array): string | null {
  if (utf16Of(bytes) !== null) return null;
  for (let i = 0; i < bytes.length;) {
    const b = bytes[i]!;
    if (b === 0)
      return 'This file is not text (it holds binary data, as a spreadsheet, a picture or an archive does). Save the ids as a text or CSV file, or paste them.';
    const length =
      b < 0x80
        ? 1
        : b >= 0xc2 && b < 0xe0
          ? 2
          : b >= 0xe0 && b < 0xf0
            ? 3
            : b >= 0xf0 && b < 0xf5
              ? 4
              : 0;
    if (length === 0 || i + length > bytes.length) return NOT_UTF8;
    for (let k = 1; k < length; k++) if ((bytes[i + k]! & 0xc0) !== 0x80) return NOT_UTF8;
    i += length;
  }
  return null;
}

const NOT_UTF8 =
  'This file is not UTF-8 text (it may be a spreadsheet or another binary file). Save the ids as a UTF-8 text or CSV file, or paste them.';

/** The UTF-16 encoding a byte-order mark announces, or null. */
export function utf16Of(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return null;
}
