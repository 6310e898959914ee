import { z } from 'zod';
import {
  DECIMAL_PATTERN,
  ORDER_SIDES,
  ORDER_STATUSES,
  POSITION_ACTIONS,
  VERSION_STATUSES,
} from './constants';

/**
 * The service's resources (docs/service-interface.md, Resources), as zod schemas with
 * their inferred types. Decimals stay strings exactly as the service sent them.
 */

export const decimalString = z.string().regex(DECIMAL_PATTERN, 'must be a decimal string');
/** Any 8-4-4-4-12 hex id: the production service may use any UUID version. */
export const uuid = z.guid();
/** ISO 8601 date-time with a zone: Z or an offset (+02:00, +0200, -05:00). */
export const ISO_TIMESTAMP =
  /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d)(?:\.(\d{1,9}))?)?(Z|([+-])([01]\d|2[0-3]):?([0-5]\d))$/;
/** The one form the app stores and compares: UTC, microseconds, Z. Text order is time order. */
const UTC_TIMESTAMP =
  /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{6}Z$/;

/**
 * An ISO 8601 timestamp with any offset as the same instant in UTC, `YYYY-MM-DDTHH:MM:SS.ffffffZ`
 * (microseconds kept; digits past the sixth dropped). Undefined for anything else, a day that
 * does not exist (02-30) or an instant outside years 0000-9999.
 */
export function toUtcTimestamp(text: string): string | undefined {
  // The form the service sends and the app keeps: every timestamp of every poll comes this way,
  // so it is checked without a Date.
  if (UTC_TIMESTAMP.test(text)) return dayExists(text) ? text : undefined;
  // RFC 3339 (5.6) allows a lower-case t and z.
  const m = ISO_TIMESTAMP.exec(text.replace(/^(\d{4}-\d\d-\d\d)t/, '$1T').replace(/z$/, 'Z'));
  if (!m) return undefined;
  const [, y, mo, d, h, mi, sec = '00', fraction = '', zone, sign, oh, om] = m;
  const date = new Date(0);
  date.setUTCFullYear(Number(y), Number(mo) - 1, Number(d));
  if (date.getUTCDate() !== Number(d)) return undefined;
  const offset = zone === 'Z' ? 0 : (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om));
  date.setUTCHours(Number(h), Number(mi) - offset, Number(sec));
  const year = date.getUTCFullYear();
  if (year < 0 || year > 9999) return undefined;
  return `${date.toISOString().slice(0, 19)}.${fraction.padEnd(6, '0').slice(0, 6)}Z`;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The day of a UTC-form timestamp exists in its month (the proleptic Gregorian calendar). */
function dayExists(utc: string): boolean {
  const day = Number(utc.slice(8, 10));
  if (day <= 28) return true;
  const month = Number(utc.slice(5, 7));
  if (month !== 2) return day <= DAYS_IN_MONTH[month - 1]!;
  const year = Number(utc.slice(0, 4));
  return day === 29 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

/** Any ISO 8601 timestamp with a zone, as given (the app's own views and requests). */
export const timestamp = z.string().regex(ISO_TIMESTAMP, 'must be an ISO 8601 timestamp');

/**
 * A timestamp from the service, normalized on the way in: whatever offset it was sent with, the
 * app keeps the UTC form, so timestamps compare as instants wherever they are compared as text.
 */
export const serviceTimestamp = z.string().transform((text, ctx) => {
  const utc = toUtcTimestamp(text);
  if (utc !== undefined) return utc;
  ctx.addIssue({ code: 'custom', message: 'must be an ISO 8601 timestamp', input: text });
  return z.NEVER;
});

export {
  ORDER_SIDES,
  ORDER_STATUSES,
  POSITION_ACTIONS,
  SCOPES,
  TERMINAL_VERSION_STATUSES,
  VERSION_STATUSES,
} from './constants';
export type { OrderSide, OrderStatus, PositionAction, Scope, VersionStatus } from './constants';

export const versionStatus = z.enum(VERSION_STATUSES);
export const orderStatus = z.enum(ORDER_STATUSES);
export const orderSide = z.enum(ORDER_SIDES);
export const positionAction = z.enum(POSITION_ACTIONS);

export const order = z.object({
  id: uuid,
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD'),
  side: orderSide,
  symbol: z.string().min(1),
  status: orderStatus,
  status_reason: z.string().nullable(),
  order_quantity: decimalString,
  order_value: decimalString,
  filled_quantity: decimalString.nullable(),
  filled_value: decimalString.nullable(),
  filled_average_price: decimalString.nullable(),
  inserted_at: serviceTimestamp,
  updated_at: serviceTimestamp,
});
export type Order = z.infer<typeof order>;

export const versionPosition = z.object({
  id: uuid,
  symbol: z.string().min(1),
  old_weight: decimalString,
  weight: decimalString,
  action: positionAction,
});
export type VersionPosition = z.infer<typeof versionPosition>;

export const version = z.object({
  id: uuid,
  strategy_id: uuid,
  cash_weight: decimalString,
  old_cash_weight: decimalString,
  scheduled_for: serviceTimestamp.nullable(),
  status: versionStatus.nullable(),
  executed_at: serviceTimestamp.nullable(),
  inserted_at: serviceTimestamp,
  orders: z.array(order).optional(),
  positions: z.array(versionPosition).optional(),
});
export type Version = z.infer<typeof version>;

/** A strategy position: what the strategy holds now (a holding). */
export const holding = z.object({
  id: uuid,
  symbol: z.string().min(1),
  quantity: decimalString,
  inserted_at: serviceTimestamp,
  updated_at: serviceTimestamp,
});
export type Holding = z.infer<typeof holding>;

export const strategy = z.object({
  id: uuid,
  name: z.string(),
  description: z.string(),
  fee_percent: decimalString,
  is_liquidate_only: z.boolean(),
  liquidate_only_reason: z.string().nullable(),
  inserted_at: serviceTimestamp,
  updated_at: serviceTimestamp,
  positions: z.array(holding).optional(),
});
export type Strategy = z.infer<typeof strategy>;

/** Execute request body (docs/service-interface.md, Endpoints). */
export const executeRequest = z.object({
  data: z.object({
    positions: z.array(z.object({ symbol: z.string(), weight: z.string() })),
  }),
});
export type ExecuteRequest = z.infer<typeof executeRequest>;

/**
 * The token answer as OAuth 2 allows it (RFC 6749 5.1): `expires_in` and `scope` are optional
 * (null or absent: not said), `expires_in` may come as a numeric string, other fields are ignored.
 */
export const tokenResponse = z.object({
  access_token: z.string().min(1),
  token_type: z.string(),
  expires_in: z
    .union([
      z.number(),
      z
        .string()
        .regex(/^\s*\d+(\.\d+)?\s*$/)
        .transform(Number),
    ])
    .nullish(),
  scope: z.union([z.string(), z.array(z.string())]).nullish(),
});
export type TokenResponse = z.infer<typeof tokenResponse>;
