import { describe, expect, it } from 'vitest';
import { modelCsvFile, modelCsvName, readModelCsv } from '../../../../electron/core/models/csv';

/** The file's text as the export writes it (a NUL-led line is written after its NUL). */
function modelCsvText(rows: { symbol: string; weight: string }[]): string {
  const file = modelCsvFile('Model', 1, rows);
  return file.header + [...file.lines()].map((line) => line.slice(1)).join('');
}

describe('a model revision as CSV and back', () => {
  it('writes a header and one line per row with the app cell rule, CRLF', () => {
    expect(
      modelCsvText([
        { symbol: 'AAPL', weight: '40' },
        { symbol: 'BRK.B', weight: '12.50' },
      ]),
    ).toBe('symbol,weight\r\nAAPL,40\r\nBRK.B,12.50\r\n');
    // A formula-like cell is neutralized as every CSV the app writes is.
    expect(modelCsvText([{ symbol: '-X', weight: '1' }])).toBe("symbol,weight\r\n'-X,1\r\n");
    expect(() => modelCsvText([{ symbol: 'A', weight: '1e2' }])).toThrow(/not a decimal/);
  });

  it('reads back exactly the rows it wrote, the neutralizing quote taken off', () => {
    const rows = [
      { symbol: 'AAPL', weight: '40' },
      { symbol: 'BRK.B', weight: '12.50' },
      { symbol: 'MSFT', weight: '0' },
      { symbol: '-X', weight: '0.001' },
    ];
    const read = readModelCsv(modelCsvText(rows));
    expect(read.header).toBe(true);
    expect(read.rows).toEqual(rows);
  });

  it("reads a spreadsheet's file with the draft import's rules, naming each bad line", () => {
    const read = readModelCsv('Ticker;Weight %\nspy;50 %\nagg;1,5\n');
    expect(read.rows).toEqual([
      { symbol: 'SPY', weight: '50' },
      { symbol: 'AGG', weight: '1,5' },
    ]);
    expect(read.problems).toHaveLength(1);
    expect(read.problems[0]).toMatch(/^Line 3 \(AGG\): /);
    expect(() => readModelCsv('x'.repeat(1_000_001))).toThrow(/at most 1,000,000/);
  });

  it('names the file after the model and its revision', () => {
    expect(modelCsvName('Core Équity / 60-40', 3)).toBe('model-core-equity-60-40-revision-3.csv');
    expect(modelCsvName('***', 1)).toBe('model-unnamed-revision-1.csv');
  });
});
