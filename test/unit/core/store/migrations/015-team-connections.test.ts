import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, openStore } from '../../../../../electron/core/store';
import { tempFolder } from '../../../../support/store-fixtures';

describe('migration 015-team-connections', () => {
  let folder: ReturnType<typeof tempFolder>;
  beforeEach(() => {
    folder = tempFolder();
  });
  afterEach(() => folder.cleanup());

  it('takes a file at schema 12 to 15: a profile joins a team, leaves with its removal', () => {
    expect(MIGRATIONS.find((m) => m.version === 15)?.name).toBe('team-connections');
    const path = folder.file();
    const old = openStore(path, { targetVersion: 12 });
    const profile = old.profiles.create({
      name: 'Desk',
      baseUrl: 'http://127.0.0.1:1',
      clientId: 'c',
      environment: 'sandbox',
    });
    old.close();

    const store = openStore(path);
    expect(store.schemaVersion).toBeGreaterThanOrEqual(15);
    expect(store.teams.get(profile.id)).toBeNull();
    const team = store.teams.set({
      profileId: profile.id,
      host: 'db.example.com',
      port: 5432,
      database: 'team',
      member: 'alice',
      caFile: '/etc/ca.pem',
    });
    expect(store.teams.get(profile.id)).toEqual(team);
    expect(store.teams.list()).toEqual([team]);
    expect(() => store.teams.set({ ...team, port: 0 })).toThrow(/CHECK constraint/);
    store.profiles.delete(profile.id);
    expect(store.teams.list()).toEqual([]);
    store.close();
  });
});
