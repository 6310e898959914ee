import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, openStore } from '../../../../../electron/core/store';
import { seedStrategy, strategyResponse, tempFolder, ts } from '../../../../support/store-fixtures';

describe('migration 018-attention-marks', () => {
  let folder: ReturnType<typeof tempFolder>;
  beforeEach(() => {
    folder = tempFolder();
  });
  afterEach(() => folder.cleanup());

  it('takes a file at schema 17 to 18: the queue works out only what was written since, while the book still has its marks', () => {
    expect(MIGRATIONS.find((m) => m.version === 18)?.name).toBe('attention-marks');
    const path = folder.file();
    const old = openStore(path, { targetVersion: 17 });
    const { profileId, strategyId, strategy } = seedStrategy(old);
    // Nine more the book marks and never works out (the book not opened).
    const others = Array.from({ length: 9 }, () => strategyResponse());
    for (const other of others) old.strategies.upsert(profileId, other);
    old.close();

    const store = openStore(path);
    expect(store.schemaVersion).toBeGreaterThanOrEqual(18);
    const withAapl = (s: typeof strategy, quantity: string, second: number) =>
      strategyResponse({
        ...s,
        updated_at: ts(second),
        positions: s.positions!.map((p) => (p.symbol === 'AAPL' ? { ...p, quantity } : p)),
      });
    // Each has a signal worked out and kept: AAPL changed since its rebalance ended.
    for (const s of [strategy, ...others]) {
      const ref = { profileId, strategyId: s.id, versionId: randomUUID(), status: 'COMPLETE' };
      expect(store.attention.takeSnapshot({ ...ref, at: ts(9) })).toBe(true);
      store.strategies.upsert(profileId, withAapl(s, '13', 20));
    }

    // Each working out of a strategy's signals, counted where it happens: its kept signals dropped.
    const raw = new Database(path);
    raw.exec(`
      CREATE TABLE test_worked_out (strategy_id TEXT NOT NULL);
      CREATE TRIGGER test_found_dropped BEFORE DELETE ON attention_found BEGIN
        INSERT INTO test_worked_out VALUES (OLD.strategy_id);
      END;`);
    const workedOut = () =>
      (raw.prepare('SELECT count(*) AS n FROM test_worked_out').get() as { n: number }).n;
    const bookMarks = () =>
      (raw.prepare('SELECT count(*) AS n FROM book_dirty').get() as { n: number }).n;
    const changed = (of: string) =>
      store.attention
        .signals(profileId, ts(30))
        .filter((s) => s.kind === 'quantity-changed' && s.strategy_id === of)
        .map((s) => [s.symbol, s.before, s.now]);

    expect(changed(strategyId)).toEqual([['AAPL', '12.500000', '13']]);
    // Read again with nothing written: nothing worked out again, though the book keeps its marks.
    const afterFirst = workedOut();
    expect(changed(strategyId)).toEqual([['AAPL', '12.500000', '13']]);
    expect(changed(strategyId)).toEqual([['AAPL', '12.500000', '13']]);
    expect(workedOut()).toBe(afterFirst);
    expect(bookMarks()).toBe(10);

    // A holding changed while the book's mark of the strategy is still there: the queue hears it,
    // and works out that strategy alone.
    // The strategy's own fields unchanged (a trade outside the app moves only its holdings).
    store.strategies.upsert(profileId, withAapl(strategy, '14', 20));
    expect(changed(strategyId)).toEqual([['AAPL', '12.500000', '14']]);
    expect(workedOut()).toBe(afterFirst + 1);
    raw.close();
    store.close();
  });
});
