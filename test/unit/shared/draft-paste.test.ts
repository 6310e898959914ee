import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  describePaste,
  parseDraftPaste,
  pasteProblems,
  PASTE_LIMITS,
  type PasteResult,
  type PastedRow,
} from '../../../shared/draft/paste';
import { MAX_CELL_CHARS } from '../../../shared/draft/types';
import { validateDraft } from '../../../shared/draft/validate';

/** The rows of a paste that was taken (the test fails if it was refused). */
function rowsOf(result: PasteResult): PastedRow[] {
  if (!result.ok) throw new Error(`refused: ${result.error}`);
  return result.rows;
}
const cells = (rows: PastedRow[]) => rows.map((r) => [r.symbol, r.weight]);
const refusal = (result: PasteResult) => (result.ok ? null : result.error);

describe('parseDraftPaste: every line stays a row', () => {
  it('keeps the line with a decimal comma as a row, marked with the reason (tabs or spaces)', () => {
    for (const text of ['VOO\t45 %\nAGG\t20,5%\nTLT\t10\n', 'VOO 45 %\r\nAGG 20,5%\r\nTLT 10']) {
      const rows = rowsOf(parseDraftPaste(text));
      expect(cells(rows)).toEqual([
        ['VOO', '45'],
        ['AGG', '20,5'],
        ['TLT', '10'],
      ]);
      expect(rows.map((r) => r.problem)).toEqual([
        null,
        'weight "20,5" uses a comma: use a dot (20.5)',
        null,
      ]);
      // The draft itself refuses it: nothing can be executed until it is fixed or removed.
      const validation = validateDraft(rows);
      expect(validation.valid).toBe(false);
      expect(validation.rows[1]!.errors.map((e) => e.message)).toEqual([
        'Row 2 (AGG): weight "20,5" uses a comma: use a dot (20.5)',
      ]);
    }
  });

  it('says what is wrong with each kind of line it cannot read, and keeps its text', () => {
    const text = [
      'AAPL,"1,000.5"',
      'MSFT,1 000',
      'NVDA,"1.000,5"',
      'AMD,"1,000"',
      'GOOG,five',
      'META',
      'VOO,45,Vanguard S&P 500',
      'AGG,20,5',
      '"BRK B",5',
      ',5',
      'TSLA,1e3',
      'SPY,+4',
      'QQQ,5 % %',
      'IWM,-2',
      'DIA,120',
    ].join('\n');
    const rows = rowsOf(parseDraftPaste(text));
    expect(rows.map((r) => r.line)).toEqual(Array.from({ length: 15 }, (_, i) => i + 1));
    expect(pasteProblems(rows)).toEqual([
      'Line 1 (AAPL): weight "1,000.5" uses commas as thousands separators; write the digits together (1000.5)',
      'Line 2 (MSFT): weight "1 000" has a space as a thousands separator; write the digits together (1000)',
      'Line 3 (NVDA): weight "1.000,5" uses dots as thousands separators and a decimal comma; write 1000.5',
      'Line 4 (AMD): weight "1,000" uses a comma: use a dot for decimals (1.000) and no thousands separator (1000)',
      'Line 5 (GOOG): weight "five" is not a decimal number',
      'Line 6 (META): the weight is empty; enter a percentage from 0 to 98 (0 removes the position)',
      'Line 7 (VOO): weight "45,Vanguard S&P 500" holds more than one value; a row takes one weight (remove the extra column or words)',
      'Line 8 (AGG): weight "20,5" uses a comma: use a dot (20.5)',
      'Line 9 (BRK B): "BRK B" has a space: a symbol is 1 to 20 letters, digits, dots, dashes or slashes (like BRK.B)',
      'Line 10: the symbol is empty',
      'Line 11 (TSLA): weight "1e3" uses exponent notation; write the number out in full',
      'Line 12 (SPY): weight "+4" has a plus sign; write the number without it',
      'Line 13 (QQQ): weight "5 %" has a % sign; leave it out, weights are already percentages',
      'Line 14 (IWM): weight -2 is below 0; use 0 to remove a position',
      'Line 15 (DIA): weight 120 is above 98, the most one position can hold',
    ]);
    // Each problem is the draft's own: the grid marks the same rows after the merge.
    const validation = validateDraft(rows);
    expect(validation.rows.every((r) => r.errors.length > 0)).toBe(true);
  });

  it('reads TSV from a spreadsheet with a header, % and CRLF', () => {
    const result = parseDraftPaste('Symbol\tWeight\r\naapl\t12.5%\r\nBRK.B\t 3 \r\n');
    expect(result).toEqual({
      ok: true,
      rows: [
        { symbol: 'AAPL', weight: '12.5', line: 2, problem: null },
        { symbol: 'BRK.B', weight: '3', line: 3, problem: null },
      ],
      header: true,
      delimiter: '\t',
    });
  });

  it('reads CSV without a header, quoted fields, LF', () => {
    const result = parseDraftPaste('"msft","1.25"\n"A""B",2\nGOOG,0\n');
    expect(result).toMatchObject({ ok: true, header: false, delimiter: ',' });
    expect(cells(rowsOf(result))).toEqual([
      ['MSFT', '1.25'],
      ['A"B', '2'],
      ['GOOG', '0'],
    ]);
  });

  it('takes header columns in any order and case, ignoring extra named columns', () => {
    const rows = rowsOf(parseDraftPaste('Name,WEIGHT,Ticker\r\n"Apple, Inc.",5,AAPL\r\n'));
    expect(cells(rows)).toEqual([['AAPL', '5']]);
    expect(cells(rowsOf(parseDraftPaste('Ticker;Allocation %\nVOO;45\n')))).toEqual([
      ['VOO', '45'],
    ]);
  });

  it('under a header, a line with more cells than the header is refused, not read in part', () => {
    const rows = rowsOf(parseDraftPaste('Symbol,Weight\nVOO,45\nAGG,20,5\nTLT,10,\n'));
    expect(cells(rows)).toEqual([
      ['VOO', '45'],
      ['AGG', '20,5'],
      ['TLT', '10'],
    ]);
    expect(pasteProblems(rows)).toEqual([
      'Line 3 (AGG): weight "20,5" uses a comma: use a dot (20.5)',
    ]);
  });

  it('refuses a header that names only one of the two columns, adding nothing', () => {
    expect(refusal(parseDraftPaste('Symbol,Shares\nAAPL,1\n'))).toBe(
      'Line 1 looks like a header (Symbol, Shares) but names no Weight column: name the ' +
        'columns Symbol and Weight, or leave the header out. Nothing was added.',
    );
    expect(refusal(parseDraftPaste('Name\tWeight\nApple\t1\n'))).toMatch(/names no Symbol column/);
  });

  it('takes a first line with a number as data, never as a header', () => {
    expect(cells(rowsOf(parseDraftPaste('Symbol,5\nWeight,3')))).toEqual([
      ['SYMBOL', '5'],
      ['WEIGHT', '3'],
    ]);
  });

  it('reads an unclosed quote as a character, so its line stays a row', () => {
    const rows = rowsOf(parseDraftPaste('"A\nB",1\nC,2\n"D,3\nE,4\n'));
    expect(rows.map((r) => [r.line, r.symbol, r.weight])).toEqual([
      [1, 'A\nB', '1'],
      [3, 'C', '2'],
      [4, '"D', '3'],
      [5, 'E', '4'],
    ]);
    expect(rows[2]!.problem).toMatch(/is not a valid symbol/);
  });

  it('cuts a cell longer than a draft keeps, with a mark that keeps the row invalid', () => {
    const long = `1${'0'.repeat(80)}`;
    const rows = rowsOf(parseDraftPaste(`VOO,${long}\n${'X'.repeat(70)},1`));
    expect(rows[0]!.weight).toHaveLength(MAX_CELL_CHARS);
    expect(rows[0]!.weight.endsWith('…')).toBe(true);
    expect(rows[0]!.problem).toMatch(/was longer than a weight can be and was cut/);
    expect(rows[1]!.symbol).toHaveLength(MAX_CELL_CHARS);
    expect(rows[1]!.problem).toMatch(/is not a valid symbol/);
  });

  it('ignores a byte order mark and blank lines', () => {
    expect(cells(rowsOf(parseDraftPaste('\uFEFFsymbol,weight\n\nA,1\n  \n')))).toEqual([
      ['A', '1'],
    ]);
  });

  it('words the notice: what was read and what the manager must fix', () => {
    const rows = rowsOf(parseDraftPaste('VOO\t45\nAGG\t20,5\nTLT\tten\n'));
    expect(describePaste(rows, { added: 2, updated: 1 })).toBe(
      'Read 3 rows: 2 added, 1 updated. 2 have problems and are marked in the grid: fix or ' +
        'remove them before executing.',
    );
    expect(describePaste(rows.slice(0, 1), { added: 1, updated: 0 })).toBe(
      'Read 1 row: 1 added, 0 updated.',
    );
  });
});

describe('parseDraftPaste: limits, refused whole and at once', () => {
  it('refuses a text over 1,000,000 characters without reading it (a 50 MB cell)', () => {
    const huge = `AAPL,1\n${'x'.repeat(50_000_000)}`;
    const started = performance.now();
    const result = parseDraftPaste(huge);
    expect(performance.now() - started).toBeLessThan(50);
    expect(refusal(result)).toBe(
      'The text has 50,000,007 characters; a paste or import takes at most 1,000,000 (about ' +
        '1 MB). Nothing was added.',
    );
    expect(parseDraftPaste(`A,1\n${'x'.repeat(PASTE_LIMITS.characters - 4)}`).ok).toBe(true);
    expect(parseDraftPaste(`A,1\n${'x'.repeat(PASTE_LIMITS.characters - 3)}`).ok).toBe(false);
  });

  it('refuses more than 5,000 lines, blank ones included', () => {
    const lines = (n: number) => `A,1${'\n'.repeat(n - 1)}B,2\n`;
    expect(parseDraftPaste(lines(PASTE_LIMITS.lines)).ok).toBe(true);
    expect(refusal(parseDraftPaste(lines(PASTE_LIMITS.lines + 1)))).toBe(
      'The text has 5,001 lines; a paste or import takes at most 5,000 lines (a draft holds ' +
        'at most 1,000 rows). Nothing was added.',
    );
  });

  it('takes 1,000 rows under a header and refuses 1,001', () => {
    const text = (n: number) =>
      ['Symbol,Weight', ...Array.from({ length: n }, (_, i) => `S${i},0.01`)].join('\n');
    expect(rowsOf(parseDraftPaste(text(1000)))).toHaveLength(1000);
    expect(refusal(parseDraftPaste(text(1001)))).toBe(
      'The text has 1,001 rows; a draft holds at most 1,000. Nothing was added.',
    );
  });

  it('reads a 1,000-row import of 1 MB in time that grows with its size, not its square', () => {
    // A ratio against a tenth of the text in the same process: these machines are noisy, and a
    // quadratic scan of long quoted cells would take about 100 times as long, a linear one 10.
    const importOf = (cellChars: number) =>
      [
        'Name,Symbol,Weight',
        ...Array.from({ length: 1000 }, (_, i) => `"${'x'.repeat(cellChars)}",S${i},1`),
      ].join('\n');
    const bestOfThree = (text: string) => {
      let best = Infinity;
      for (let run = 0; run < 3; run += 1) {
        const started = performance.now();
        parseDraftPaste(text);
        best = Math.min(best, performance.now() - started);
      }
      return best;
    };
    const large = importOf(900);
    expect(large.length).toBeGreaterThan(900_000);
    expect(rowsOf(parseDraftPaste(large))).toHaveLength(1000);
    const tenth = bestOfThree(importOf(90));
    expect(bestOfThree(large) / tenth).toBeLessThan(25);
  });
});

/** Cells a line may hold: no line break and no quote (those join lines). */
const cellText = fc.string({
  unit: fc.constantFrom(...'AZaz09.,;%- \t/éx'.split('')),
  maxLength: 12,
});

describe('parseDraftPaste: properties', () => {
  it('every line with something on it becomes exactly one row, in order', () => {
    fc.assert(
      fc.property(fc.array(cellText, { maxLength: 40 }), (lines) => {
        // A first line with a tab and a number: tab-separated, and never a header.
        const text = ['AAPL\t1', ...lines].join('\n');
        const rows = rowsOf(parseDraftPaste(text));
        const expected = [1, ...lines.flatMap((l, i) => (l.trim() === '' ? [] : [i + 2]))];
        expect(rows.map((r) => r.line)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('a row has a problem exactly when the draft refuses it on its own', () => {
    fc.assert(
      fc.property(fc.array(cellText, { maxLength: 20 }), (lines) => {
        const rows = rowsOf(parseDraftPaste(['AAPL\t1', ...lines].join('\n')));
        for (const row of rows) {
          const alone = validateDraft([{ symbol: row.symbol, weight: row.weight }]).rows[0]!;
          expect(row.problem !== null).toBe(alone.errors.length > 0);
        }
        if (rows.some((r) => r.problem !== null)) expect(validateDraft(rows).valid).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('valid rows written as TSV, CSV, semicolons or spaces, with or without a header and %, read back exactly', () => {
    const row = fc.record({
      symbol: fc.constantFrom('AAPL', 'MSFT', 'BRK.B', 'BF-B', 'VOO', 'A/B'),
      weight: fc
        .tuple(fc.integer({ min: 0, max: 98 }), fc.option(fc.integer({ min: 0, max: 9999 })))
        .map(([i, f]) => (f === null || i === 98 ? `${i}` : `${i}.${f}`)),
    });
    fc.assert(
      fc.property(
        fc.array(row, { minLength: 1, maxLength: 30 }),
        fc.constantFrom('\t', ',', ';', ' '),
        fc.boolean(),
        fc.constantFrom('', '%', ' %'),
        fc.constantFrom('\n', '\r\n'),
        (rows, delimiter, withHeader, percent, eol) => {
          const lines = rows.map(
            (r) => `${r.symbol.toLowerCase()}${delimiter}${r.weight}${percent}`,
          );
          const header = `Symbol${delimiter}Weight`;
          const text = (withHeader ? [header, ...lines] : lines).join(eol);
          const read = rowsOf(parseDraftPaste(text));
          expect(cells(read)).toEqual(rows.map((r) => [r.symbol, r.weight]));
          expect(read.every((r) => r.problem === null)).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});
