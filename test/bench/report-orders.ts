/**
 * One million realistic cached orders for the report benches: a few strategies (names that need
 * quoting or neutralizing among them), versions of ~200 orders, unique order ids, decimals and
 * timestamps drawn from pools. Deterministic apart from the ids.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { OrderReportRow } from '../../electron/core/reports/index';

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
