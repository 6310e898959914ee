/**
 * csv_vs_csv_stringify: writeOrderReport's rows per second over csv-stringify's, streaming the
 *   same rows (the first 250,000, in memory) to a file with formula escaping and CRLF (goal >= 2.5).
 * The rows are generated before timing; the figure is the median of 3 runs after a warm-up.
 * (export_vs_sqlite3_cli_ratio, in export.bench.ts, measures the export from the store.)
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'csv-stringify';
import {
  ORDER_REPORT_COLUMNS,
  writeOrderReport,
  type OrderReportRow,
} from '../../electron/core/reports/index';
import { generateOrders } from './report-orders';

const WARM_UP_ORDERS = 100_000;
const RUNS = 3;
/** csv-stringify is several times slower: it formats the first quarter, to keep the bench short. */
const STRINGIFY_ORDERS = 250_000;

async function time(run: () => Promise<unknown>): Promise<number> {
  const started = process.hrtime.bigint();
  await run();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function viaCsvStringify(rows: OrderReportRow[], path: string): Promise<void> {
  const stringifier = stringify({
    header: true,
    columns: [...ORDER_REPORT_COLUMNS],
    escape_formulas: true,
    record_delimiter: 'windows',
  });
  return pipeline(Readable.from(rows), stringifier, createWriteStream(path));
}

export default async function bench(): Promise<Record<string, number>> {
  const folder = await mkdtemp(join(tmpdir(), 'csv-bench-'));
  try {
    // Only the first quarter is formatted: that is all the comparison needs.
    const rows = generateOrders(STRINGIFY_ORDERS);
    const warmUp = rows.slice(0, WARM_UP_ORDERS);
    const ours = join(folder, 'ours.csv');
    const theirs = join(folder, 'theirs.csv');

    // Each file is deleted right after its run, so dirty pages of one run do not slow the next.
    const timed = async (path: string, run: () => Promise<unknown>): Promise<number> => {
      const ms = await time(run);
      await rm(path);
      return ms;
    };
    await timed(ours, () => writeOrderReport(warmUp, ours));
    await timed(theirs, () => viaCsvStringify(warmUp, theirs));

    const oursMs: number[] = [];
    const theirsMs: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      oursMs.push(await timed(ours, () => writeOrderReport(rows, ours)));
      theirsMs.push(await timed(theirs, () => viaCsvStringify(rows, theirs)));
    }
    return { csv_vs_csv_stringify: round(median(theirsMs) / median(oursMs)) };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
