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
const WRAPPING = new Set(
  ['\u200b', '\u200c', '\u200d', '\u2060', '\ufeff', ...`"'\u2018\u2019\u201c\u201d\``].map((ch) =>
    ch.charCodeAt(0),
  ),
);
/** White space as `\s` reads it; ASCII by its code (no regex per character of a long run). */
const isSpace = (code: number): boolean =>
  code === 32 || (code >= 9 && code <= 13) || (code > 127 && /\s/.test(String.fromCharCode(code)));
const wraps = (code: number): boolean => WRAPPING.has(code) || isSpace(code);
const HEADER = /^(strategy[\s_-]*)?(id|uuid|identifier)s?$/i;
const MAX_TEXT = 200;

export function isStrategyId(value: string): boolean {
  return UUID.test(value);
}

/** A cell as an id may hide in it: spaces and quotes taken off, as often as they wrap it. */
export function cleanCell(cell: string): string {
  let start = 0;
  let end = cell.length;
  while (start < end && wraps(cell.charCodeAt(start))) start++;
  while (end > start && wraps(cell.charCodeAt(end - 1))) end--;
  return cell.slice(start, end);
}

/**
 * The cells of one line, split on `separator` outside double quotes ("" is a quote). Runs between
 * quotes and separators are taken as slices: linear in the line, not a string grown a character
 * at a time.
 */
export function splitLine(line: string, separator: string): string[] {
  if (separator === '') return [line];
  const SEPARATOR = separator.charCodeAt(0);
  const QUOTE = 34;
  const cells: string[] = [];
  let cell = '';
  // Where the run not yet added to `cell` starts.
  let run = 0;
  let quoted = false;
  // Whether the cell so far is only white space (kept as it grows: no trim per quote).
  let blank = true;
  for (let i = 0; i < line.length; i++) {
    const code = line.charCodeAt(i);
    if (quoted) {
      if (code === QUOTE && line.charCodeAt(i + 1) === QUOTE) {
        cell += line.slice(run, i + 1);
        blank = false;
        run = ++i + 1;
      } else if (code === QUOTE) {
        cell += line.slice(run, i);
        quoted = false;
        run = i + 1;
      } else if (blank && !isSpace(code)) blank = false;
    } else if (code === QUOTE && blank) {
      quoted = true;
      cell = '';
      run = i + 1;
    } else if (code === SEPARATOR) {
      cells.push(cell + line.slice(run, i));
      cell = '';
      run = i + 1;
      blank = true;
    } else if (blank && !isSpace(code)) blank = false;
  }
  cells.push(cell + line.slice(run));
  return cells;
}

/**
 * How much of the text a slice reads before giving the event loop a turn (characters looked at,
 * a line at least): a few milliseconds of work, whatever the text is made of.
 */
const SLICE_CHARACTERS = 50_000;

/** The work done in the current slice; `spend` says when the slice is full. */
class Slice {
  private spent = 0;
  spend(characters: number): boolean {
    this.spent += characters + 1;
    if (this.spent < SLICE_CHARACTERS) return false;
    this.spent = 0;
    return true;
  }
}

/** The separator most lines carry: tab, then comma, then semicolon; '' when none does. */
function* separatorOf(
  lines: readonly string[],
  slice: Slice,
): Generator<void, PastedIds['separator']> {
  let best: PastedIds['separator'] = '';
  let bestCount = 0;
  for (const separator of ['\t', ',', ';'] as const) {
    let count = 0;
    for (const line of lines) {
      if (line.includes(separator)) count++;
      if (slice.spend(line.length)) yield;
    }
    if (count > bestCount) {
      best = separator;
      bestCount = count;
    }
  }
  return best;
}

/** The column holding the most ids (the first such column on a tie). */
function* idColumnOf(rows: readonly string[][], slice: Slice): Generator<void, number> {
  const counts: number[] = [];
  for (const cells of rows) {
    let length = 0;
    cells.forEach((cell, i) => {
      length += cell.length;
      if (isStrategyId(cleanCell(cell))) counts[i] = (counts[i] ?? 0) + 1;
    });
    if (slice.spend(length)) yield;
  }
  let column = 0;
  counts.forEach((count, i) => {
    if (count > (counts[column] ?? 0)) column = i;
  });
  return column;
}

/** A pasted list read all at once (short texts, and tests). */
export function parsePastedIds(text: string): PastedIds {
  const reading = readPastedIds(text);
  for (;;) {
    const step = reading.next();
    if (step.done) return step.value;
  }
}

/**
 * The one reader of a pasted list, a slice at a time: it stops (yields) after each slice, so the
 * main process may give the event loop a turn between slices while a long paste is read.
 */
export function* readPastedIds(text: string): Generator<void, PastedIds> {
  const slice = new Slice();
  const raw = text.startsWith('\ufeff') ? text.slice(1) : text;
  const filled: { line: number; content: string }[] = [];
  let blank = 0;
  const lineBreak = /\r\n|\r|\n/g;
  for (let start = 0, line = 1; start <= raw.length; line++) {
    const found = lineBreak.exec(raw);
    const end = found ? found.index : raw.length;
    // A text ending with a line break has no last line after it.
    if (!found && start === raw.length && line > 1) break;
    const content = raw.slice(start, end);
    if (cleanCell(content) === '') blank++;
    else filled.push({ line, content });
    if (!found) break;
    start = lineBreak.lastIndex;
    if (slice.spend(content.length)) yield;
  }
  const separator = yield* separatorOf(
    filled.map((l) => l.content),
    slice,
  );
  const rows: string[][] = [];
  for (let i = 0; i < filled.length; i++) {
    const content = filled[i]!.content;
    rows.push(splitLine(content, separator));
    if (slice.spend(content.length)) yield;
  }
  const column = separator === '' ? 0 : yield* idColumnOf(rows, slice);

  const seen = new Map<string, number>();
  const ids: string[] = [];
  const lines: PastedLine[] = [];
  for (let i = 0; i < filled.length; i++) {
    const cell = cleanCell(rows[i]![column] ?? '');
    lines.push(lineOf(filled[i]!.line, cell, i === 0));
    if (slice.spend(cell.length)) yield;
  }
  return { lines, blank, ids, separator, column };

  function lineOf(line: number, cell: string, first: boolean): PastedLine {
    const shown = cell.length > MAX_TEXT ? `${cell.slice(0, MAX_TEXT - 1)}…` : cell;
    if (isStrategyId(cell)) {
      const id = cell.toLowerCase();
      const firstLine = seen.get(id);
      if (firstLine !== undefined) return { line, text: shown, kind: 'duplicate', id, firstLine };
      seen.set(id, line);
      ids.push(id);
      return { line, text: shown, kind: 'id', id, firstLine: null };
    }
    // Only the first line may be a header: its id column's name, or cells with no id at all.
    const header =
      first &&
      (HEADER.test(cell) ||
        (separator !== '' && rows[0]!.every((c) => !isStrategyId(cleanCell(c)))));
    return { line, text: shown, kind: header ? 'header' : 'not-an-id', id: null, firstLine: null };
  }
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
