import { describe, expect, it } from 'vitest';
import {
  readStrategyResponse,
  readVersionResponse,
  type ResourceReader,
} from '../../../../electron/core/api/resource-readers';
import { strategyResponse, versionResponse } from '../../../../electron/core/api/schemas';
import { toUtcTimestamp } from '../../../../shared/domain/resources';
import { strategyBody, versionBody } from './fake-service';

/**
 * The hand-written readers must read exactly what the zod schemas read: the same answers
 * accepted, into the same values, the others left to zod. Compared here on answers altered at
 * every field, one alteration at a time.
 */

const TS = '2025-01-02T03:04:05.123456Z';
const order = {
  id: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d',
  date: '2025-01-02',
  side: 'BUY',
  symbol: 'MSFT',
  status: 'FILLED',
  status_reason: null,
  order_quantity: '12.5',
  order_value: '5000.00',
  filled_quantity: '12.5',
  filled_value: '5000.00',
  filled_average_price: '400',
  inserted_at: TS,
  updated_at: '2025-01-02T04:04:05+01:00',
};
const fullVersion = {
  data: {
    ...versionBody.data,
    scheduled_for: '2025-03-01T09:30:00.000000Z',
    orders: [order, { ...order, side: 'SELL', status_reason: 'no liquidity', filled_value: null }],
  },
};

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Values put in place of a field: wrong kinds, near misses of each format, other valid forms. */
function alternatives(value: Json): (Json | undefined)[] {
  const common: (Json | undefined)[] = [undefined, null, 0, 1.5, true, '', 'x', [], {}];
  if (typeof value !== 'string') return common;
  return [
    ...common,
    `${value} `,
    ` ${value}`,
    `${value}\n`,
    value.toUpperCase(),
    value.toLowerCase(),
    value.slice(1),
    value.slice(0, -1),
    `${value.slice(0, -1)}g`,
    `${value.slice(0, -1)}é`,
    `-${value}`,
    `${value}.5`,
    `${value}.`,
    value.replace(/\d/, '٣'),
    value.replace(/[0-9a-f]/, 'g'),
    value.replace(/-/, '_'),
    value.replace('Z', '+02:00'),
    value.replace('Z', ''),
    value.replace(/\.\d+Z$/, 'Z'),
    value.replace(/T\d\d/, 'T24'),
    value.replace(/-\d\d-\d\dT/, '-02-29T'),
    value.replace(/-\d\d-\d\dT/, '-04-31T'),
    value.replace(/^\d{4}/, '2024').replace(/-\d\d-\d\dT/, '-02-29T'),
    value.replace(/^\d{4}/, '1900').replace(/-\d\d-\d\dT/, '-02-29T'),
    value.replace(/^\d{4}/, '2000').replace(/-\d\d-\d\dT/, '-02-29T'),
    value.replace(/-\d\d-\d\dT/, '-12-31T').replace(/^\d{4}/, '9999'),
    '1e5',
    '.5',
    '-0',
    '007.50',
  ];
}

/** Every body made by altering one field (or adding one unknown field) of `body`. */
function* altered(body: Json): Generator<Json> {
  yield body;
  if (Array.isArray(body)) {
    for (let i = 0; i < body.length; i++)
      for (const inner of altered(body[i]!)) yield body.map((v, j) => (j === i ? inner : v));
    return;
  }
  if (typeof body !== 'object' || body === null) {
    for (const value of alternatives(body)) if (value !== undefined) yield value;
    return;
  }
  yield { ...body, unknown_field: 'kept out' };
  for (const [key, value] of Object.entries(body)) {
    const { [key]: _removed, ...without } = body;
    yield without;
    for (const inner of altered(value)) if (inner !== value) yield { ...body, [key]: inner };
    if (typeof value !== 'object' || value === null)
      for (const other of alternatives(value))
        if (other !== undefined) yield { ...body, [key]: other };
  }
}

function compare<T>(
  read: ResourceReader<T>,
  schema: typeof versionResponse | typeof strategyResponse,
  base: Json,
) {
  let accepted = 0;
  let refused = 0;
  for (const body of altered(base)) {
    const json = JSON.parse(JSON.stringify(body)) as unknown;
    const byZod = schema.safeParse(json);
    const byHand = read(json);
    expect(byHand !== undefined, JSON.stringify(body)).toBe(byZod.success);
    if (byZod.success) {
      expect(byHand).toStrictEqual(byZod.data);
      accepted++;
    } else refused++;
  }
  return { accepted, refused };
}

describe('the one-pass readers and the zod schemas', () => {
  it('accept and refuse the same versions, read into the same values', () => {
    const { accepted, refused } = compare(readVersionResponse, versionResponse, fullVersion);
    // Both sides were exercised: other valid forms (offsets, upper-case ids) and many refusals.
    expect(accepted).toBeGreaterThan(50);
    expect(refused).toBeGreaterThan(1000);
  });

  it('accept and refuse the same strategies, read into the same values', () => {
    const { accepted, refused } = compare(readStrategyResponse, strategyResponse, strategyBody);
    expect(accepted).toBeGreaterThan(20);
    expect(refused).toBeGreaterThan(300);
  });

  it('leave out an absent list, as zod does, and keep an empty one', () => {
    const { orders: _orders, ...withoutOrders } = versionBody.data;
    const read = readVersionResponse({ data: { ...withoutOrders, extra: 1 } });
    expect(read).toBeDefined();
    expect('orders' in read!.data).toBe(false);
    expect('extra' in read!.data).toBe(false);
    expect(readVersionResponse(versionBody)?.data.orders).toEqual([]);
  });
});

describe('toUtcTimestamp on the UTC form', () => {
  /** The calendar as Date knows it (proleptic Gregorian). */
  const exists = (y: number, m: number, d: number) => {
    const date = new Date(0);
    date.setUTCFullYear(y, m - 1, d);
    return date.getUTCDate() === d;
  };

  it('knows which days exist without a Date: month lengths and leap years', () => {
    for (const year of [0, 1, 4, 100, 400, 1900, 2000, 2023, 2024, 2100, 9996, 9999])
      for (let month = 1; month <= 12; month++)
        for (const day of [1, 28, 29, 30, 31]) {
          const text = `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}T12:00:00.000000Z`;
          expect(toUtcTimestamp(text), text).toBe(exists(year, month, day) ? text : undefined);
        }
  });
});
