import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ORDER_REPORT_HEADER,
  OrderReportFileError,
  OrderReportRowError,
  PROGRESS_EVERY_ROWS,
  formatOrderReportRow,
  writeOrderReport,
  type OrderReportRow,
} from '../../../electron/core/reports/index';
import { parseCsv } from '../../support/rfc4180';
import { orderRow } from '../../support/order-rows';

/** Orders of versions of 250, with a few reasons and names that need quoting or neutralizing. */
function* orders(count: number): Generator<OrderReportRow> {
  for (let i = 0; i < count; i++) {
    const hex = i.toString(16).padStart(12, '0');
    yield orderRow({
      version_id: `5d1c2b3a-4e5f-4a6b-8c7d-${(i - (i % 250)).toString(16).padStart(12, '0')}`,
      strategy_name: i % 1000 < 250 ? '=Momentum, "EU"' : 'Stratégie 日本',
      order_id: `9a8b7c6d-5e4f-4321-8fed-${hex}`,
      status_reason: i % 97 === 0 ? 'Rejected, "price band"\r\nexceeded' : null,
      order_quantity: `${i}.${String(i % 1_000_000).padStart(6, '0')}`,
      filled_value: i % 2 ? null : `-${i}.5`,
    });
  }
}

let folder: string;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'order-report-'));
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('writeOrderReport', () => {
  it('streams 100,000 orders to a real file that parses back row for row', async () => {
    const path = join(folder, 'orders.csv');
    const progress: number[] = [];
    const result = await writeOrderReport(orders(100_000), path, {
      onProgress: (rows) => progress.push(rows),
    });
    const bytes = await readFile(path);
    expect(result).toEqual({ rows: 100_000, bytes: bytes.length, path });
    expect(bytes.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf]))).toBe(false);
    const text = bytes.toString('utf8');
    expect(text.startsWith(ORDER_REPORT_HEADER)).toBe(true);
    expect(text.endsWith('\r\n')).toBe(true);
    let expected = ORDER_REPORT_HEADER;
    for (const row of orders(100_000)) expected += formatOrderReportRow(row);
    expect(text === expected).toBe(true);
    const records = parseCsv(text);
    expect(records).toHaveLength(100_001);
    expect(records[1]![1]).toBe(`'=Momentum, "EU"`);
    expect(records[98]![10]).toBe('Rejected, "price band"\r\nexceeded');
    // Progress: increasing, never more often than every PROGRESS_EVERY_ROWS rows, ends at the total.
    expect(progress.at(-1)).toBe(100_000);
    progress.slice(1).forEach((rows, i) => {
      expect(rows - progress[i]!).toBeGreaterThan(0);
      if (i + 2 < progress.length)
        expect(rows - progress[i]!).toBeGreaterThanOrEqual(PROGRESS_EVERY_ROWS);
    });
    expect(await readdir(folder)).toEqual(['orders.csv']);
  });

  it('starts with a UTF-8 BOM only when asked', async () => {
    const path = join(folder, 'excel.csv');
    const result = await writeOrderReport(orders(3), path, { bom: true });
    const bytes = await readFile(path);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(result.bytes).toBe(bytes.length);
    expect(bytes.subarray(3).toString('utf8').startsWith(ORDER_REPORT_HEADER)).toBe(true);
  });

  it('accepts an async iterable', async () => {
    async function* slowly() {
      for (const row of orders(5000)) yield row;
    }
    const path = join(folder, 'async.csv');
    const result = await writeOrderReport(slowly(), path);
    expect(result.rows).toBe(5000);
    expect(parseCsv(await readFile(path, 'utf8'))).toHaveLength(5001);
  });

  it('leaves no file when cancelled with an AbortSignal, and keeps an existing report', async () => {
    const path = join(folder, 'cancelled.csv');
    await writeFile(path, 'previous report\r\n');
    const controller = new AbortController();
    const written = writeOrderReport(orders(1_000_000), path, {
      signal: controller.signal,
      onProgress: (rows) => {
        if (rows >= 20_000) controller.abort();
      },
    });
    await expect(written).rejects.toMatchObject({ name: 'AbortError' });
    expect(await readdir(folder)).toEqual(['cancelled.csv']);
    expect(await readFile(path, 'utf8')).toBe('previous report\r\n');
  });

  it('does not start when the signal is already aborted', async () => {
    const path = join(folder, 'never.csv');
    await expect(
      writeOrderReport(orders(10), path, { signal: AbortSignal.abort() }),
    ).rejects.toMatchObject({ name: 'AbortError' });
    expect(await readdir(folder)).toEqual([]);
  });

  it('leaves no file when the rows fail midway', async () => {
    function* failing(): Generator<OrderReportRow> {
      yield* orders(50_000);
      throw new Error('database went away');
    }
    const path = join(folder, 'failed.csv');
    await expect(writeOrderReport(failing(), path)).rejects.toThrow('database went away');
    expect(await readdir(folder)).toEqual([]);
  });

  it('refuses a non-decimal quantity midway, naming the order, and leaves no file', async () => {
    function* withBadRow(): Generator<OrderReportRow> {
      yield* orders(30_000);
      yield orderRow({ order_id: 'bad-order', filled_average_price: '1.5e3' });
    }
    const path = join(folder, 'bad.csv');
    const written = writeOrderReport(withBadRow(), path);
    await expect(written).rejects.toThrow(OrderReportRowError);
    await expect(writeOrderReport(withBadRow(), path)).rejects.toThrow(
      'Order bad-order cannot be exported: its filled_average_price is "1.5e3"',
    );
    expect(await readdir(folder)).toEqual([]);
  });

  it('explains a missing folder in plain words', async () => {
    const path = join(folder, 'no-such-folder', 'orders.csv');
    const written = writeOrderReport(orders(1), path);
    await expect(written).rejects.toThrow(OrderReportFileError);
    await expect(writeOrderReport(orders(1), path)).rejects.toThrow(/folder .* does not exist/);
  });
});
