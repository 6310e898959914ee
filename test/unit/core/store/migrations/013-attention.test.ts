import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, openStore } from '../../../../../electron/core/store';
import { seedStrategy, strategyResponse, tempFolder, ts } from '../../../../support/store-fixtures';

describe('migration 013-attention', () => {
  let folder: ReturnType<typeof tempFolder>;
  beforeEach(() => {
    folder = tempFolder();
  });
  afterEach(() => folder.cleanup());

  it('takes a file at schema 12 to 13: snapshots compared exactly, schedules and dismissals checked, gone with their strategy', () => {
    expect(MIGRATIONS.find((m) => m.version === 13)?.name).toBe('attention');
    const path = folder.file();
    const old = openStore(path, { targetVersion: 12 });
    const { profileId, strategyId, strategy } = seedStrategy(old);
    old.close();

    const store = openStore(path);
    expect(store.schemaVersion).toBeGreaterThanOrEqual(13);
    // A strategy held before the migration has no snapshot: nothing to compare with.
    expect(store.attention.snapshotOf(profileId, strategyId)).toBeUndefined();
    const versionId = randomUUID();
    const ref = { profileId, strategyId, versionId, status: 'COMPLETE', at: ts(9) };
    expect(store.attention.takeSnapshot(ref)).toBe(true);
    expect(store.attention.snapshotOf(profileId, strategyId)).toMatchObject({
      version_id: versionId,
      holdings: [
        { symbol: 'AAPL', quantity: '12.500000' },
        { symbol: 'BRK.B', quantity: '0.000001' },
      ],
    });
    const changed = () =>
      store.attention
        .signals(profileId, ts(10))
        .filter((s) => s.kind === 'quantity-changed')
        .map((s) => [s.symbol, s.before, s.now]);
    // The same quantity written otherwise is no change (exact decimals, not text, not floats).
    const withAapl = (quantity: string) =>
      strategyResponse({
        ...strategy,
        updated_at: ts(20),
        positions: strategy.positions!.map((p) => (p.symbol === 'AAPL' ? { ...p, quantity } : p)),
      });
    store.strategies.upsert(profileId, withAapl('12.5'));
    expect(changed()).toEqual([]);
    store.strategies.upsert(profileId, withAapl('12.5000000000000000001'));
    expect(changed()).toEqual([['AAPL', '12.500000', '12.5000000000000000001']]);
    store.close();

    const db = new Database(path);
    db.pragma('foreign_keys = ON');
    const schedule = db.prepare(
      `INSERT INTO attention_schedules (id, profile_id, strategy_id, tag, cadence, day, on_date,
         cooldown_days, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const id = () => randomUUID();
    // One strategy or one tag; a day 1 to 28 for a cadence, a date for a date.
    expect(() =>
      schedule.run(id(), profileId, strategyId, 'Income', 'monthly', 1, null, 0, ts(1)),
    ).toThrow(/CHECK/);
    expect(() =>
      schedule.run(id(), profileId, strategyId, null, 'monthly', 31, null, 0, ts(1)),
    ).toThrow(/CHECK/);
    expect(() =>
      schedule.run(id(), profileId, null, 'Income', 'date', null, '1 March', 0, ts(1)),
    ).toThrow(/CHECK/);
    schedule.run(id(), profileId, strategyId, null, 'quarterly', 15, null, 7, ts(1));
    schedule.run(id(), profileId, null, 'Income', 'date', null, '2026-03-01', 0, ts(1));
    const dismissal = db.prepare(
      `INSERT INTO attention_dismissals (profile_id, strategy_id, signal_key, evidence, action,
         until, reason, at) VALUES (?, ?, ?, '[]', ?, ?, ?, ?)`,
    );
    // A reason always; a snooze has an end, an acknowledgement none.
    expect(() =>
      dismissal.run(profileId, strategyId, 'k1', 'acknowledged', null, '', ts(1)),
    ).toThrow(/CHECK/);
    expect(() =>
      dismissal.run(profileId, strategyId, 'k1', 'snoozed', null, 'later', ts(1)),
    ).toThrow(/CHECK/);
    dismissal.run(profileId, strategyId, 'k1', 'snoozed', ts(30), 'later', ts(1));
    // Removing the strategy removes its snapshot, schedules and dismissals (not the tag's).
    db.prepare('DELETE FROM strategies WHERE profile_id = ? AND id = ?').run(profileId, strategyId);
    const count = (table: string) =>
      (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    expect(count('attention_snapshots')).toBe(0);
    expect(count('attention_snapshot_holdings')).toBe(0);
    expect(count('attention_dismissals')).toBe(0);
    expect(count('attention_schedules')).toBe(1);
    db.close();
  });
});
