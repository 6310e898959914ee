import { DECIMAL_PATTERN } from '../../../shared/decimal';
import {
  ORDER_SIDES,
  ORDER_STATUSES,
  POSITION_ACTIONS,
  VERSION_STATUSES,
  toUtcTimestamp,
  type Holding,
  type Order,
  type Strategy,
  type Version,
  type VersionPosition,
} from '../../../shared/domain/resources';

/**
 * One-pass readers of the answers the client reads on every poll: the type checks and the
 * timestamp normalization of the zod schemas in `shared/domain/resources.ts`, written out by
 * hand. They only ever accept: on the first thing they do not like they give up (undefined) and
 * the zod schema reads the answer instead, deciding what is refused and in which words. So an
 * answer they accept must be one the schema accepts, read into the same value; the unit tests
 * compare the two on many altered answers.
 */

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const VERSION_STATUS = new Set<unknown>(VERSION_STATUSES);
const ORDER_STATUS = new Set<unknown>(ORDER_STATUSES);
const ORDER_SIDE = new Set<unknown>(ORDER_SIDES);
const POSITION_ACTION = new Set<unknown>(POSITION_ACTIONS);

/** Thrown to give up; caught once per answer, never seen outside this module. */
const GIVE_UP = new Error('not read by hand');

type Json = Record<string, unknown>;

function object(value: unknown): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw GIVE_UP;
  return value as Json;
}

function array(value: unknown): unknown[] {
  if (!Array.isArray(value)) throw GIVE_UP;
  return value;
}

const DASH = 45;

const HEX = new Uint8Array(128);
for (const c of '0123456789abcdefABCDEF') HEX[c.charCodeAt(0)] = 1;

/** Hex digits from `from` to `to`; beyond the table (c >= 128) reads undefined: not a digit. */
function hexRun(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (HEX[text.charCodeAt(i)] !== 1) return false;
  return true;
}

/** z.guid()'s 8-4-4-4-12 hex digits, checked by hand (twice as fast as its regex). */
export function isGuid(value: string): boolean {
  return (
    value.length === 36 &&
    value.charCodeAt(8) === DASH &&
    value.charCodeAt(13) === DASH &&
    value.charCodeAt(18) === DASH &&
    value.charCodeAt(23) === DASH &&
    hexRun(value, 0, 8) &&
    hexRun(value, 9, 13) &&
    hexRun(value, 14, 18) &&
    hexRun(value, 19, 23) &&
    hexRun(value, 24, 36)
  );
}

function guid(value: unknown): string {
  if (typeof value !== 'string' || !isGuid(value)) throw GIVE_UP;
  return value;
}

function decimal(value: unknown): string {
  if (typeof value !== 'string' || !DECIMAL_PATTERN.test(value)) throw GIVE_UP;
  return value;
}

function decimalOrNull(value: unknown): string | null {
  return value === null ? null : decimal(value);
}

function text(value: unknown): string {
  if (typeof value !== 'string') throw GIVE_UP;
  return value;
}

function nonEmpty(value: unknown): string {
  if (typeof value !== 'string' || value.length === 0) throw GIVE_UP;
  return value;
}

function oneOf<T>(set: ReadonlySet<unknown>, value: unknown): T {
  if (!set.has(value)) throw GIVE_UP;
  return value as T;
}

function timestamp(value: unknown): string {
  const utc = typeof value === 'string' ? toUtcTimestamp(value) : undefined;
  if (utc === undefined) throw GIVE_UP;
  return utc;
}

function timestampOrNull(value: unknown): string | null {
  return value === null ? null : timestamp(value);
}

function order(value: unknown): Order {
  const o = object(value);
  const date = o.date;
  if (typeof date !== 'string' || !DATE.test(date)) throw GIVE_UP;
  return {
    id: guid(o.id),
    date,
    side: oneOf(ORDER_SIDE, o.side),
    symbol: nonEmpty(o.symbol),
    status: oneOf(ORDER_STATUS, o.status),
    status_reason: o.status_reason === null ? null : text(o.status_reason),
    order_quantity: decimal(o.order_quantity),
    order_value: decimal(o.order_value),
    filled_quantity: decimalOrNull(o.filled_quantity),
    filled_value: decimalOrNull(o.filled_value),
    filled_average_price: decimalOrNull(o.filled_average_price),
    inserted_at: timestamp(o.inserted_at),
    updated_at: timestamp(o.updated_at),
  };
}

function versionPosition(value: unknown): VersionPosition {
  const p = object(value);
  return {
    id: guid(p.id),
    symbol: nonEmpty(p.symbol),
    old_weight: decimal(p.old_weight),
    weight: decimal(p.weight),
    action: oneOf(POSITION_ACTION, p.action),
  };
}

function holding(value: unknown): Holding {
  const h = object(value);
  return {
    id: guid(h.id),
    symbol: nonEmpty(h.symbol),
    quantity: decimal(h.quantity),
    inserted_at: timestamp(h.inserted_at),
    updated_at: timestamp(h.updated_at),
  };
}

function version(value: unknown): Version {
  const v = object(value);
  const read: Version = {
    id: guid(v.id),
    strategy_id: guid(v.strategy_id),
    cash_weight: decimal(v.cash_weight),
    old_cash_weight: decimal(v.old_cash_weight),
    scheduled_for: timestampOrNull(v.scheduled_for),
    status: v.status === null ? null : oneOf(VERSION_STATUS, v.status),
    executed_at: timestampOrNull(v.executed_at),
    inserted_at: timestamp(v.inserted_at),
  };
  // Optional lists: absent stays absent (as zod leaves it), anything else must be a list.
  if ('orders' in v) read.orders = array(v.orders).map(order);
  if ('positions' in v) read.positions = array(v.positions).map(versionPosition);
  return read;
}

function strategy(value: unknown): Strategy {
  const s = object(value);
  const liquidateOnly = s.is_liquidate_only;
  if (typeof liquidateOnly !== 'boolean') throw GIVE_UP;
  const read: Strategy = {
    id: guid(s.id),
    name: text(s.name),
    description: text(s.description),
    fee_percent: decimal(s.fee_percent),
    is_liquidate_only: liquidateOnly,
    liquidate_only_reason: s.liquidate_only_reason === null ? null : text(s.liquidate_only_reason),
    inserted_at: timestamp(s.inserted_at),
    updated_at: timestamp(s.updated_at),
  };
  if ('positions' in s) read.positions = array(s.positions).map(holding);
  return read;
}

/** A reader of a parsed JSON answer: its value, or undefined to leave the answer to zod. */
export type ResourceReader<T> = (json: unknown) => T | undefined;

function wrapped<T>(read: (value: unknown) => T): ResourceReader<{ data: T }> {
  return (json) => {
    try {
      return { data: read(object(json).data) };
    } catch (e) {
      if (e === GIVE_UP) return undefined;
      throw e;
    }
  };
}

/** `{data: version}` as versionResponse reads it. */
export const readVersionResponse = wrapped(version);
/** `{data: strategy}` as strategyResponse reads it. */
export const readStrategyResponse = wrapped(strategy);
