/**
 * CSV order report figures (docs/client.md, Reports), each a ratio against a baseline of the same run:
 * - csv_vs_write_ratio: writeOrderReport's throughput over 1,000,000 orders relative to
 *   fs.promises.writeFile of the same bytes, precomputed (goal >= 0.8).
 * - csv_vs_csv_stringify: writeOrderReport's rows per second over csv-stringify's, streaming the
 *   same rows (the first 250,000) to a file with formula escaping and CRLF (goal >= 2.5).
 * Rows are generated before timing; each figure is the median of 3 runs after a warm-up.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
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

const ORDERS = 1_000_000;
const WARM_UP_ORDERS = 100_000;
const RUNS = 3;
/** csv-stringify is several times slower: it formats the first quarter, to keep the bench short. */
const STRINGIFY_ORDERS = 250_000;

const NAMES = [
  'Global equity core',
  'Dividend growth',
  'Europe small caps',
  'Stratégie défensive',
  '日本株 バリュー',
  '=HYPERLINK("http://evil.example","Click")',
  '+Momentum',
  '-Short tilt',
  '@Income',
  'Tech, media & telecom',
];
const SYMBOLS = ['AAPL', 'MSFT', 'NVDA', 'ASML', 'NESN', 'SAP', 'TTE', '7203', 'BRK.B', 'SHEL'];
const REASONS = [
  'Insufficient cash, order reduced',
  'Market closed; "retry" tomorrow',
  'Rejected by broker: price band exceeded',
];

/** Deterministic pseudo-random numbers, so every run formats the same rows. */
function rng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function decimal6(random: () => number, max: number): string {
  const micros = Math.floor(random() * max * 1e6);
  return `${Math.floor(micros / 1e6)}.${String(micros % 1e6).padStart(6, '0')}`;
}

function timestamp(random: () => number): string {
  const seconds = 1_735_689_600 + Math.floor(random() * 31_536_000);
  const iso = new Date(seconds * 1000).toISOString().slice(0, 19);
  return `${iso}.${String(Math.floor(random() * 1e6)).padStart(6, '0')}Z`;
}

/**
 * Distinct decimals and timestamps drawn from pools: every cell is still a separate, realistic
 * value to format, while generating a million rows stays quick (it is not what is measured).
 */
function pool(size: number, make: () => string): () => string {
  const values = Array.from({ length: size }, make);
  let next = 0;
  return () => values[(next = (next * 31 + 17) % size)]!;
}

/** Random version 4 UUIDs, written in bulk (crypto.randomUUID one by one is slow on a busy CI box). */
function uuids(count: number): string[] {
  const raw = randomBytes(count * 16);
  const text = Buffer.allocUnsafe(count * 36);
  const hex = Buffer.from('0123456789abcdef');
  let at = 0;
  for (let i = 0; i < count; i++) {
    for (let j = 0; j < 16; j++) {
      let byte = raw[i * 16 + j]!;
      if (j === 6) byte = (byte & 0x0f) | 0x40;
      if (j === 8) byte = (byte & 0x3f) | 0x80;
      if (j === 4 || j === 6 || j === 8 || j === 10) text[at++] = 0x2d;
      text[at++] = hex[byte >> 4]!;
      text[at++] = hex[byte & 15]!;
    }
  }
  return Array.from({ length: count }, (_, i) => text.toString('latin1', i * 36, i * 36 + 36));
}

/** One million realistic orders: a few strategies, versions of ~200 orders, unique order ids. */
export function generateOrders(count: number): OrderReportRow[] {
  const random = rng(42);
  const quantity = pool(65_521, () => decimal6(random, 10_000));
  const value = pool(65_519, () => decimal6(random, 1_000_000));
  const price = pool(65_497, () => decimal6(random, 2_000));
  const time = pool(65_479, () => timestamp(random));
  const orderIds = uuids(count);
  const strategies = NAMES.map((name) => ({ id: randomUUID(), name }));
  const rows: OrderReportRow[] = new Array(count);
  let version = { id: randomUUID(), status: 'COMPLETE', executedAt: timestamp(random) };
  for (let i = 0; i < count; i++) {
    if (i % 200 === 0) {
      const status = random() < 0.9 ? 'COMPLETE' : 'IN_PROGRESS';
      version = { id: randomUUID(), status, executedAt: time() };
    }
    const strategy = strategies[Math.floor(i / 200) % strategies.length]!;
    const filled = version.status === 'COMPLETE';
    const failed = filled && random() < 0.02;
    rows[i] = {
      strategy_id: strategy.id,
      strategy_name: strategy.name,
      version_id: version.id,
      version_status: version.status,
      executed_at: version.executedAt,
      order_id: orderIds[i]!,
      date: version.executedAt.slice(0, 10),
      side: random() < 0.5 ? 'BUY' : 'SELL',
      symbol: SYMBOLS[i % SYMBOLS.length]!,
      status: failed ? 'FAILED' : filled ? 'FILLED' : 'PENDING',
      status_reason: failed ? REASONS[i % REASONS.length]! : null,
      order_quantity: quantity(),
      order_value: value(),
      filled_quantity: filled && !failed ? quantity() : null,
      filled_value: filled && !failed ? value() : null,
      filled_average_price: filled && !failed ? price() : null,
      inserted_at: time(),
      updated_at: time(),
    };
  }
  return rows;
}

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
    const rows = generateOrders(ORDERS);
    const warmUp = rows.slice(0, WARM_UP_ORDERS);
    const subset = rows.slice(0, STRINGIFY_ORDERS);
    const ours = join(folder, 'ours.csv');
    const plain = join(folder, 'plain.csv');
    const theirs = join(folder, 'theirs.csv');
    // The baseline writes exactly the bytes of the report, read back from a first export.
    await writeOrderReport(rows, plain);
    const bytes = await readFile(plain);
    await rm(plain);

    // Each file is deleted right after its run, so dirty pages of one run do not slow the next.
    const timed = async (path: string, run: () => Promise<unknown>): Promise<number> => {
      const ms = await time(run);
      await rm(path);
      return ms;
    };
    await timed(ours, () => writeOrderReport(warmUp, ours));
    await timed(theirs, () => viaCsvStringify(warmUp, theirs));
    await timed(plain, () => writeFile(plain, bytes.subarray(0, 1 << 24)));

    const plainMs: number[] = [];
    const oursMs: number[] = [];
    const oursSubsetMs: number[] = [];
    const theirsMs: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      plainMs.push(await timed(plain, () => writeFile(plain, bytes)));
      oursMs.push(await timed(ours, () => writeOrderReport(rows, ours)));
      oursSubsetMs.push(await timed(ours, () => writeOrderReport(subset, ours)));
      theirsMs.push(await timed(theirs, () => viaCsvStringify(subset, theirs)));
    }
    return {
      csv_vs_write_ratio: round(median(plainMs) / median(oursMs)),
      csv_vs_csv_stringify: round(median(theirsMs) / median(oursSubsetMs)),
    };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
