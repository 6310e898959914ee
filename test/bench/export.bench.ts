/**
 * export_vs_sqlite3_cli_ratio: exporting 1,000,000 cached orders (years of versions of ~200
 * orders across strategies) from a store file to a CSV file through the app's export path
 * (orderReportLines into writeOrderReportLines, as the desk's exportOrders
 * does: the query, the decimal checks, the formula neutralization, the write), throughput
 * relative to Debian's `sqlite3` command-line shell writing the same rows of the same file with
 * `-csv -header` into a file. Goal: at least 0.6. The median of 3 back-to-back pairs after a
 * warm-up of each, the order alternating.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { orderReportLines, writeOrderReportLines } from '../../electron/core/reports/index';
import { openStore, type Store } from '../../electron/core/store';
import type { Version } from '../../shared/domain/resources';
import { generateOrders } from './report-orders';
import { median } from '../support/median';

const ORDERS = 1_000_000;
const RUNS = 3;
const FROM = '2000-01-01T00:00:00.000000Z';
const TO = '2100-01-01T00:00:00.000000Z';

/** The export's rows, as a manager exporting every version of every strategy would get them. */
const QUERY = `SELECT v.strategy_id, s.name AS strategy_name, v.id AS version_id,
    v.status AS version_status, v.executed_at, o.id AS order_id, o.date, o.side, o.symbol,
    o.status, o.status_reason, o.order_quantity, o.order_value, o.filled_quantity,
    o.filled_value, o.filled_average_price, o.inserted_at, o.updated_at
  FROM versions v
  JOIN strategies s ON s.profile_id = v.profile_id AND s.id = v.strategy_id
  JOIN orders o ON o.profile_id = v.profile_id AND o.version_id = v.id
  WHERE v.profile_id = '%PROFILE%' AND v.executed_at >= '${FROM}' AND v.executed_at < '${TO}'
  ORDER BY v.executed_at, v.id, o.rowid`;

/** A store holding the orders, cached through the versions repository as the tracker does. */
function seed(store: Store): string {
  const profile = store.profiles.create({
    name: 'Bench',
    baseUrl: 'http://127.0.0.1:1',
    clientId: 'bench',
    environment: 'sandbox',
  });
  const rows = generateOrders(ORDERS);
  const at = '2024-12-01T00:00:00.000000Z';
  for (const [id, name] of new Map(rows.map((r) => [r.strategy_id, r.strategy_name])))
    store.strategies.upsert(profile.id, {
      id,
      name,
      description: '',
      fee_percent: '0.250000',
      is_liquidate_only: false,
      liquidate_only_reason: null,
      inserted_at: at,
      updated_at: at,
    });
  let version: Version | undefined;
  const flush = () => {
    if (version) store.versions.upsert(profile.id, version, { origin: 'created' });
  };
  for (const r of rows) {
    if (r.version_id !== version?.id) {
      flush();
      version = {
        id: r.version_id,
        strategy_id: r.strategy_id,
        cash_weight: '1.000000',
        old_cash_weight: '100',
        scheduled_for: null,
        status: r.version_status as Version['status'],
        executed_at: r.executed_at,
        inserted_at: r.executed_at!,
        orders: [],
      };
    }
    version.orders!.push({
      id: r.order_id,
      date: r.date,
      side: r.side as 'BUY' | 'SELL',
      symbol: r.symbol,
      status: r.status as 'FILLED',
      status_reason: r.status_reason,
      order_quantity: r.order_quantity,
      order_value: r.order_value,
      filled_quantity: r.filled_quantity,
      filled_value: r.filled_value,
      filled_average_price: r.filled_average_price,
      inserted_at: r.inserted_at,
      updated_at: r.updated_at,
    });
  }
  flush();
  return profile.id;
}

/** The sqlite3 shell's own CSV output of the query, straight into a file. */
async function viaSqlite3(database: string, sql: string, path: string): Promise<void> {
  const file = await open(path, 'w');
  try {
    await new Promise<void>((resolve, reject) => {
      const shell = spawn('sqlite3', ['-readonly', '-csv', '-header', database, sql], {
        stdio: ['ignore', file.fd, 'pipe'],
      });
      let stderr = '';
      shell.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      shell.on('error', (error: NodeJS.ErrnoException) =>
        reject(
          error.code === 'ENOENT'
            ? new Error('The sqlite3 command-line shell is missing: apt-get install sqlite3')
            : error,
        ),
      );
      shell.on('exit', (code) =>
        code === 0 ? resolve() : reject(new Error(`sqlite3 exited with ${code}: ${stderr}`)),
      );
    });
  } finally {
    await file.close();
  }
}

async function time(run: () => Promise<unknown>): Promise<number> {
  const started = process.hrtime.bigint();
  await run();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

export default async function exportBench(): Promise<Record<string, number | string>> {
  const folder = mkdtempSync(join(tmpdir(), 'export-bench-'));
  const store = openStore(join(folder, 'desk.sqlite'));
  try {
    const profileId = seed(store);
    const sql = QUERY.replace('%PROFILE%', profileId);
    const ours = join(folder, 'ours.csv');
    const theirs = join(folder, 'theirs.csv');
    const app = async () => {
      const lines = orderReportLines(store.reports, { profileId, from: FROM, to: TO });
      const written = await writeOrderReportLines(lines, ours);
      if (written.rows !== ORDERS) throw new Error(`exported ${written.rows} orders`);
    };
    // Each file is deleted right after its run, so dirty pages of one run do not slow the next.
    const timed = async (path: string, run: () => Promise<unknown>) => {
      const ms = await time(run);
      await rm(path);
      return ms;
    };
    await timed(theirs, () => viaSqlite3(store.path, sql, theirs));
    await timed(ours, app);
    const ratios: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      let cli: number;
      let ms: number;
      if (run % 2 === 0) {
        cli = await timed(theirs, () => viaSqlite3(store.path, sql, theirs));
        ms = await timed(ours, app);
      } else {
        ms = await timed(ours, app);
        cli = await timed(theirs, () => viaSqlite3(store.path, sql, theirs));
      }
      ratios.push(cli / ms);
    }
    return {
      export_vs_sqlite3_cli_ratio: Math.round(median(ratios) * 100) / 100,
      export_baseline: 'sqlite3 -csv shell, same query and store file',
    };
  } finally {
    store.close();
    await rm(folder, { recursive: true, force: true });
  }
}
