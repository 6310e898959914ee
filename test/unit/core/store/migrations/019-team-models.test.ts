import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, openStore } from '../../../../../electron/core/store';
import { tempFolder } from '../../../../support/store-fixtures';

const HASH = 'a'.repeat(64);

describe('migration 019-team-models', () => {
  let folder: ReturnType<typeof tempFolder>;
  beforeEach(() => {
    folder = tempFolder();
  });
  afterEach(() => folder.cleanup());

  it('takes a file at schema 18 to 19: its models stay the desk’s own, a team’s are cached apart', () => {
    expect(MIGRATIONS.find((m) => m.version === 19)?.name).toBe('team-models');
    const path = folder.file();
    openStore(path, { targetVersion: 18 }).close();
    // A model of schema 18, written as that schema's desk wrote it.
    const own = { id: 'c0c0c0c0-0a8b-4c1e-9a1e-1f2b3c4d5e6f' };
    const raw = new Database(path);
    const at = '2026-11-28T09:00:00.000Z';
    raw.prepare('INSERT INTO models VALUES (?, ?, ?, ?, ?)').run(own.id, 'Growth', '', at, at);
    raw
      .prepare('INSERT INTO model_revisions VALUES (?, ?, 1, ?, ?, ?, ?)')
      .run('d0d0d0d0-0a8b-4c1e-9a1e-1f2b3c4d5e6f', own.id, at, '', HASH, '30');
    raw.close();

    const store = openStore(path);
    expect(store.schemaVersion).toBeGreaterThanOrEqual(19);
    expect(store.models.get(own.id)).toMatchObject({ team: null, name: 'Growth' });
    expect(store.models.latest(own.id)).toMatchObject({ number: 1, savedBy: null });
    const team = 'db.example.com:5432/team';
    const teamModel = '6d1f3c1e-0a8b-4c1e-9a1e-1f2b3c4d5e6f';
    const cached = {
      id: teamModel,
      team,
      name: 'Income',
      description: '',
      createdAt: '2026-11-29T07:00:00.000Z',
    };
    expect(store.models.cacheModel(cached)).toBe(true);
    expect(store.models.cacheModel(cached)).toBe(false);
    const revision = {
      id: 'b0b0b0b0-0a8b-4c1e-9a1e-1f2b3c4d5e6f',
      number: 3,
      createdAt: '2026-11-29T07:01:00.000Z',
      note: 'from the team',
      hash: HASH,
      total: '40',
      savedBy: 'dan',
    };
    expect(store.models.cacheRevision(teamModel, revision, [{ symbol: 'AGG', weight: '40' }])).toBe(
      true,
    );
    expect(store.models.cacheRevision(teamModel, revision, [])).toBe(false);
    expect(store.models.latest(teamModel)).toMatchObject({
      number: 3,
      savedBy: 'dan',
      rowCount: 1,
    });
    expect(store.models.list().map((m) => m.name)).toEqual(['Growth']);
    expect(store.models.list(team).map((m) => m.name)).toEqual(['Income']);
    expect(() => store.models.cacheModel({ ...cached, id: own.id, team: '' })).toThrow(/CHECK/);
    store.close();
  });
});
