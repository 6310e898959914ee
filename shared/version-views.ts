import { VERSION_STATUSES, type VersionStatus } from './domain/constants';
import type { Order, Version, VersionPosition } from './domain/resources';
import type { JournalEntryView, VersionDetail, VersionSummary } from './views';

/**
 * A version and an execution's journal entry as the contract carries them: plain functions of
 * the rows the store gives, used by the handlers, the execution's announcement and the status
 * change's event alike.
 */

/** A version as the store gives it (orders and positions when they were read with it). */
export type VersionRow = Omit<Version, 'orders' | 'positions'> & {
  origin: VersionSummary['origin'];
  synced_at: string;
  orders?: Order[];
  positions?: VersionPosition[];
};

/** When the app first saw the version in a status, as the store keeps it. */
export interface StatusSeenRow {
  status: string;
  first_seen_at: string;
}

/** An execution's journal entry as the store gives it. */
export interface JournalEntryRow {
  id: string;
  strategyId: string;
  draftId: string | null;
  state: JournalEntryView['state'] | 'sent';
  versionId: string | null;
  error: string | null;
  attempts: number;
  createdAt: string;
  updatedAt: string;
}

const KNOWN_STATUSES: ReadonlySet<string> = new Set(VERSION_STATUSES);

/**
 * A version's own fields as the service gives them, in the contract's words: the one renaming of
 * the service's names for every view of a version (its summary, its content before a delete, the
 * activity log's copy).
 */
export function versionFields(
  v: Pick<
    Version,
    'status' | 'cash_weight' | 'old_cash_weight' | 'scheduled_for' | 'executed_at' | 'inserted_at'
  >,
): Pick<
  VersionSummary,
  'status' | 'cashWeight' | 'oldCashWeight' | 'scheduledFor' | 'executedAt' | 'insertedAt'
> {
  return {
    status: v.status,
    cashWeight: v.cash_weight,
    oldCashWeight: v.old_cash_weight,
    scheduledFor: v.scheduled_for,
    executedAt: v.executed_at,
    insertedAt: v.inserted_at,
  };
}

export function versionSummary(v: VersionRow): VersionSummary {
  return {
    id: v.id,
    strategyId: v.strategy_id,
    ...versionFields(v),
    origin: v.origin,
    syncedAt: v.synced_at,
  };
}

/**
 * `followed`: what following the version says of it (tracking/tracker.ts, `followed`);
 * `seen`: when each status was first seen (a status this app does not know is left out).
 */
export function versionDetail(
  v: VersionRow,
  followed: Pick<VersionDetail, 'tracking' | 'trackingProblem'>,
  seen: readonly StatusSeenRow[],
): VersionDetail {
  return {
    ...versionSummary(v),
    orders: v.orders ?? [],
    positions: v.positions ?? [],
    ...followed,
    statusSeen: seen
      .filter((s) => KNOWN_STATUSES.has(s.status))
      .map((s) => ({ status: s.status as VersionStatus, firstSeenAt: s.first_seen_at })),
  };
}

export function journalEntryView(e: JournalEntryRow): JournalEntryView {
  return {
    id: e.id,
    strategyId: e.strategyId,
    draftId: e.draftId,
    // "sent" is an in-process detail: to the manager it is still being sent.
    state: e.state === 'sent' ? 'pending' : e.state,
    versionId: e.versionId,
    error: e.error,
    attempts: e.attempts,
    createdAt: e.createdAt,
    updatedAt: e.updatedAt,
  };
}
