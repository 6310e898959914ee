import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { createDesk } from '../../electron/core/desk';
import type { SecretStore } from '../../electron/core/secrets';
import { seedActivity } from '../support/activity-seed';

/**
 * A data folder as a busy manager's would be after months: `strategies` strategies with holdings,
 * each with one executed COMPLETE version of `ordersPerVersion` orders (the cache of orders),
 * `activity` activity log entries, and the book worked out once (as the previous session left
 * it). Written straight into SQLite for speed, in the app's own schema.
 */
export interface LargeFolder {
  profileId: string;
  strategyIds: string[];
}

const SYMBOLS = ['AAPL', 'MSFT', 'NVDA', 'AMZN', 'JPM', 'SPY', 'TSLA', 'KO', 'PG', 'XOM'];

/** Ids that grow in order (a random one per order would make a million inserts crawl). */
const orderedId = (a: number, b: number) =>
  `${a.toString(16).padStart(8, '0')}-0000-4000-8000-${b.toString(16).padStart(12, '0')}`;

export async function seedLargeFolder(
  dataDir: string,
  secretStore: SecretStore,
  size: { strategies: number; ordersPerVersion: number; activity: number },
): Promise<LargeFolder> {
  const desk = await createDesk({ dataDir, secretStore });
  const profile = desk.store.profiles.create({
    name: 'Large book',
    // Nothing listens there: the first screen reads only the app's own data.
    baseUrl: 'http://127.0.0.1:9',
    clientId: 'bench-manager',
    environment: 'production',
  });
  await secretStore.set(profile.id, 'bench-secret');
  const profileId = profile.id;
  const strategyIds: string[] = [];
  const at = (seconds: number) =>
    new Date(Date.UTC(2026, 0, 5, 9, 0, seconds)).toISOString().replace('Z', '000Z');
  await desk.close();

  const db = new Database(join(dataDir, 'strategy-desk.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -262144');
  const strategy = db.prepare(
    `INSERT INTO strategies (profile_id, id, name, description, fee_percent, is_liquidate_only,
       liquidate_only_reason, inserted_at, updated_at, added_at, synced_at)
     VALUES (?, ?, ?, '', '0.25', ?, NULL, ?, ?, ?, ?)`,
  );
  const holding = db.prepare(
    `INSERT INTO holdings (profile_id, strategy_id, id, symbol, quantity, inserted_at, updated_at,
       synced_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const version = db.prepare(
    `INSERT INTO versions (profile_id, strategy_id, id, cash_weight, old_cash_weight, scheduled_for,
       status, executed_at, inserted_at, synced_at, origin, location)
     VALUES (?, ?, ?, '20', '100', NULL, 'COMPLETE', ?, ?, ?, 'created', NULL)`,
  );
  const position = db.prepare(
    `INSERT INTO version_positions (profile_id, version_id, id, symbol, old_weight, weight, action)
     VALUES (?, ?, ?, ?, '0', '10', 'ADD')`,
  );
  const order = db.prepare(
    `INSERT INTO orders (profile_id, version_id, id, date, side, symbol, status, status_reason,
       order_quantity, order_value, filled_quantity, filled_value, filled_average_price,
       inserted_at, updated_at)
     VALUES (?, ?, ?, '2026-01-05', ?, ?, 'FILLED', NULL, ?, ?, ?, ?, '100.00', ?, ?)`,
  );
  const synced = new Date().toISOString();
  db.transaction(() => {
    for (let s = 0; s < size.strategies; s++) {
      const id = randomUUID();
      strategyIds.push(id);
      const executed = at(10 + s);
      strategy.run(
        profileId,
        id,
        `Strategy ${String(s).padStart(4, '0')}`,
        s % 17 === 0 ? 1 : 0,
        at(0),
        at(20 + s),
        at(0),
        synced,
      );
      const versionId = randomUUID();
      version.run(profileId, id, versionId, executed, executed, synced);
      for (let k = 0; k < 8; k++) {
        const symbol = SYMBOLS[(s + k) % SYMBOLS.length]!;
        holding.run(
          profileId,
          id,
          randomUUID(),
          symbol,
          `${10 + k}.${String(s).padStart(6, '0')}`,
          executed,
          executed,
          synced,
        );
        position.run(profileId, versionId, randomUUID(), symbol);
      }
      for (let o = 0; o < size.ordersPerVersion; o++) {
        const q = `${1 + (o % 50)}.${String(o).padStart(6, '0')}`;
        order.run(
          profileId,
          versionId,
          orderedId(s, o),
          o % 3 ? 'BUY' : 'SELL',
          SYMBOLS[o % SYMBOLS.length]!,
          q,
          `${100 + o}.00`,
          q,
          `${100 + o}.00`,
          executed,
          executed,
        );
      }
    }
  })();
  db.close();

  // The activity log, and the book worked out once, through the app.
  const again = await createDesk({ dataDir, secretStore });
  seedActivity(again.store, {
    profileId,
    profileName: 'Large book',
    count: size.activity,
    strategyIds: strategyIds.slice(0, 50),
  });
  await again.book.summary({ profileId });
  await again.close();
  return { profileId, strategyIds };
}
