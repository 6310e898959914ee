import { count } from './exact';
import { normalizeSymbol } from './rules';
import type { DraftRowInput } from './types';
import { parseImportedWeight } from './validate';

/** A row read from pasted or imported text, with the line it came from (1-based). */
export interface PastedRow extends DraftRowInput {
  line: number;
}

export interface PasteError {
  line: number;
  message: string;
}

export interface PasteResult {
  /** Rows from the lines that could be read; lines with an error are left out. */
  rows: PastedRow[];
  errors: PasteError[];
  header: boolean;
  delimiter: ',' | ';' | '\t';
}

const SYMBOL_HEADERS = new Set(['symbol', 'ticker']);
const WEIGHT_HEADERS = new Set(['weight', 'weight %', 'weight (%)', 'target weight', '%']);

/**
 * Reads rows of symbol and weight from spreadsheet text: TSV (what a spreadsheet copies),
 * CSV with commas or semicolons, quoted fields (RFC 4180), CRLF or LF, an optional header
 * row naming Symbol and Weight columns in any case and order. Weights may carry a trailing
 * %; exponents and decimal commas are refused. Symbols are trimmed and upper-cased; their
 * characters are left to the draft's validation, which marks the row.
 */
export function parseDraftPaste(text: string): PasteResult {
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const delimiter = detectDelimiter(source);
  const { records, errors } = readRecords(source, delimiter);
  const rows: PastedRow[] = [];
  let symbolColumn = 0;
  let weightColumn = 1;
  let header = false;
  const first = records[0];
  if (first) {
    const names = first.cells.map((c) => c.trim().toLowerCase());
    const s = names.findIndex((n) => SYMBOL_HEADERS.has(n));
    const w = names.findIndex((n) => WEIGHT_HEADERS.has(n));
    if (s >= 0 && w >= 0) {
      [symbolColumn, weightColumn, header] = [s, w, true];
    } else if (s >= 0 || w >= 0) {
      errors.push({
        line: first.line,
        message: `Line ${first.line} looks like a header but needs both a Symbol and a Weight column.`,
      });
      records.shift();
    }
  }
  for (const record of header ? records.slice(1) : records) {
    const { cells, line } = record;
    const symbol = normalizeSymbol(cells[symbolColumn] ?? '');
    const rawWeight = (cells[weightColumn] ?? '').trim();
    const label = symbol ? `Line ${line} (${symbol.slice(0, 30)})` : `Line ${line}`;
    if (symbol === '') {
      errors.push({ line, message: `${label}: the symbol is empty.` });
      continue;
    }
    if (rawWeight === '') {
      errors.push({ line, message: `${label}: there is no weight.` });
      continue;
    }
    const weight = parseImportedWeight(rawWeight);
    if (!weight.ok) {
      errors.push({
        line,
        message: `${label}: weight "${rawWeight.slice(0, 30)}" ${weight.error}.`,
      });
      continue;
    }
    rows.push({ symbol, weight: weight.value, line });
  }
  errors.sort((a, b) => a.line - b.line);
  return { rows, errors, header, delimiter };
}

/** Summary for a toast: "Read 12 rows; 2 lines could not be read." */
export function describePaste(result: PasteResult): string {
  const read = `Read ${count(result.rows.length)} ${result.rows.length === 1 ? 'row' : 'rows'}`;
  const bad = result.errors.length;
  return bad === 0
    ? `${read}.`
    : `${read}; ${count(bad)} ${bad === 1 ? 'line' : 'lines'} could not be read.`;
}

function detectDelimiter(text: string): PasteResult['delimiter'] {
  const firstLine = text.split(/\r\n|\n|\r/).find((l) => l.trim() !== '') ?? '';
  if (firstLine.includes('\t')) return '\t';
  if (firstLine.includes(';')) return ';';
  return ',';
}

interface CsvRecord {
  cells: string[];
  line: number;
}

/** RFC 4180 records; blank lines skipped; an unclosed quote is an error for its line. */
function readRecords(text: string, delimiter: string) {
  const records: CsvRecord[] = [];
  const errors: PasteError[] = [];
  let cells: string[] = [];
  let cell = '';
  let line = 1;
  let recordLine = 1;
  let quoted = false;
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
    if (ch === '"' && cell.trim() === '') {
      quoted = true;
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
  if (quoted)
    errors.push({ line: recordLine, message: `Line ${recordLine}: a quote is never closed.` });
  else endRecord();
  return { records, errors };
}
