import Database from 'better-sqlite3';
import { writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LATEST_SCHEMA_VERSION, MIGRATIONS, openStore } from '../../../../../electron/core/store';
import { seedStrategy, tempFolder, versionResponse } from '../../../../support/store-fixtures';

const EXPECTED_COLUMNS: Record<string, string[]> = {
  profiles: [
    'id',
    'name',
    'base_url',
    'client_id',
    'environment',
    'granted_scopes',
    'created_at',
    'updated_at',
  ],
  strategies: [
    'profile_id',
    'id',
    'name',
    'description',
    'fee_percent',
    'is_liquidate_only',
    'liquidate_only_reason',
    'inserted_at',
    'updated_at',
    'added_at',
    'synced_at',
  ],
  holdings: [
    'profile_id',
    'strategy_id',
    'id',
    'symbol',
    'quantity',
    'inserted_at',
    'updated_at',
    'synced_at',
  ],
  versions: [
    'profile_id',
    'strategy_id',
    'id',
    'cash_weight',
    'old_cash_weight',
    'scheduled_for',
    'status',
    'executed_at',
    'inserted_at',
    'synced_at',
    'origin',
    'location',
  ],
  orders: [
    'profile_id',
    'version_id',
    'id',
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
  ],
  version_positions: ['profile_id', 'version_id', 'id', 'symbol', 'old_weight', 'weight', 'action'],
  drafts: ['id', 'profile_id', 'strategy_id', 'name', 'created_at', 'updated_at'],
  draft_rows: ['draft_id', 'position', 'symbol', 'weight', 'locked'],
  execution_journal: [
    'id',
    'profile_id',
    'strategy_id',
    'draft_id',
    'idempotency_key',
    'request_body',
    'state',
    'version_id',
    'location',
    'error',
    'created_at',
    'updated_at',
    'attempts',
  ],
  settings: ['key', 'value'],
};

const DECIMAL_COLUMNS = [
  ['strategies', 'fee_percent'],
  ['holdings', 'quantity'],
  ['versions', 'cash_weight'],
  ['versions', 'old_cash_weight'],
  ['orders', 'order_quantity'],
  ['orders', 'order_value'],
  ['orders', 'filled_quantity'],
  ['orders', 'filled_value'],
  ['orders', 'filled_average_price'],
  ['version_positions', 'old_weight'],
  ['version_positions', 'weight'],
  ['draft_rows', 'weight'],
] as const;

describe('migration 001-initial', () => {
  let folder: ReturnType<typeof tempFolder>;
  beforeEach(() => {
    folder = tempFolder();
  });
  afterEach(() => folder.cleanup());

  it('is the first migration', () => {
    expect(MIGRATIONS[0]).toMatchObject({ version: 1, name: 'initial' });
  });

  it.each([
    ['a new file', false],
    ['an empty existing file', true],
  ])('takes %s from schema 0 to 1 with every table and column', (_, preexisting) => {
    const path = folder.file(`desk-${preexisting}.sqlite`);
    if (preexisting) writeFileSync(path, '');
    openStore(path, { targetVersion: 1 }).close();

    const db = new Database(path, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(1);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    for (const [table, columns] of Object.entries(EXPECTED_COLUMNS)) {
      const actual = db.pragma(`table_info(${table})`) as { name: string; type: string }[];
      expect(
        actual.map((c) => c.name),
        table,
      ).toEqual(columns);
    }
    for (const [table, column] of DECIMAL_COLUMNS) {
      const info = (db.pragma(`table_info(${table})`) as { name: string; type: string }[]).find(
        (c) => c.name === column,
      );
      expect(info?.type, `${table}.${column}`).toBe('TEXT');
    }
    // No secret column anywhere.
    const allColumns = Object.keys(EXPECTED_COLUMNS).flatMap((t) =>
      (db.pragma(`table_info(${t})`) as { name: string }[]).map((c) => c.name),
    );
    expect(allColumns.filter((c) => /secret|password|token/i.test(c))).toEqual([]);
    db.close();
  });

  it('keeps the data when the file is opened again, without running the migration twice', () => {
    const path = folder.file();
    const first = openStore(path);
    const { profileId, strategyId } = seedStrategy(first);
    const version = versionResponse(strategyId);
    first.versions.upsert(profileId, version, { origin: 'created' });
    first.settings.set('theme', 'dark');
    first.close();

    const again = openStore(path);
    expect(again.schemaVersion).toBe(LATEST_SCHEMA_VERSION);
    expect(again.profiles.get(profileId)?.clientId).toBe('demo-manager');
    expect(again.strategies.get(profileId, strategyId)?.positions).toHaveLength(2);
    expect(again.versions.get(profileId, version.id, { orders: true })?.orders).toEqual(
      version.orders,
    );
    expect(again.settings.get('theme')).toBe('dark');
    again.close();
  });
});
