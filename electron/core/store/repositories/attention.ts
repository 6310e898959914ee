import { Decimal } from '../../../../shared/decimal';
import type { RepositoryContext } from './context';

/**
 * The attention queue's storage and its signals computed in SQL (migration 013, docs/attention.md):
 * the snapshot of a strategy's positions when its last rebalance ended, the calendar schedules,
 * the signals set aside. Each signal source is one query over what the app stored (snapshots,
 * holdings, versions, orders, the journal), never a read of the service; quantities and weights
 * are compared exactly (`decimal_cmp`, decimal.js), never as floats.
 */
export type AttentionRepository = ReturnType<typeof attentionRepository>;

/** One signal as a source finds it; the queue (core/attention) adds the words and the order. */
export interface SignalRecord {
  kind: string;
  strategy_id: string;
  /** What the signal is about within the strategy (a symbol, an order, a version, a schedule). */
  subject: string;
  symbol: string | null;
  before: string | null;
  now: string | null;
  version_id: string | null;
}

export interface ScheduleRecord {
  id: string;
  profile_id: string;
  strategy_id: string | null;
  tag: string | null;
  cadence: 'monthly' | 'quarterly' | 'date';
  day: number | null;
  on_date: string | null;
  cooldown_days: number;
  created_at: string;
}

export interface DismissalRecord {
  strategy_id: string;
  signal_key: string;
  evidence: string;
  action: 'acknowledged' | 'snoozed';
  until: string | null;
}

const ENDED = `('COMPLETE', 'FAILED', 'CANCELLED')`;
const RUNNING = `('PENDING', 'CREATING_ORDERS', 'IN_PROGRESS')`;
/**
 * Not zero: a decimal as the service writes it (-?digits(.digits)?, shared DECIMAL_PATTERN) is
 * zero exactly when nothing but zeros, a point and a sign is left of it; no call per line.
 */
const held = (q: string) => `trim(${q}, '0.-') <> ''`;

/** The strategies with a rebalance running now (few), from the index of those alone. */
const RUNNING_NOW = `running AS MATERIALIZED (
  SELECT DISTINCT strategy_id FROM versions INDEXED BY versions_rebalancing
  WHERE profile_id = @profileId AND executed_at IS NOT NULL AND status IN ${RUNNING})`;

/**
 * The latest executed version of each strategy of the profile (as versions.latestExecuted picks
 * it) with whether its rebalance has ended and nothing runs after it.
 */
/** The strategies whose found signals are to be worked out again (marked since, migration 018). */
const DIRTY = `dirty AS MATERIALIZED (
  SELECT strategy_id FROM attention_dirty WHERE profile_id = @profileId)`;

const LATEST = `${DIRTY}, ${RUNNING_NOW}, latest AS MATERIALIZED (
  SELECT s.id AS strategy_id, v.id AS version_id,
    v.status IN ${ENDED} AND s.id NOT IN (SELECT strategy_id FROM running) AS ended
  FROM strategies s JOIN versions v ON v.profile_id = s.profile_id AND v.id = (
    SELECT l.id FROM versions l INDEXED BY versions_by_strategy
    WHERE l.profile_id = s.profile_id AND l.strategy_id = s.id AND l.executed_at IS NOT NULL
    ORDER BY l.executed_at DESC, l.inserted_at DESC, l.id LIMIT 1)
  WHERE s.profile_id = @profileId AND s.id IN (SELECT strategy_id FROM dirty))`;

/** Strategies with a snapshot and no rebalance running now (whose fills move the holdings). */
const SNAPPED = `${DIRTY}, ${RUNNING_NOW}, snapped AS MATERIALIZED (
  SELECT sn.strategy_id, sn.version_id FROM attention_snapshots sn
  WHERE sn.profile_id = @profileId AND sn.strategy_id IN (SELECT strategy_id FROM dirty)
    AND sn.strategy_id NOT IN (SELECT strategy_id FROM running))`;

/**
 * The signal sources computed here, each one query (parameters @profileId, @now, @today). A
 * source of another area (a restricted order, say) is one more function handed to the queue
 * (core/attention/queue.ts `SignalSource`), next to these. These ones are worked out for the
 * strategies marked dirty and kept in `attention_found` (migration 013); the live ones below are
 * read each time.
 */
export const FOUND_SIGNAL_SOURCES = {
  /** Symbols held at the end and now, in other quantities (a trade outside, a split). */
  'quantity-changed': `WITH ${SNAPPED}
    SELECT 'quantity-changed' AS kind, n.strategy_id, s.symbol AS subject, s.symbol,
      s.quantity AS before, h.quantity AS now, n.version_id
    FROM snapped n
    JOIN attention_snapshot_holdings s ON s.profile_id = @profileId AND s.strategy_id = n.strategy_id
    JOIN holdings h ON h.profile_id = @profileId AND h.strategy_id = n.strategy_id
      AND h.symbol = s.symbol
    WHERE h.quantity <> s.quantity AND ${held('h.quantity')}
      AND decimal_cmp(h.quantity, s.quantity) <> 0`,
  'no-longer-held': `WITH ${SNAPPED}
    SELECT 'no-longer-held' AS kind, n.strategy_id, s.symbol AS subject, s.symbol,
      s.quantity AS before, NULL AS now, n.version_id
    FROM snapped n
    JOIN attention_snapshot_holdings s ON s.profile_id = @profileId AND s.strategy_id = n.strategy_id
    WHERE NOT EXISTS (SELECT 1 FROM holdings h WHERE h.profile_id = @profileId
      AND h.symbol = s.symbol AND h.strategy_id = n.strategy_id AND ${held('h.quantity')})`,
  'newly-held': `WITH ${SNAPPED}
    SELECT 'newly-held' AS kind, n.strategy_id, h.symbol AS subject, h.symbol,
      NULL AS before, h.quantity AS now, n.version_id
    FROM snapped n
    JOIN holdings h ON h.profile_id = @profileId AND h.strategy_id = n.strategy_id
    WHERE ${held('h.quantity')} AND NOT EXISTS (SELECT 1 FROM attention_snapshot_holdings s
      WHERE s.profile_id = @profileId AND s.strategy_id = n.strategy_id AND s.symbol = h.symbol)`,
  /** After the last rebalance ended: its target's symbols not held (before: the weight). */
  'target-not-held': `WITH ${LATEST}
    SELECT 'target-not-held' AS kind, l.strategy_id, p.symbol AS subject, p.symbol,
      p.weight AS before, NULL AS now, l.version_id
    FROM latest l JOIN version_positions p ON p.profile_id = @profileId AND p.version_id = l.version_id
    WHERE l.ended AND ${held('p.weight')} AND NOT EXISTS (SELECT 1 FROM holdings h
      WHERE h.profile_id = @profileId AND h.symbol = p.symbol AND h.strategy_id = l.strategy_id
        AND ${held('h.quantity')})`,
  'held-not-targeted': `WITH ${LATEST}
    SELECT 'held-not-targeted' AS kind, l.strategy_id, h.symbol AS subject, h.symbol,
      NULL AS before, h.quantity AS now, l.version_id
    FROM latest l JOIN holdings h ON h.profile_id = @profileId AND h.strategy_id = l.strategy_id
    WHERE l.ended AND ${held('h.quantity')} AND NOT EXISTS (SELECT 1 FROM version_positions p
      WHERE p.profile_id = @profileId AND p.version_id = l.version_id AND p.symbol = h.symbol
        AND ${held('p.weight')})`,
  /** Orders of the last rebalance that failed or filled less than ordered (before: ordered). */
  unfilled: `WITH ${LATEST}
    SELECT 'unfilled' AS kind, l.strategy_id, o.id AS subject, o.symbol,
      o.order_quantity AS before, coalesce(o.filled_quantity, '0') AS now, l.version_id
    FROM latest l JOIN orders o ON o.profile_id = @profileId AND o.version_id = l.version_id
    WHERE l.ended AND (o.status = 'FAILED' OR (o.status = 'FILLED'
      AND o.filled_quantity IS NOT NULL AND o.filled_quantity <> o.order_quantity
      AND decimal_cmp(o.filled_quantity, o.order_quantity) < 0))`,
} as const;

/** The sources read live each time: few rows, each from an index of its own. */
export const LIVE_SIGNAL_SOURCES = {
  'outcome-unknown': `SELECT 'outcome-unknown' AS kind, j.strategy_id, j.id AS subject,
      NULL AS symbol, NULL AS before, NULL AS now, j.version_id
    FROM execution_journal j WHERE j.profile_id = @profileId AND j.state = 'unknown'`,
  'failed-unacknowledged': `SELECT 'failed-unacknowledged' AS kind, v.strategy_id,
      v.id AS subject, NULL AS symbol, NULL AS before, v.status AS now, v.id AS version_id
    FROM versions v WHERE v.profile_id = @profileId AND v.executed_at IS NOT NULL
      AND (v.status = 'FAILED' OR EXISTS (SELECT 1 FROM orders o
        WHERE o.profile_id = v.profile_id AND o.version_id = v.id AND o.status = 'FAILED'))
      AND NOT EXISTS (SELECT 1 FROM version_failures_acknowledged a
        WHERE a.profile_id = v.profile_id AND a.version_id = v.id)`,
  unexecuted: `SELECT 'unexecuted' AS kind, u.strategy_id, u.version_id AS subject,
      NULL AS symbol, NULL AS before, u.scheduled_for AS now, u.version_id
    FROM (SELECT strategy_id, version_id, scheduled_for FROM unexecuted_versions
        WHERE profile_id = @profileId
      UNION SELECT strategy_id, id, scheduled_for FROM versions
        WHERE profile_id = @profileId AND executed_at IS NULL) u`,
  /**
   * Due by calendar: the schedule's last due day on or before today (monthly: this month's day
   * or last month's; quarterly: the quarter's first month's), with no execution since that day
   * and none within the cooldown. before: the due day; now: the last execution known here.
   */
  due: `WITH targets AS (
      SELECT sc.id, sc.cadence, sc.day, sc.on_date, sc.cooldown_days, s.id AS strategy_id
      FROM attention_schedules sc JOIN strategies s ON s.profile_id = sc.profile_id
        AND (s.id = sc.strategy_id OR EXISTS (SELECT 1 FROM strategy_tags t
          WHERE t.profile_id = sc.profile_id AND t.tag = sc.tag AND t.strategy_id = s.id))
      WHERE sc.profile_id = @profileId),
    moments AS (
      SELECT t.*, CASE t.cadence
        WHEN 'date' THEN CASE WHEN t.on_date <= @today THEN t.on_date END
        WHEN 'monthly' THEN CASE
          WHEN date(@today, 'start of month', '+' || (t.day - 1) || ' days') <= @today
          THEN date(@today, 'start of month', '+' || (t.day - 1) || ' days')
          ELSE date(@today, 'start of month', '-1 months', '+' || (t.day - 1) || ' days') END
        ELSE CASE
          WHEN date(@today, 'start of month',
            '-' || ((CAST(strftime('%m', @today) AS INTEGER) - 1) % 3) || ' months',
            '+' || (t.day - 1) || ' days') <= @today
          THEN date(@today, 'start of month',
            '-' || ((CAST(strftime('%m', @today) AS INTEGER) - 1) % 3) || ' months',
            '+' || (t.day - 1) || ' days')
          ELSE date(@today, 'start of month',
            '-' || ((CAST(strftime('%m', @today) AS INTEGER) - 1) % 3 + 3) || ' months',
            '+' || (t.day - 1) || ' days') END
        END AS due_on,
        (SELECT max(v.executed_at) FROM versions v WHERE v.profile_id = @profileId
          AND v.strategy_id = t.strategy_id AND v.executed_at IS NOT NULL) AS last_executed
      FROM targets t)
    SELECT 'due' AS kind, m.strategy_id, m.id AS subject, NULL AS symbol, m.due_on AS before,
      m.last_executed AS now, NULL AS version_id
    FROM moments m
    WHERE m.due_on IS NOT NULL
      AND (m.last_executed IS NULL OR (date(m.last_executed) < m.due_on
        AND julianday(@now) - julianday(m.last_executed) >= m.cooldown_days))`,
} as const;

export function attentionRepository({ db }: RepositoryContext) {
  // Exact comparison of two decimals written as text ("10" equals "10.0"): -1, 0 or 1.
  db.function('decimal_cmp', { deterministic: true }, (a: unknown, b: unknown) =>
    new Decimal(String(a)).cmp(new Decimal(String(b))),
  );
  // Prepared on first use: a store opened at an older schema (a migration test) has no tables.
  let prepared: ReturnType<typeof prepare> | null = null;
  const statements = () => (prepared ??= prepare());
  const prepare = () => ({
    live: Object.values(LIVE_SIGNAL_SOURCES).map((sql) =>
      db.prepare<{ profileId: string; now: string; today: string }, SignalRecord>(sql),
    ),
    hasDirty: db.prepare<[string], number>(
      'SELECT 1 FROM attention_dirty WHERE profile_id = ? LIMIT 1',
    ),
    dropFound: db.prepare(
      `DELETE FROM attention_found WHERE profile_id = @profileId AND strategy_id IN (
         SELECT strategy_id FROM attention_dirty WHERE profile_id = @profileId)`,
    ),
    find: Object.values(FOUND_SIGNAL_SOURCES).map((sql) =>
      db.prepare(
        `INSERT INTO attention_found (profile_id, strategy_id, kind, subject, symbol, before, now,
           version_id)
         SELECT @profileId, strategy_id, kind, subject, symbol, before, now, version_id
         FROM (${sql})`,
      ),
    ),
    clearDirty: db.prepare('DELETE FROM attention_dirty WHERE profile_id = ?'),
    found: db.prepare<[string], SignalRecord>(
      `SELECT kind, strategy_id, subject, symbol, before, now, version_id FROM attention_found
       WHERE profile_id = ?`,
    ),
    mark: db.prepare('INSERT OR IGNORE INTO attention_dirty VALUES (?, ?)'),
    dropSnapshot: db.prepare(
      'DELETE FROM attention_snapshots WHERE profile_id = ? AND strategy_id = ?',
    ),
    // The holdings as the one strategy read stored them, copied in the same transaction.
    insertSnapshot: db.prepare(
      `INSERT INTO attention_snapshots (profile_id, strategy_id, version_id, ended_status, read_at,
         taken_at)
       SELECT profile_id, id, @versionId, @status, synced_at, @at FROM strategies
       WHERE profile_id = @profileId AND id = @strategyId`,
    ),
    insertSnapshotHoldings: db.prepare(
      `INSERT INTO attention_snapshot_holdings (profile_id, strategy_id, symbol, quantity)
       SELECT profile_id, strategy_id, symbol, quantity FROM holdings
       WHERE profile_id = @profileId AND strategy_id = @strategyId AND ${held('quantity')}`,
    ),
    snapshotOf: db.prepare<
      [string, string],
      { version_id: string; ended_status: string; read_at: string; taken_at: string }
    >(
      `SELECT version_id, ended_status, read_at, taken_at FROM attention_snapshots
       WHERE profile_id = ? AND strategy_id = ?`,
    ),
    snapshotHoldings: db.prepare<[string, string], { symbol: string; quantity: string }>(
      `SELECT symbol, quantity FROM attention_snapshot_holdings
       WHERE profile_id = ? AND strategy_id = ? ORDER BY symbol`,
    ),
    countSnapshots: db
      .prepare<[string], number>('SELECT count(*) FROM attention_snapshots WHERE profile_id = ?')
      .pluck(),
    countStrategies: db
      .prepare<[string], number>('SELECT count(*) FROM strategies WHERE profile_id = ?')
      .pluck(),
    names: db.prepare<[string], { id: string; name: string }>(
      'SELECT id, name FROM strategies WHERE profile_id = ?',
    ),
    dismissals: db.prepare<[string], DismissalRecord>(
      `SELECT strategy_id, signal_key, evidence, action, until FROM attention_dismissals
       WHERE profile_id = ?`,
    ),
    dismiss: db.prepare(
      `INSERT INTO attention_dismissals (profile_id, strategy_id, signal_key, evidence, action,
         until, reason, at) VALUES (@profileId, @strategyId, @key, @evidence, @action, @until,
         @reason, @at)
       ON CONFLICT (profile_id, strategy_id, signal_key) DO UPDATE SET evidence = excluded.evidence,
         action = excluded.action, until = excluded.until, reason = excluded.reason,
         at = excluded.at`,
    ),
    schedules: db.prepare<[string], ScheduleRecord>(
      `SELECT * FROM attention_schedules WHERE profile_id = ?
       ORDER BY strategy_id IS NULL, strategy_id, tag, created_at, id`,
    ),
    insertSchedule: db.prepare(
      `INSERT INTO attention_schedules (id, profile_id, strategy_id, tag, cadence, day, on_date,
         cooldown_days, created_at)
       VALUES (@id, @profile_id, @strategy_id, @tag, @cadence, @day, @on_date, @cooldown_days,
         @created_at)`,
    ),
    removeSchedule: db.prepare('DELETE FROM attention_schedules WHERE profile_id = ? AND id = ?'),
  });

  return {
    /**
     * Stores the strategy's holdings as they are stored now (the read when its rebalance ended)
     * as its snapshot, replacing the one before. False when the app does not hold the strategy.
     */
    takeSnapshot: db.transaction(
      (ref: {
        profileId: string;
        strategyId: string;
        versionId: string;
        status: string;
        at: string;
      }): boolean => {
        const s = statements();
        s.dropSnapshot.run(ref.profileId, ref.strategyId);
        s.mark.run(ref.profileId, ref.strategyId);
        if (s.insertSnapshot.run(ref).changes === 0) return false;
        s.insertSnapshotHoldings.run(ref);
        return true;
      },
    ),
    /** No comparison is possible until the next rebalance ends (its read failed). */
    dropSnapshot(profileId: string, strategyId: string): void {
      statements().dropSnapshot.run(profileId, strategyId);
      statements().mark.run(profileId, strategyId);
    },
    snapshotOf(profileId: string, strategyId: string) {
      const s = statements();
      const snapshot = s.snapshotOf.get(profileId, strategyId);
      return snapshot && { ...snapshot, holdings: s.snapshotHoldings.all(profileId, strategyId) };
    },
    /** Every SQL source's signals for the profile, read in one transaction (one moment). */
    signals(profileId: string, now: string): SignalRecord[] {
      const s = statements();
      const params = { profileId, now, today: now.slice(0, 10) };
      if (s.hasDirty.get(profileId) !== undefined)
        db.transaction(() => {
          s.dropFound.run(params);
          for (const find of s.find) find.run(params);
          s.clearDirty.run(profileId);
        }).immediate();
      return db.transaction(() => [
        ...s.found.all(profileId),
        ...s.live.flatMap((query) => query.all(params)),
      ])();
    },
    counts(profileId: string) {
      const s = statements();
      return {
        snapshots: s.countSnapshots.get(profileId) ?? 0,
        strategies: s.countStrategies.get(profileId) ?? 0,
      };
    },
    strategyNames(profileId: string): Map<string, string> {
      return new Map(
        statements()
          .names.all(profileId)
          .map((r) => [r.id, r.name]),
      );
    },
    dismissals(profileId: string): DismissalRecord[] {
      return statements().dismissals.all(profileId);
    },
    /** Sets a signal aside (in the caller's transaction: the activity entry goes with it). */
    dismiss(record: {
      profileId: string;
      strategyId: string;
      key: string;
      evidence: string;
      action: 'acknowledged' | 'snoozed';
      until: string | null;
      reason: string;
      at: string;
    }): void {
      statements().dismiss.run(record);
    },
    schedules(profileId: string): ScheduleRecord[] {
      return statements().schedules.all(profileId);
    },
    addSchedule(record: ScheduleRecord): void {
      statements().insertSchedule.run(record);
    },
    removeSchedule(profileId: string, scheduleId: string): boolean {
      return statements().removeSchedule.run(profileId, scheduleId).changes > 0;
    },
  };
}
