/**
 * ingest_ratio: throughput of storing a 10,000-order version (with 1,000 positions) through the
 * versions repository's upsert, divided by plain better-sqlite3 prepared inserts of the same rows
 * in one transaction into the same tables of an identical store file in the same folder.
 * Above 1 the repository is faster; the goal is at least 0.7.
 *
 * reingest_unchanged_ratio: storing a poll answer of that version that has not changed (a fresh
 * copy, as a new answer parses into new objects) relative to storing the version the first time,
 * both through the repository into the same store. The goal is at most 0.1.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openStore } from '../../electron/core/store';
import type { Version } from '../../shared/domain/resources';
import { median } from '../support/median';

const ORDERS = 10_000;
const POSITIONS = 1_000;
const RUNS = 9;

function bigVersion(strategyId: string): Version {
  const at = '2025-01-02T09:00:00.123456Z';
  return {
    id: randomUUID(),
    strategy_id: strategyId,
    cash_weight: '2.000000',
    old_cash_weight: '100',
    scheduled_for: null,
    status: 'PENDING',
    executed_at: at,
    inserted_at: at,
    orders: Array.from({ length: ORDERS }, (_, i) => ({
      id: randomUUID(),
      date: '2025-01-02',
      side: i % 2 ? 'BUY' : 'SELL',
      symbol: `SYM${i}`,
      status: 'PENDING',
      status_reason: null,
      order_quantity: `${i}.123456`,
      order_value: `${i * 3}.50`,
      filled_quantity: null,
      filled_value: null,
      filled_average_price: null,
      inserted_at: at,
      updated_at: at,
    })),
    positions: Array.from({ length: POSITIONS }, (_, i) => ({
      id: randomUUID(),
      symbol: `SYM${i}`,
      old_weight: '0',
      weight: '0.098000',
      action: 'ADD',
    })),
  };
}

export default async function ingest(): Promise<Record<string, number>> {
  const dir = mkdtempSync(join(tmpdir(), 'strategy-desk-bench-'));
  try {
    // Two identical store files: one written through the repository, one with raw inserts.
    const seed = (path: string) => {
      const store = openStore(path);
      const profile = store.profiles.create({
        name: 'Bench',
        baseUrl: 'http://127.0.0.1:1',
        clientId: 'bench',
        environment: 'sandbox',
      });
      const strategyId = randomUUID();
      store.strategies.upsert(profile.id, {
        id: strategyId,
        name: 'Bench',
        description: '',
        fee_percent: '0',
        is_liquidate_only: false,
        liquidate_only_reason: null,
        inserted_at: '2025-01-01T00:00:00.000000Z',
        updated_at: '2025-01-01T00:00:00.000000Z',
      });
      return { store, profileId: profile.id, strategyId };
    };
    const repo = seed(join(dir, 'repository.sqlite'));
    const baseline = seed(join(dir, 'raw.sqlite'));
    baseline.store.close();
    const raw = new Database(join(dir, 'raw.sqlite'));
    raw.pragma('journal_mode = WAL');
    raw.pragma('synchronous = NORMAL');
    raw.pragma('foreign_keys = ON');
    const insertVersion = raw.prepare(
      `INSERT INTO versions (profile_id, strategy_id, id, cash_weight, old_cash_weight,
         scheduled_for, status, executed_at, inserted_at, synced_at, origin, location)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const insertOrder = raw.prepare(
      `INSERT INTO orders VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const insertPosition = raw.prepare(
      `INSERT INTO version_positions VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    const rawIngest = raw.transaction((profileId: string, v: Version) => {
      const at = new Date().toISOString();
      insertVersion.run(
        profileId,
        v.strategy_id,
        v.id,
        v.cash_weight,
        v.old_cash_weight,
        v.scheduled_for,
        v.status,
        v.executed_at,
        v.inserted_at,
        at,
        'created',
        null,
      );
      for (const o of v.orders!)
        insertOrder.run(
          profileId,
          v.id,
          o.id,
          o.date,
          o.side,
          o.symbol,
          o.status,
          o.status_reason,
          o.order_quantity,
          o.order_value,
          o.filled_quantity,
          o.filled_value,
          o.filled_average_price,
          o.inserted_at,
          o.updated_at,
        );
      for (const p of v.positions!)
        insertPosition.run(profileId, v.id, p.id, p.symbol, p.old_weight, p.weight, p.action);
    });

    const time = (fn: () => void) => {
      const started = process.hrtime.bigint();
      fn();
      return Number(process.hrtime.bigint() - started) / 1e6;
    };
    const repoTimes: number[] = [];
    const rawTimes: number[] = [];
    // One warm-up each, then alternate which goes first so both see the same machine state.
    for (let run = -1; run < RUNS; run++) {
      const a = bigVersion(repo.strategyId);
      const b = bigVersion(baseline.strategyId);
      const viaRepository = () =>
        time(() => repo.store.versions.upsert(repo.profileId, a, { origin: 'created' }));
      const viaRaw = () => time(() => rawIngest(baseline.profileId, b));
      let tr: number;
      let tb: number;
      if (run % 2 === 0) {
        tr = viaRepository();
        tb = viaRaw();
      } else {
        tb = viaRaw();
        tr = viaRepository();
      }
      if (run >= 0) {
        repoTimes.push(tr);
        rawTimes.push(tb);
      }
    }

    // The tracker storing an unchanged answer, against the first store of the same version.
    const firstTimes: number[] = [];
    const againTimes: number[] = [];
    for (let run = -1; run < RUNS; run++) {
      const v = bigVersion(repo.strategyId);
      const answer = structuredClone(v);
      const first = time(() =>
        repo.store.versions.upsert(repo.profileId, v, { origin: 'created' }),
      );
      const again = time(() => repo.store.versions.upsert(repo.profileId, answer));
      if (run >= 0) {
        firstTimes.push(first);
        againTimes.push(again);
      }
    }
    repo.store.close();
    raw.close();
    // Throughput ratio = raw time / repository time, per back-to-back pair (which cancels the
    // machine's load drifting between runs), then the median pair.
    const ratios = rawTimes.map((t, i) => t / repoTimes[i]!);
    const reingest = againTimes.map((t, i) => t / firstTimes[i]!);
    return {
      ingest_ratio: Number(median(ratios).toFixed(3)),
      reingest_unchanged_ratio: Number(median(reingest).toFixed(3)),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
