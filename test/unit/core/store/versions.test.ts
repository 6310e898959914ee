import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import type { Order, Version, VersionPosition } from '../../../../shared/domain/resources';
import type { ORDER_FIELDS } from '../../../../shared/domain/constants';
import type { POSITION_FIELDS } from '../../../../electron/core/store/repositories/versions';
import { openStore } from '../../../../electron/core/store';
import {
  openTemp,
  orderResponse,
  seedStrategy,
  strategyResponse,
  ts,
  versionResponse,
} from '../../../support/store-fixtures';

/** Every row of the version's tables, straight from the file, for exact comparisons. */
function dump(path: string) {
  const db = new Database(path, { readonly: true });
  const rows = {
    versions: db.prepare('SELECT * FROM versions ORDER BY id').all(),
    orders: db.prepare('SELECT * FROM orders ORDER BY id').all(),
    positions: db.prepare('SELECT * FROM version_positions ORDER BY id').all(),
  };
  db.close();
  return rows;
}

describe('versions repository', () => {
  let t: ReturnType<typeof openTemp>;
  let profileId: string;
  let strategyId: string;
  beforeEach(() => {
    t = openTemp();
    ({ profileId, strategyId } = seedStrategy(t.store));
  });
  afterEach(() => t.close());

  it('stores an execute response with its orders and positions, in the service order', () => {
    const v = versionResponse(strategyId, { orders: 5, positions: 4 });
    t.store.versions.upsert(profileId, v, {
      origin: 'created',
      location: '/api/v1/x?include=orders,positions',
    });
    const { orders, positions, ...fields } = v;
    const stored = t.store.versions.get(profileId, v.id, { orders: true, positions: true })!;
    expect(stored).toMatchObject({
      ...fields,
      origin: 'created',
      location: '/api/v1/x?include=orders,positions',
    });
    expect(stored.orders).toEqual(orders);
    expect(stored.positions).toEqual(positions);
    expect(t.store.versions.get(profileId, v.id)!.orders).toBeUndefined();
  });

  it('keeps decimals byte for byte', () => {
    const decimals = [
      '0.000001',
      '12.500000',
      '98',
      '0',
      '100.10',
      '123456789012345678901234.000000001',
    ];
    const v = versionResponse(
      strategyId,
      { orders: 0, positions: 0 },
      { cash_weight: '2.000000', old_cash_weight: '100' },
    );
    v.orders = decimals.map((d, i) =>
      orderResponse(i, {
        order_quantity: d,
        order_value: d,
        filled_quantity: d,
        filled_value: d,
        filled_average_price: d,
        status: 'FILLED',
      }),
    );
    v.positions = decimals.map((d, i) => ({
      id: orderResponse(i).id,
      symbol: `S${i}`,
      old_weight: d,
      weight: d,
      action: 'CHANGE' as const,
    }));
    t.store.versions.upsert(profileId, v);

    const db = new Database(t.store.path, { readonly: true });
    const types = db
      .prepare(
        `SELECT DISTINCT typeof(order_quantity), typeof(order_value), typeof(filled_quantity),
           typeof(filled_value), typeof(filled_average_price) FROM orders`,
      )
      .raw()
      .all();
    db.close();
    expect(types).toEqual([['text', 'text', 'text', 'text', 'text']]);
    const stored = t.store.versions.get(profileId, v.id, { orders: true, positions: true })!;
    expect(stored.cash_weight).toBe('2.000000');
    expect(
      stored.orders!.map((o) => [
        o.order_quantity,
        o.order_value,
        o.filled_quantity,
        o.filled_value,
        o.filled_average_price,
      ]),
    ).toEqual(decimals.map((d) => [d, d, d, d, d]));
    expect(stored.positions!.map((p) => [p.old_weight, p.weight])).toEqual(
      decimals.map((d) => [d, d]),
    );
  });

  it('replaying the same response leaves identical rows', () => {
    const v = versionResponse(strategyId, { orders: 50, positions: 20 });
    const at = '2025-03-01T00:00:00.000Z';
    t.store.versions.upsert(profileId, v, { origin: 'created', syncedAt: at });
    const once = dump(t.store.path);
    t.store.versions.upsert(profileId, v, { origin: 'created', syncedAt: at });
    t.store.versions.upsert(profileId, structuredClone(v), { syncedAt: at });
    const thrice = dump(t.store.path);
    expect(thrice.versions).toEqual(once.versions);
    expect(thrice.orders).toEqual(once.orders);
    expect(thrice.positions).toEqual(once.positions);
    expect(thrice.orders).toHaveLength(50);
  });

  it('a poll answer that changes any one field of an order or a position stores it', () => {
    // The unchanged-answer check compares field by field (written out for speed): each field of
    // ORDER_FIELDS and POSITION_FIELDS must count, or a change in it would never reach the cache.
    const orderChanges: { [F in (typeof ORDER_FIELDS)[number]]: Order[F] } = {
      date: '2025-01-09',
      side: 'SELL',
      symbol: 'CHANGED',
      status: 'FILLED',
      status_reason: 'changed',
      order_quantity: '7.500000',
      order_value: '8.25',
      filled_quantity: '1.5',
      filled_value: '2.5',
      filled_average_price: '3.5',
      inserted_at: ts(90),
      updated_at: ts(91),
    };
    const positionChanges: { [F in (typeof POSITION_FIELDS)[number]]: VersionPosition[F] } = {
      symbol: 'CHANGED',
      old_weight: '1.250000',
      weight: '2.750000',
      action: 'REMOVE',
    };
    for (const [field, value] of Object.entries(orderChanges)) {
      const v = versionResponse(strategyId, { orders: 3, positions: 1 });
      t.store.versions.upsert(profileId, v);
      const answer = structuredClone(v);
      answer.orders![1] = { ...answer.orders![1]!, side: 'BUY', [field]: value };
      t.store.versions.upsert(profileId, answer);
      expect(t.store.versions.orders(profileId, v.id), field).toEqual(answer.orders);
    }
    for (const [field, value] of Object.entries(positionChanges)) {
      const v = versionResponse(strategyId, { orders: 1, positions: 3 });
      t.store.versions.upsert(profileId, v);
      const answer = structuredClone(v);
      answer.positions![1] = { ...answer.positions![1]!, action: 'ADD', [field]: value };
      t.store.versions.upsert(profileId, answer);
      const stored = t.store.versions.get(profileId, v.id, { positions: true })!;
      expect(stored.positions, field).toEqual(answer.positions);
    }
  });

  it('an update replaces the orders and status, keeps origin and location, and what was not sent', () => {
    const v = versionResponse(strategyId, { orders: 3, positions: 2 });
    t.store.versions.upsert(profileId, v, { origin: 'created', location: '/loc' });
    const filled: Version = {
      ...v,
      status: 'COMPLETE',
      orders: v.orders!.slice(0, 2).map((o) => ({
        ...o,
        status: 'FILLED',
        filled_quantity: o.order_quantity,
        filled_value: o.order_value,
        filled_average_price: '10.000000',
        updated_at: ts(40),
      })),
    };
    delete filled.positions;
    t.store.versions.upsert(profileId, filled, { origin: 'imported' });
    const stored = t.store.versions.get(profileId, v.id, { orders: true, positions: true })!;
    expect(stored).toMatchObject({ status: 'COMPLETE', origin: 'created', location: '/loc' });
    expect(stored.orders).toEqual(filled.orders);
    expect(stored.positions).toEqual(v.positions);
    // A poll without orders keeps the stored ones.
    const { orders: _, ...bare } = filled;
    t.store.versions.upsert(profileId, bare);
    expect(t.store.versions.orders(profileId, v.id)).toEqual(filled.orders);
  });

  it('rolls back the whole response when one order cannot be stored', () => {
    const v = versionResponse(strategyId, { orders: 3, positions: 1 });
    t.store.versions.upsert(profileId, v);
    const broken = { ...v, status: 'COMPLETE' as const, orders: [v.orders![0]!, v.orders![0]!] };
    expect(() => t.store.versions.upsert(profileId, broken)).toThrow(/UNIQUE/);
    expect(t.store.versions.get(profileId, v.id)!.status).toBe('PENDING');
    expect(t.store.versions.orders(profileId, v.id)).toEqual(v.orders);
  });

  it('lists versions, finds the current target and the ones still running, and forgets one', () => {
    const executedEarly = versionResponse(
      strategyId,
      {},
      { status: 'COMPLETE', executed_at: ts(10), inserted_at: ts(10) },
    );
    const executedLate = versionResponse(
      strategyId,
      {},
      { status: 'IN_PROGRESS', executed_at: ts(20), inserted_at: ts(20) },
    );
    const scheduled = versionResponse(
      strategyId,
      { orders: 0 },
      { status: 'SCHEDULED', executed_at: null, scheduled_for: ts(59), inserted_at: ts(30) },
    );
    for (const v of [executedEarly, executedLate, scheduled]) t.store.versions.upsert(profileId, v);

    expect(t.store.versions.listForStrategy(profileId, strategyId).map((v) => v.id)).toEqual([
      scheduled.id,
      executedLate.id,
      executedEarly.id,
    ]);
    const target = t.store.versions.latestExecuted(profileId, strategyId)!;
    expect(target.id).toBe(executedLate.id);
    expect(target.positions).toEqual(executedLate.positions);
    // Its status alone, for the batch's check at send time: the same version, no positions read.
    const bare = t.store.versions.latestExecuted(profileId, strategyId, { positions: false })!;
    expect([bare.id, bare.status, bare.positions]).toEqual([target.id, target.status, undefined]);
    expect(t.store.versions.listActive().map((v) => [v.profile_id, v.id])).toEqual([
      [profileId, executedLate.id],
    ]);

    expect(t.store.versions.remove(profileId, scheduled.id)).toBe(true);
    expect(t.store.versions.remove(profileId, scheduled.id)).toBe(false);
    expect(t.store.versions.orders(profileId, scheduled.id)).toEqual([]);
    expect(t.store.versions.listForStrategy(profileId, strategyId)).toHaveLength(2);
  });

  it('refuses a version of a strategy the app does not have', () => {
    const v = versionResponse('00000000-0000-4000-8000-000000000001');
    expect(() => t.store.versions.upsert(profileId, v)).toThrow(/FOREIGN KEY/);
  });

  describe('storing a poll answer again', () => {
    /** Opens the store file again: a repository that does not remember what it wrote. */
    function reopen() {
      t.store.close();
      t.store = openStore(t.store.path);
      const reopened = t.store;
      onTestFinished(() => reopened.close());
    }

    /** Logs every write to orders and positions, with test-only triggers on the store file. */
    function watchWrites() {
      const db = new Database(t.store.path);
      db.exec(`CREATE TABLE IF NOT EXISTS write_log (n INTEGER PRIMARY KEY, op TEXT, id TEXT)`);
      for (const table of ['orders', 'version_positions'])
        for (const [op, row] of [
          ['INSERT', 'new'],
          ['UPDATE', 'new'],
          ['DELETE', 'old'],
        ] as const)
          db.exec(`CREATE TRIGGER IF NOT EXISTS log_${table}_${op} AFTER ${op} ON ${table}
            BEGIN INSERT INTO write_log (op, id) VALUES ('${op}', ${row}.id); END`);
      const read = () => {
        const rows = db.prepare('SELECT op, id FROM write_log ORDER BY n').all();
        db.exec('DELETE FROM write_log');
        return rows as { op: string; id: string }[];
      };
      return { read, close: () => db.close() };
    }

    it('writes no order or position when the answer has not changed, even after a restart', () => {
      const v = versionResponse(strategyId, { orders: 50, positions: 20 });
      t.store.versions.upsert(profileId, v);
      const log = watchWrites();
      t.store.versions.upsert(profileId, structuredClone(v), { syncedAt: ts(40) });
      expect(log.read()).toEqual([]);
      expect(t.store.versions.get(profileId, v.id)!.synced_at).toBe(ts(40));

      // A fresh repository compares with the stored rows instead of what it wrote last.
      reopen();
      t.store.versions.upsert(profileId, structuredClone(v));
      expect(log.read()).toEqual([]);
      log.close();
      const stored = t.store.versions.get(profileId, v.id, { orders: true, positions: true })!;
      expect(stored.orders).toEqual(v.orders);
      expect(stored.positions).toEqual(v.positions);
    });

    it('updates only the changed orders, deletes the dropped ones and adds the new ones', () => {
      const v = versionResponse(strategyId, { orders: 6, positions: 3 });
      t.store.versions.upsert(profileId, v);
      const log = watchWrites();
      const [a, b, c, d, e, f] = v.orders!;
      const filled = { ...c!, status: 'FILLED' as const, filled_quantity: '2.000001' };
      const added = orderResponse(9);
      const next = { ...v, status: 'IN_PROGRESS' as const, orders: [a!, filled, d!, f!, added] };
      for (const shape of ['memo', 'stored'] as const) {
        if (shape === 'stored') {
          // Same change again, from a repository that does not remember the last answer.
          t.store.versions.upsert(profileId, v);
          log.read();
          reopen();
        }
        t.store.versions.upsert(profileId, next);
        expect(log.read()).toEqual([
          { op: 'DELETE', id: b!.id },
          { op: 'DELETE', id: e!.id },
          { op: 'UPDATE', id: filled.id },
          { op: 'INSERT', id: added.id },
        ]);
        expect(t.store.versions.orders(profileId, v.id)).toEqual(next.orders);
        expect(t.store.versions.positions(profileId, v.id)).toEqual(v.positions);
      }
      log.close();
    });

    it('rewrites the rows when the service reorders them, keeping its order', () => {
      const v = versionResponse(strategyId, { orders: 4, positions: 2 });
      t.store.versions.upsert(profileId, v);
      const reordered = { ...v, orders: [...v.orders!].reverse() };
      t.store.versions.upsert(profileId, reordered);
      expect(t.store.versions.orders(profileId, v.id)).toEqual(reordered.orders);
    });

    it('writes the rows again after the version was deleted behind its back', () => {
      const v = versionResponse(strategyId, { orders: 5, positions: 2 });
      t.store.versions.upsert(profileId, v);
      t.store.versions.remove(profileId, v.id);
      t.store.versions.upsert(profileId, v);
      expect(t.store.versions.orders(profileId, v.id)).toEqual(v.orders);
      // A cascade from the strategy is not seen by the repository: the row count tells it.
      t.store.strategies.remove(profileId, strategyId);
      seedAgain();
      t.store.versions.upsert(profileId, v);
      expect(t.store.versions.orders(profileId, v.id)).toEqual(v.orders);
      expect(t.store.versions.positions(profileId, v.id)).toEqual(v.positions);
    });

    function seedAgain() {
      const strategy = t.store.strategies.get(profileId, strategyId);
      expect(strategy).toBeNull();
      t.store.strategies.upsert(profileId, strategyResponse({ id: strategyId }));
    }
  });
});
