/**
 * The service's enumerations as plain constants. Kept apart from the zod schemas
 * (resources.ts) so the renderer can use them without bundling zod.
 */

export const VERSION_STATUSES = [
  'SCHEDULED',
  'PENDING',
  'CREATING_ORDERS',
  'IN_PROGRESS',
  'CANCELLED',
  'COMPLETE',
  'FAILED',
] as const;
export type VersionStatus = (typeof VERSION_STATUSES)[number];
/** A version in one of these states will not change again. */
export const TERMINAL_VERSION_STATUSES: ReadonlySet<VersionStatus> = new Set([
  'COMPLETE',
  'FAILED',
  'CANCELLED',
]);

export const ORDER_STATUSES = ['PENDING', 'IGNORED', 'SENT', 'FILLED', 'FAILED'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** An order's fields besides its id, in the interface's order: the store and the report share it. */
export const ORDER_FIELDS = [
  'date',
  'side',
  'symbol',
  'status',
  'status_reason',
  'order_quantity',
  'order_value',
  'filled_quantity',
  'filled_value',
  'filled_average_price',
  'inserted_at',
  'updated_at',
] as const;

export const ORDER_SIDES = ['BUY', 'SELL'] as const;
export type OrderSide = (typeof ORDER_SIDES)[number];

export const POSITION_ACTIONS = ['ADD', 'CHANGE', 'REMOVE', 'IGNORE'] as const;
export type PositionAction = (typeof POSITION_ACTIONS)[number];

export const SCOPES = [
  'strategies:read',
  'strategy_versions:create',
  'strategy_versions:read',
  'strategy_versions:execute',
  'strategy_versions:delete',
] as const;
export type Scope = (typeof SCOPES)[number];

/**
 * Decimals travel as strings end to end. A decimal string is an optional minus,
 * digits, and optionally a dot followed by digits: no exponent, no grouping,
 * no locale comma, no NaN or Infinity, no surrounding space.
 */
export const DECIMAL_PATTERN = /^-?\d+(\.\d+)?$/;
