import { z } from 'zod';
import { DECIMAL_PATTERN } from '../decimal';
import { ORDER_SIDES, ORDER_STATUSES, POSITION_ACTIONS, VERSION_STATUSES } from './constants';

/**
 * The service's resources (docs/service-interface.md, Resources), as zod schemas with
 * their inferred types. Decimals stay strings exactly as the service sent them.
 */

export const decimalString = z.string().regex(DECIMAL_PATTERN, 'must be a decimal string');
/** Any 8-4-4-4-12 hex id: the production service may use any UUID version. */
export const uuid = z.guid();
/**
 * ISO 8601 date-time, kept as sent (the sandbox sends microseconds and Z). A pattern rather
 * than a parse: it is checked on every field of every response, and a pattern is cheaper.
 */
export const ISO_TIMESTAMP =
  /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,9})?)?(Z|[+-]([01]\d|2[0-3]):?[0-5]\d)$/;
export const timestamp = z.string().regex(ISO_TIMESTAMP, 'must be an ISO 8601 timestamp');

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
  inserted_at: timestamp,
  updated_at: timestamp,
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
  scheduled_for: timestamp.nullable(),
  status: versionStatus.nullable(),
  executed_at: timestamp.nullable(),
  inserted_at: timestamp,
  orders: z.array(order).optional(),
  positions: z.array(versionPosition).optional(),
});
export type Version = z.infer<typeof version>;

/** A strategy position: what the strategy holds now (a holding). */
export const holding = z.object({
  id: uuid,
  symbol: z.string().min(1),
  quantity: decimalString,
  inserted_at: timestamp,
  updated_at: timestamp,
});
export type Holding = z.infer<typeof holding>;

export const strategy = z.object({
  id: uuid,
  name: z.string(),
  description: z.string(),
  fee_percent: decimalString,
  is_liquidate_only: z.boolean(),
  liquidate_only_reason: z.string().nullable(),
  inserted_at: timestamp,
  updated_at: timestamp,
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

export const tokenResponse = z.object({
  access_token: z.string().min(1),
  token_type: z.string(),
  expires_in: z.number().int().positive(),
  scope: z.string(),
});
export type TokenResponse = z.infer<typeof tokenResponse>;
