import type { Decimal } from '../../../shared/decimal';
import { DecimalSum, formatDecimal, toDecimal } from '../../../shared/decimal';
import type {
  Order,
  OrderSide,
  OrderStatus,
  VersionStatus,
} from '../../../shared/domain/resources';
import type { VersionDetail, VersionSummary } from '../../../shared/views';

/**
 * The Versions screens' arithmetic and rules, apart from the components so they can be tested
 * alone. Every sum is decimal.js on the strings as received: never a float.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type IdParse = { ok: true; id: string } | { ok: false; error: string };

/** A version id typed or pasted by the manager; spaces and braces around it are forgiven. */
export function parseVersionId(input: string): IdParse {
  const id = input.trim().replace(/^\{(.*)\}$/, '$1');
  if (id === '') return { ok: false, error: 'Enter the id of the version.' };
  if (!UUID.test(id))
    return {
      ok: false,
      error:
        'A version id looks like a1c3e5f7-9b2d-4f6a-8c0e-3d5b7f9a1c03 (32 hex digits in five groups).',
    };
  return { ok: true, id: id.toLowerCase() };
}

export const shortId = (id: string) => id.slice(0, 8);

/**
 * A version's status as its badge reads: the service sends none until a rebalance starts, which
 * for a version never executed is "NOT EXECUTED" (not an unknown state).
 */
export function versionStatusLabel(version: Pick<VersionSummary, 'status' | 'executedAt'>): string {
  if (version.status !== null) return version.status;
  return version.executedAt === null ? 'NOT EXECUTED' : 'NOT STARTED';
}

/** Why this version cannot be deleted now, or null when it can. */
export function deleteBlockedReason(
  version: VersionSummary,
  context: { online: boolean; missingScope: boolean },
): string | null {
  if (version.executedAt !== null)
    return 'An executed version cannot be deleted: the service keeps it as history.';
  if (!context.online) return 'Offline: deleting needs a connection to the service.';
  if (context.missingScope) return 'This client lacks the scope strategy_versions:delete.';
  return null;
}

// ---- The step line -------------------------------------------------------------------------

export const RUNNING_STEPS = ['PENDING', 'CREATING_ORDERS', 'IN_PROGRESS'] as const;
const ENDINGS: readonly VersionStatus[] = ['COMPLETE', 'FAILED', 'CANCELLED'];

export type StepState = 'done' | 'current' | 'todo' | 'complete' | 'failed' | 'cancelled';
export type StepTimeSource = 'seen' | 'executed' | 'synced';

export interface Step {
  /** The status this step stands for; the last step is the outcome (null until it is known). */
  status: VersionStatus | null;
  label: string;
  state: StepState;
  time: string | null;
  timeSource: StepTimeSource | null;
}

/**
 * The steps of a rebalance with the time each was first seen (stored by the app, or live on
 * this screen), else the known timestamps: executed_at for PENDING, the last sync for the
 * present step. A version that ended CANCELLED or FAILED shows only the steps it was seen in.
 */
export function stepLine(
  version: Pick<VersionSummary, 'status' | 'executedAt' | 'syncedAt'>,
  seen: Partial<Record<VersionStatus, string>>,
): Step[] | null {
  const status = version.status;
  if (status === null || status === 'SCHEDULED' || version.executedAt === null) return null;
  const ended = ENDINGS.includes(status);
  const at = ended ? RUNNING_STEPS.length : RUNNING_STEPS.indexOf(status as never);
  const timeOf = (s: VersionStatus, isPresent: boolean) => {
    if (seen[s]) return { time: seen[s]!, timeSource: 'seen' as const };
    if (s === 'PENDING') return { time: version.executedAt, timeSource: 'executed' as const };
    if (isPresent) return { time: version.syncedAt, timeSource: 'synced' as const };
    return { time: null, timeSource: null };
  };
  const steps: Step[] = RUNNING_STEPS.map((s, i) => ({
    status: s,
    label: s,
    state: i < at ? ('done' as const) : i === at ? ('current' as const) : ('todo' as const),
    ...timeOf(s, i === at),
  })).filter(
    // A rebalance cancelled or failed early skipped steps: only those seen are shown as passed.
    (step) =>
      !(status === 'CANCELLED' || status === 'FAILED') ||
      step.status === 'PENDING' ||
      seen[step.status] !== undefined,
  );
  steps.push(
    ended
      ? {
          status,
          label: status,
          state: status === 'COMPLETE' ? 'complete' : status === 'FAILED' ? 'failed' : 'cancelled',
          ...timeOf(status, true),
        }
      : {
          status: null,
          label: 'COMPLETE, FAILED or CANCELLED',
          state: 'todo',
          time: null,
          timeSource: null,
        },
  );
  return steps;
}

/** When each status was first seen: stored sightings first, then those seen live here. */
export function seenTimes(
  stored: readonly { status: VersionStatus; firstSeenAt: string }[],
  live: Partial<Record<VersionStatus, string>>,
): Partial<Record<VersionStatus, string>> {
  const out: Partial<Record<VersionStatus, string>> = { ...live };
  for (const s of stored) out[s.status] = s.firstSeenAt;
  return out;
}

// ---- Orders --------------------------------------------------------------------------------

export type SideFilter = OrderSide | 'ALL';
export type StatusFilter = OrderStatus | 'ALL';

export function filterOrders(
  orders: readonly Order[],
  side: SideFilter,
  status: StatusFilter,
): readonly Order[] {
  if (side === 'ALL' && status === 'ALL') return orders;
  return orders.filter(
    (o) => (side === 'ALL' || o.side === side) && (status === 'ALL' || o.status === status),
  );
}

export function countByStatus(orders: readonly Order[]): Record<OrderStatus, number> {
  const counts: Record<OrderStatus, number> = {
    PENDING: 0,
    IGNORED: 0,
    SENT: 0,
    FILLED: 0,
    FAILED: 0,
  };
  for (const o of orders) counts[o.status]++;
  return counts;
}

export interface SideTotals {
  count: number;
  orderValue: string;
  filledValue: string;
}
export type OrderTotals = Record<OrderSide, SideTotals>;

type Sums = { count: number; filled: number; orderValue: DecimalSum; filledValue: DecimalSum };
const newSums = (): Sums => ({
  count: 0,
  filled: 0,
  orderValue: new DecimalSum(),
  filledValue: new DecimalSum(),
});

/** Running sums, fed in slices so 10,000 orders never block a frame. */
export class TotalsAccumulator {
  private sums = { BUY: newSums(), SELL: newSums() };
  done = 0;

  add(orders: readonly Order[], from: number, to: number): void {
    for (let i = from; i < to && i < orders.length; i++) {
      const o = orders[i]!;
      const side = this.sums[o.side];
      side.count++;
      side.orderValue.add(o.order_value);
      if (o.filled_value !== null) {
        side.filled++;
        side.filledValue.add(o.filled_value);
      }
    }
    this.done = Math.max(this.done, Math.min(to, orders.length));
  }

  result(): OrderTotals {
    // As many places as the most precise addend (15000.00 + 0.50 = 15000.50): exact, never rounded.
    const out = (s: Sums): SideTotals => ({
      count: s.count,
      orderValue: s.orderValue.toFixed(),
      // Nothing filled yet: 0 in the places of the order values ("0.00"), as a column reads.
      filledValue: s.filledValue.toFixed(s.filled > 0 ? 0 : s.orderValue.places),
    });
    return { BUY: out(this.sums.BUY), SELL: out(this.sums.SELL) };
  }
}

export function orderTotals(orders: readonly Order[]): OrderTotals {
  const acc = new TotalsAccumulator();
  acc.add(orders, 0, orders.length);
  return acc.result();
}

/** Failed and ignored orders with their reasons, for the summary above the table. */
export function troubledOrders(orders: readonly Order[]): Order[] {
  return orders.filter((o) => o.status === 'FAILED' || o.status === 'IGNORED');
}

// ---- Compare -------------------------------------------------------------------------------

export interface CompareRow {
  symbol: string;
  /** Weight in the earlier version; null when it has no position in that symbol. */
  before: string | null;
  after: string | null;
  /** after − before, absent weights counting as 0. */
  change: string;
}

/** Two versions' target weights side by side, symbols in the order they first appear. */
export function compareVersions(
  before: Pick<VersionDetail, 'positions' | 'cashWeight'>,
  after: Pick<VersionDetail, 'positions' | 'cashWeight'>,
): { rows: CompareRow[]; cash: CompareRow } {
  const a = new Map(before.positions.map((p) => [p.symbol, p.weight]));
  const b = new Map(after.positions.map((p) => [p.symbol, p.weight]));
  const symbols = [...new Set([...a.keys(), ...b.keys()])];
  const row = (symbol: string, x: string | null, y: string | null): CompareRow => ({
    symbol,
    before: x,
    after: y,
    change: signed(toDecimal(y ?? '0').minus(toDecimal(x ?? '0'))),
  });
  return {
    rows: symbols.map((s) => row(s, a.get(s) ?? null, b.get(s) ?? null)),
    cash: row('Cash', before.cashWeight, after.cashWeight),
  };
}

/** A change with its sign: "+2.5", "-1", "0". */
export function signed(d: Decimal): string {
  const text = formatDecimal(d);
  return d.isPositive() && !d.isZero() ? `+${text}` : text;
}
