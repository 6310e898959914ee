import fc from 'fast-check';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ORDER_REPORT_COLUMNS,
  ORDER_REPORT_HEADER,
  ORDER_REPORT_NUMERIC_COLUMNS,
  formatOrderReportRow,
  isFormulaLike,
  writeOrderReport,
  type OrderReportRow,
} from '../../../../electron/core/reports/index';
import { parseCsv } from '../../../support/rfc4180';

const numeric = new Set<string>(ORDER_REPORT_NUMERIC_COLUMNS);

/** Text with the characters that matter to CSV and to spreadsheets mixed into any Unicode. */
const tricky = fc.constantFrom(
  '"',
  ',',
  '\r',
  '\n',
  '\r\n',
  '=',
  '+',
  '-',
  '@',
  '\t',
  "'",
  ' ',
  '\u00a0',
  '\u200b',
  '\ufeff',
  '＝',
  '＋',
  '－',
  '＠',
);
const textCell = fc
  .array(fc.oneof(tricky, fc.string({ unit: 'grapheme', maxLength: 4 })), { maxLength: 8 })
  .map((parts) => parts.join(''));
const decimalCell = fc
  .tuple(fc.boolean(), fc.stringMatching(/^\d{1,12}$/), fc.option(fc.stringMatching(/^\d{1,8}$/)))
  .map(
    ([negative, whole, fraction]) =>
      `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`,
  );

const orderRow: fc.Arbitrary<OrderReportRow> = fc.record({
  strategy_id: textCell,
  strategy_name: textCell,
  version_id: textCell,
  version_status: fc.option(textCell),
  executed_at: fc.option(textCell),
  order_id: textCell,
  date: textCell,
  side: textCell,
  symbol: textCell,
  status: textCell,
  status_reason: fc.option(textCell),
  order_quantity: decimalCell,
  order_value: decimalCell,
  filled_quantity: fc.option(decimalCell),
  filled_value: fc.option(decimalCell),
  filled_average_price: fc.option(decimalCell),
  inserted_at: textCell,
  updated_at: textCell,
});

/** What a cell must read back as: '' for null, a leading quote on formula-like text. */
function expectedCell(column: string, value: string | null): string {
  if (value === null) return '';
  if (!numeric.has(column) && isFormulaLike(value)) return `'${value}`;
  return value;
}

function expectedRecord(row: OrderReportRow): string[] {
  return ORDER_REPORT_COLUMNS.map((column) => expectedCell(column, row[column]));
}

describe('order report round trip (property)', () => {
  it('parses back to the original cells, modulo the documented neutralization', () => {
    fc.assert(
      fc.property(fc.array(orderRow, { minLength: 1, maxLength: 5 }), (rows) => {
        const csv = ORDER_REPORT_HEADER + rows.map(formatOrderReportRow).join('');
        const [header, ...records] = parseCsv(csv);
        expect(header).toEqual([...ORDER_REPORT_COLUMNS]);
        expect(records).toEqual(rows.map(expectedRecord));
        // No cell of the output can start a formula, once its RFC 4180 quotes are removed.
        for (const record of records)
          record.forEach((cell, i) => {
            if (!numeric.has(ORDER_REPORT_COLUMNS[i]!)) expect(isFormulaLike(cell)).toBe(false);
          });
      }),
      { numRuns: 600 },
    );
  });

  describe('through a file', () => {
    let folder: string;
    beforeAll(async () => {
      folder = await mkdtemp(join(tmpdir(), 'report-roundtrip-'));
    });
    afterAll(async () => {
      await rm(folder, { recursive: true, force: true });
    });

    it('writes UTF-8 bytes equal to the formatted rows, with or without a BOM', async () => {
      let run = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(orderRow, { maxLength: 20 }), fc.boolean(), async (rows, bom) => {
          const path = join(folder, `report-${run++}.csv`);
          const result = await writeOrderReport(rows, path, { bom });
          const bytes = await readFile(path);
          const text = ORDER_REPORT_HEADER + rows.map(formatOrderReportRow).join('');
          const expected = Buffer.concat([
            Buffer.from(bom ? [0xef, 0xbb, 0xbf] : []),
            Buffer.from(text, 'utf8'),
          ]);
          expect(bytes.equals(expected)).toBe(true);
          expect(result).toEqual({ rows: rows.length, bytes: expected.length, path });
          expect(parseCsv(bytes.toString('utf8').replace(/^\uFEFF/, '')).slice(1)).toEqual(
            rows.map(expectedRecord),
          );
          await rm(path);
        }),
        { numRuns: 60 },
      );
    });
  });
});
