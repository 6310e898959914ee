import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, openStore } from '../../../../../electron/core/store';
import { seedStrategy, tempFolder, ts, versionResponse } from '../../../../support/store-fixtures';

describe('migration 003-status-seen', () => {
  let folder: ReturnType<typeof tempFolder>;
  beforeEach(() => {
    folder = tempFolder();
  });
  afterEach(() => folder.cleanup());

  it('follows 001 and adds the table of first sightings', () => {
    expect(MIGRATIONS.map((m) => m.version)).toContain(3);
    const path = folder.file();
    openStore(path).close();
    const db = new Database(path, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBeGreaterThanOrEqual(3);
    const columns = (db.pragma('table_info(version_status_seen)') as { name: string }[]).map(
      (c) => c.name,
    );
    expect(columns).toEqual(['profile_id', 'version_id', 'status', 'first_seen_at']);
    db.close();
  });

  it('takes a file at schema 1 with versions to 3 without losing them', () => {
    const path = folder.file();
    const old = openStore(path, { targetVersion: 1 });
    const { profileId, strategyId } = seedStrategy(old);
    const version = versionResponse(strategyId);
    old.versions.upsert(profileId, version, { origin: 'created' });
    old.close();

    const store = openStore(path);
    expect(store.schemaVersion).toBeGreaterThanOrEqual(3);
    expect(store.versions.get(profileId, version.id)?.status).toBe('PENDING');
    expect(store.versions.statusSeen(profileId, version.id)).toEqual([]);
    store.close();
  });

  it('keeps the first sighting of each status, across a reopen, and forgets them with the version', () => {
    const path = folder.file();
    const store = openStore(path);
    const { profileId, strategyId } = seedStrategy(store);
    const version = versionResponse(strategyId);
    store.versions.upsert(profileId, version, { origin: 'created' });
    store.versions.noteStatusSeen(profileId, version.id, 'PENDING', ts(5));
    store.versions.noteStatusSeen(profileId, version.id, 'CANCELLED', ts(9));
    // Seen again later: the first time stands.
    store.versions.noteStatusSeen(profileId, version.id, 'PENDING', ts(20));
    // An unknown version leaves no row behind.
    store.versions.noteStatusSeen(profileId, 'nope', 'PENDING', ts(1));
    store.close();

    const again = openStore(path);
    expect(again.versions.statusSeen(profileId, version.id)).toEqual([
      { status: 'PENDING', first_seen_at: ts(5) },
      { status: 'CANCELLED', first_seen_at: ts(9) },
    ]);
    again.versions.remove(profileId, version.id);
    expect(again.versions.statusSeen(profileId, version.id)).toEqual([]);
    again.close();
  });
});
