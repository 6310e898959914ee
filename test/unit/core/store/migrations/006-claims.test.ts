import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, StoreError, openStore } from '../../../../../electron/core/store';
import { seedStrategy, tempFolder } from '../../../../support/store-fixtures';

const BODY = '{"data":{"positions":[]}}';

/** A raw insert, as a second process or an older copy of the app could write it. */
function insertEntry(
  db: Database.Database,
  entry: { id: string; profileId: string; strategyId: string; state: string; claim?: string },
): void {
  db.prepare(
    `INSERT INTO execution_journal (id, profile_id, strategy_id, idempotency_key, request_body,
       state, created_at, updated_at, draft_claim)
     VALUES (?, ?, ?, ?, ?, ?, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', ?)`,
  ).run(
    entry.id,
    entry.profileId,
    entry.strategyId,
    `key-${entry.id}`,
    BODY,
    entry.state,
    entry.claim ?? null,
  );
}

describe('migration 006-claims', () => {
  let folder: ReturnType<typeof tempFolder>;
  beforeEach(() => {
    folder = tempFolder();
  });
  afterEach(() => folder.cleanup());

  it('takes a file at schema 5 to 6, its journal kept, without claims', () => {
    expect(MIGRATIONS.map((m) => m.version)).toContain(6);
    const path = folder.file();
    const old = openStore(path, { targetVersion: 5 });
    const { profileId, strategyId } = seedStrategy(old);
    const entry = old.journal.create({
      profileId,
      strategyId,
      idempotencyKey: 'k',
      requestBody: BODY,
    });
    old.close();

    const store = openStore(path, { targetVersion: 6 });
    expect(store.schemaVersion).toBe(6);
    expect(store.journal.get(entry.id)).toMatchObject({ state: 'pending', requestBody: BODY });
    store.close();
    const db = new Database(path, { readonly: true });
    expect(db.prepare('SELECT draft_claim FROM execution_journal').all()).toEqual([
      { draft_claim: null },
    ]);
    expect(db.prepare('SELECT count(*) AS n FROM data_folder_holder').get()).toEqual({ n: 0 });
    db.close();
  });

  it('refuses, whoever writes it, a second execution of a strategy in flight', () => {
    const path = folder.file();
    const store = openStore(path);
    const { profileId, strategyId } = seedStrategy(store);
    store.close();
    const db = new Database(path);
    insertEntry(db, { id: 'a', profileId, strategyId, state: 'unknown' });
    for (const state of ['pending', 'sent', 'unknown'])
      expect(() => insertEntry(db, { id: `b-${state}`, profileId, strategyId, state })).toThrow(
        /UNIQUE constraint failed: execution_journal.profile_id, execution_journal.strategy_id/,
      );
    // Settled ones take no part: as many as there are.
    insertEntry(db, { id: 'c', profileId, strategyId, state: 'accepted' });
    insertEntry(db, { id: 'd', profileId, strategyId, state: 'rejected' });
    db.prepare("UPDATE execution_journal SET state = 'dismissed' WHERE id = 'a'").run();
    insertEntry(db, { id: 'e', profileId, strategyId, state: 'pending' });
    db.close();
  });

  it("refuses a second live execution of a draft after the same version; a refused one's claim is free", () => {
    const path = folder.file();
    const store = openStore(path);
    const { profileId, strategyId } = seedStrategy(store);
    store.close();
    const db = new Database(path);
    const first = 'draft-1 after none';
    insertEntry(db, { id: 'a', profileId, strategyId, state: 'accepted', claim: first });
    // Another strategy's in-flight slot would be free: the draft's claim alone refuses it.
    expect(() =>
      insertEntry(db, { id: 'b', profileId, strategyId: 'other', state: 'pending', claim: first }),
    ).toThrow(/UNIQUE constraint failed: execution_journal.draft_claim/);
    // "Execute again" after the version it became is a claim of its own.
    insertEntry(db, {
      id: 'c',
      profileId,
      strategyId,
      state: 'pending',
      claim: 'draft-1 after v1',
    });
    db.prepare("UPDATE execution_journal SET state = 'rejected' WHERE id = 'c'").run();
    insertEntry(db, { id: 'd', profileId, strategyId, state: 'sent', claim: 'draft-1 after v1' });
    db.close();
  });

  it('leaves a file edited to hold two unsettled executions of one strategy at schema 5, saying why', () => {
    const path = folder.file();
    const old = openStore(path, { targetVersion: 5 });
    const { profileId, strategyId } = seedStrategy(old);
    old.journal.create({ profileId, strategyId, idempotencyKey: 'k1', requestBody: BODY });
    old.journal.create({ profileId, strategyId, idempotencyKey: 'k2', requestBody: BODY });
    old.close();
    const open = () => openStore(path).close();
    expect(open).toThrow(StoreError);
    expect(open).toThrow(
      new RegExp(
        `strategy ${strategyId} has two executions whose outcome is not known.*left at schema 5`,
      ),
    );
  });
});
