import { count } from './exact';
import { inspectRow, normalizeSymbol, rowIssues } from './rules';
import { MAX_CELL_CHARS, MAX_ROWS, type DraftRowInput } from './types';
import { CUT_MARK, withoutPercent } from './weight-text';
import { parseImportedWeight } from './validate';

/**
 * How much one paste or import may hold. A draft holds at most MAX_ROWS rows; the characters
 * and lines leave room for extra columns, a header and blank lines, and keep a paste of a whole
 * document (50 MB) from freezing the window: it is refused at once, whole, before any parsing.
 */
export const PASTE_LIMITS = { characters: 1_000_000, lines: 5_000, rows: MAX_ROWS } as const;

/** A row read from pasted or imported text, with the line it came from (1-based). */
export interface PastedRow extends DraftRowInput {
  line: number;
  /**
   * Why the draft will refuse this row (the draft's own rule, as the grid will show it), or null.
   * A line the app cannot read is still a row: its text stays in its cells so the manager can
   * fix it, and the draft cannot be executed until then.
   */
  problem: string | null;
}

export type Delimiter = ',' | ';' | '\t' | ' ';

export type PasteResult =
  | { ok: true; rows: PastedRow[]; header: boolean; delimiter: Delimiter }
  /** Nothing is taken from the text: the reason, in the manager's words. */
  | { ok: false; error: string };

const SYMBOL_HEADERS = new Set(['symbol', 'symbols', 'ticker', 'tickers', 'ticker symbol']);
const WEIGHT_HEADERS = new Set([
  'weight',
  'weights',
  'weight %',
  'weight (%)',
  'target weight',
  'target weight %',
  'target weight (%)',
  'target',
  'target %',
  '%',
  'pct',
  'percent',
  'percentage',
  'allocation',
  'allocation %',
]);

/**
 * Reads rows of symbol and weight from spreadsheet text: TSV (what a spreadsheet copies), CSV
 * with commas or semicolons (quoted fields as RFC 4180), or a symbol and a weight apart by
 * spaces; CRLF or LF; an optional header row naming Symbol and Weight columns in any case and
 * order. Weights may carry a trailing %. Every other line becomes a row, whatever it holds:
 * symbols are trimmed and upper-cased, weights kept as written (a comma, a thousands
 * separator, words, extra columns), and the draft's validation marks the row with the reason.
 */
export function parseDraftPaste(text: string): PasteResult {
  // The length first: nothing else is read (not even the first character, which would make a
  // joined string flat) of a text too long.
  const length =
    text.length > PASTE_LIMITS.characters + 1
      ? text.length
      : text.length - (text.charCodeAt(0) === 0xfeff ? 1 : 0);
  if (length > PASTE_LIMITS.characters)
    return refuse(
      `The text has ${count(length)} characters; a paste or import takes at most ` +
        `${count(PASTE_LIMITS.characters)} (about 1 MB). Nothing was added.`,
    );
  const source = length < text.length ? text.slice(1) : text;
  const lines = lineCount(source);
  if (lines > PASTE_LIMITS.lines)
    return refuse(
      `The text has ${count(lines)} lines; a paste or import takes at most ` +
        `${count(PASTE_LIMITS.lines)} lines (a draft holds at most ${count(MAX_ROWS)} rows). ` +
        'Nothing was added.',
    );
  const delimiter = detectDelimiter(source);
  const records = delimiter === ' ' ? spacedRecords(source) : readRecords(source, delimiter);

  const first = records[0];
  const header = first ? headerOf(first.cells) : null;
  if (header && 'error' in header)
    return refuse(
      `Line ${first!.line} looks like a header (${first!.cells
        .map((c) => c.trim())
        .filter(Boolean)
        .join(', ')
        .slice(0, 80)}) but ${header.error}: name the columns Symbol and Weight, or leave the ` +
        'header out. Nothing was added.',
    );
  const body = header ? records.slice(1) : records;
  if (body.length > PASTE_LIMITS.rows)
    return refuse(
      `The text has ${count(body.length)} rows; a draft holds at most ${count(MAX_ROWS)}. ` +
        'Nothing was added.',
    );

  const rows = body.map(({ cells, line }) => {
    const [symbolCell, weightCell] = header
      ? headedCells(cells, header, first!.cells.length, delimiter)
      : rowCells(cells, delimiter);
    const symbol = fit(normalizeSymbol(symbolCell));
    const weight = fit(withoutPercent(weightCell.trim()));
    const issues = rowIssues(inspectRow(symbol, weight));
    const problem = issues.length === 0 ? null : issues.map((i) => i.text).join('; ');
    return { symbol, weight, line, problem };
  });
  return { ok: true, rows, header: header !== null, delimiter };
}

/**
 * What a paste did, for its notice: "Read 3 rows: 2 added, 1 updated. 1 has a problem and is
 * marked in the grid: fix or remove it before executing."
 */
export function describePaste(
  rows: readonly PastedRow[],
  merged: { added: number; updated: number },
): string {
  const read =
    `Read ${count(rows.length)} ${rows.length === 1 ? 'row' : 'rows'}: ` +
    `${count(merged.added)} added, ${count(merged.updated)} updated.`;
  const bad = rows.filter((r) => r.problem !== null).length;
  if (bad === 0) return read;
  return (
    `${read} ${count(bad)} ${bad === 1 ? 'has a problem and is' : 'have problems and are'} ` +
    `marked in the grid: fix or remove ${bad === 1 ? 'it' : 'them'} before executing.`
  );
}

/** "Line 2 (AGG): weight "20,5" uses a comma: use a dot (20.5)", one per row with a problem. */
export function pasteProblems(rows: readonly PastedRow[]): string[] {
  return rows
    .filter((r) => r.problem !== null)
    .map((r) => `Line ${r.line}${r.symbol ? ` (${r.symbol.slice(0, 30)})` : ''}: ${r.problem}`);
}

function refuse(error: string): PasteResult {
  return { ok: false, error };
}

/** Lines as a text editor counts them (a last line break opens no line). */
function lineCount(text: string): number {
  let lines = text.length === 0 ? 0 : 1;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 10 || (ch === 13 && text.charCodeAt(i + 1) !== 10)) lines++;
  }
  const last = text.charCodeAt(text.length - 1);
  return last === 10 || last === 13 ? lines - 1 : lines;
}

/** A cell longer than a draft row keeps is cut, with a mark that makes its row invalid. */
function fit(text: string): string {
  return text.length > MAX_CELL_CHARS ? `${text.slice(0, MAX_CELL_CHARS - 1)}${CUT_MARK}` : text;
}

/**
 * Without a header: the symbol is the first cell and the weight is everything after it, extra
 * columns included (joined as they were), so a line with more than a symbol and a weight shows
 * what it held and is refused rather than read in part. A line with one cell holding spaces is
 * read as a symbol and a weight apart by spaces.
 */
function rowCells(cells: readonly string[], delimiter: Delimiter): [string, string] {
  let last = cells.length - 1;
  while (last > 0 && cells[last]!.trim() === '') last--;
  if (last === 0) return splitOnSpace(cells[0]!);
  const rest = cells.slice(1, last + 1).map((c) => c.trim());
  return [cells[0]!, rest.join(delimiter === '\t' ? '\t' : delimiter)];
}

/**
 * Under a header: its named columns. A line with more cells than the header has is out of line
 * with it (a decimal comma in a comma-separated file: `AGG,20,5`): the extra cells join the
 * weight, so the row shows them and is refused instead of being read as 20.
 */
function headedCells(
  cells: readonly string[],
  header: { symbol: number; weight: number },
  width: number,
  delimiter: Delimiter,
): [string, string] {
  const weight = cells[header.weight] ?? '';
  const extra = cells.slice(width).filter((c) => c.trim() !== '');
  if (extra.length === 0) return [cells[header.symbol] ?? '', weight];
  const join = delimiter === '\t' ? '\t' : delimiter;
  return [cells[header.symbol] ?? '', [weight, ...extra].map((c) => c.trim()).join(join)];
}

function splitOnSpace(cell: string): [string, string] {
  const trimmed = cell.trim();
  const gap = trimmed.search(/\s/);
  return gap < 0 ? [trimmed, ''] : [trimmed.slice(0, gap), trimmed.slice(gap).trim()];
}

type HeaderColumns = { symbol: number; weight: number } | { error: string };

/**
 * The first line is a header when it holds no number and names a Symbol or a Weight column.
 * A header naming only one of the two cannot say where the other is: the text is refused.
 */
function headerOf(cells: readonly string[]): HeaderColumns | null {
  const names = cells.map((c) => c.trim().toLowerCase());
  if (cells.some((c) => c.trim() !== '' && parseImportedWeight(c).ok)) return null;
  const symbol = names.findIndex((n) => SYMBOL_HEADERS.has(n));
  const weight = names.findIndex((n) => WEIGHT_HEADERS.has(n));
  if (symbol >= 0 && weight >= 0) return { symbol, weight };
  if (symbol >= 0) return { error: 'names no Weight column' };
  if (weight >= 0) return { error: 'names no Symbol column' };
  return null;
}

/**
 * The first line with two things on it decides: a tab, else a semicolon, else a comma, else
 * spaces ("VOO 45 %"). A line of one word (a symbol alone, a quoted cell's first line) does not.
 */
function detectDelimiter(text: string): Delimiter {
  for (const line of text.split(/\r\n|\n|\r/, 50)) {
    if (line.includes('\t')) return '\t';
    if (line.includes(';')) return ';';
    if (line.includes(',')) return ',';
    if (/\S\s+\S/.test(line)) return ' ';
  }
  return ',';
}

export interface TextRecord {
  cells: string[];
  line: number;
}

/** Lines of a symbol and a weight apart by spaces ("VOO 45 %"); blank lines skipped. */
function spacedRecords(text: string): TextRecord[] {
  const records: TextRecord[] = [];
  text.split(/\r\n|\n|\r/).forEach((raw, i) => {
    if (raw.trim() !== '') records.push({ cells: splitOnSpace(raw), line: i + 1 });
  });
  return records;
}

/**
 * RFC 4180 records; blank lines skipped. A quote that is never closed is read as a plain
 * character instead (from the start of its record), so its line stays a row the manager sees.
 */
export function readRecords(text: string, delimiter: string): TextRecord[] {
  const literal = new Set<number>();
  for (;;) {
    const read = tryRecords(text, delimiter, literal);
    if (read.unclosedAt === null) return read.records;
    literal.add(read.unclosedAt);
  }
}

function tryRecords(text: string, delimiter: string, literal: ReadonlySet<number>) {
  const records: TextRecord[] = [];
  let cells: string[] = [];
  let cell = '';
  let line = 1;
  let recordLine = 1;
  let quoted = false;
  let quoteAt = -1;
  let i = 0;
  const endRecord = () => {
    cells.push(cell);
    if (cells.some((c) => c.trim() !== '')) records.push({ cells, line: recordLine });
    cells = [];
    cell = '';
  };
  while (i < text.length) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          cell += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else {
        if (ch === '\n' || (ch === '\r' && text[i + 1] !== '\n')) line++;
        cell += ch;
      }
      i++;
      continue;
    }
    if (ch === '"' && cell.trim() === '' && !literal.has(i)) {
      quoted = true;
      quoteAt = i;
      cell = '';
    } else if (ch === delimiter) {
      cells.push(cell);
      cell = '';
    } else if (ch === '\r' || ch === '\n') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      endRecord();
      line++;
      recordLine = line;
    } else cell += ch;
    i++;
  }
  if (quoted) return { records, unclosedAt: quoteAt };
  endRecord();
  return { records, unclosedAt: null };
}
