import Database from 'better-sqlite3';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listChannels } from '../../../shared/contract';
import type { ActivityCheck, ActivityEntrySummary } from '../../../shared/activity/views';
import { ActivityChecks } from '../../../electron/core/activity/checks';
import { openStore } from '../../../electron/core/store';
import { dispatchCall } from '../../../electron/transport/dispatch';
import { seedActivity } from '../../support/activity-seed';
import { openDeskHarness, type DeskHarness } from '../../support/desk-harness';
import { tempFolder } from '../../support/store-fixtures';

const DEMO = '11111111-1111-4111-8111-111111111111';
const OTHER = '22222222-2222-4222-8222-222222222222';

/**
 * An attacker edits the app's SQLite file while the app is closed (the append-only triggers
 * dropped first), then the app starts again: its check at start and "Check again" must answer
 * through the contract, naming where the log breaks.
 */
describe('an activity log edited in the database file', () => {
  let h: DeskHarness;
  let path: string;
  let pristine: Buffer;
  const call = async (name: string, payload: unknown = {}) => {
    const channel = listChannels().find((c) => c.channel === name)!;
    return dispatchCall(h.desk, channel, payload, () => undefined);
  };

  /** The seeded file, edited by `sql`, under a desk started again on it. */
  async function restartEdited(sql: string) {
    await h.desk.close();
    for (const suffix of ['-wal', '-shm']) rmSync(path + suffix, { force: true });
    writeFileSync(path, pristine);
    const db = new Database(path);
    db.exec('DROP TRIGGER activity_no_update; DROP TRIGGER activity_no_delete;');
    db.exec(sql);
    db.close();
    await h.restart();
  }

  async function checkAgain(): Promise<ActivityCheck> {
    const answer = await call('activity.verify');
    expect(answer).toMatchObject({ ok: true });
    return (answer as { value: ActivityCheck }).value;
  }

  beforeAll(async () => {
    h = await openDeskHarness();
    // Demo writes 1–10, Other 11–13, Demo 14–30 (its entries 11–27).
    seedActivity(h.desk.store, { profileId: DEMO, profileName: 'Demo', count: 10 });
    seedActivity(h.desk.store, { profileId: OTHER, profileName: 'Other', count: 3 });
    seedActivity(h.desk.store, {
      profileId: DEMO,
      profileName: 'Demo',
      count: 17,
      startAt: '2026-01-06T09:00:00.000Z',
    });
    path = h.desk.store.path;
    await h.desk.close();
    const db = new Database(path);
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    pristine = readFileSync(path);
    await h.restart();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('verifies the file as written', async () => {
    expect(await checkAgain()).toMatchObject({ ok: true, entries: 30, brokenAt: null });
  });

  it('names an entry whose chain index was edited to 0', async () => {
    await restartEdited('UPDATE activity SET chain_index = 0 WHERE seq = 5');
    const check = await checkAgain();
    expect(check.brokenAt).toMatchObject({ seq: 5, chainIndex: 1, profileId: DEMO });
    expect(check.brokenAt!.reason).toBe(
      'An entry of profile Demo (2026-01-05 09:04 UTC, seq 5) has no valid place in its chain (chain index 0): it was edited after it was written.',
    );
  });

  it('names an entry whose seq was edited to a negative number', async () => {
    await restartEdited('UPDATE activity SET seq = -5 WHERE seq = 5');
    const check = await checkAgain();
    expect(check.brokenAt).toMatchObject({ seq: -5, chainIndex: 5, profileId: DEMO });
    expect(check.brokenAt!.reason).toBe(
      'An entry of profile Demo (2026-01-05 09:04 UTC, seq -5) has no valid place in the log (seq -5): it was edited after it was written.',
    );
  });

  it('names an entry moved to a profile id that is no profile', async () => {
    await restartEdited(`UPDATE activity SET profile_id = '0' WHERE seq = 5`);
    const check = await checkAgain();
    expect(check.brokenAt).toMatchObject({ seq: 5, chainIndex: 1, profileId: '0' });
    expect(check.brokenAt!.reason).toBe(
      'Entry 1 of profile Demo is missing: the chain starts at 5.',
    );
  });

  it('finds the newest entries of a profile cut off, at start and on "Check again"', async () => {
    // Other's entries 2 and 3 (seq 12, 13): its chain alone still links.
    await restartEdited('DELETE FROM activity WHERE seq IN (12, 13)');
    let last = await call('activity.lastCheck');
    for (let i = 0; i < 200 && last.ok && (last as { value: unknown }).value === null; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      last = await call('activity.lastCheck');
    }
    const reason =
      'Entry 12 of the whole log (in the order entries were written) is missing: it was removed from the file. ' +
      'Every chain still links, so it was among the newest entries of profile Other (whose chain now ends at entry 1).';
    expect(last).toMatchObject({
      ok: true,
      value: { ok: false, entries: 28, brokenAt: { seq: 11, profileId: OTHER, chainIndex: 1 } },
    });
    expect((last as { value: ActivityCheck }).value.brokenAt!.reason).toBe(reason);
    expect((await checkAgain()).brokenAt!.reason).toBe(reason);
    // The app keeps working on a broken log: the view still lists what is there.
    const list = await call('activity.list', { profileId: DEMO, offset: 0, limit: 100 });
    expect(list).toMatchObject({ ok: true, value: { total: 27 } });
  });
  it('lists and opens entries edited into values the app never writes', async () => {
    // A date that is no date, an unknown kind, ids that are no ids, an index that is text.
    await restartEdited(`
      UPDATE activity SET at = 'yesterday' WHERE seq = 2;
      UPDATE activity SET kind = 'bribe-paid' WHERE seq = 3;
      UPDATE activity SET strategy_id = 'core', version_id = '=1+1' WHERE seq = 4;
      UPDATE activity SET chain_index = 'six' WHERE seq = 6;
    `);
    const list = await call('activity.list', { profileId: DEMO, offset: 0, limit: 100 });
    expect(list.ok).toBe(true);
    const entries = (list as { value: { entries: ActivityEntrySummary[] } }).value.entries;
    expect(entries.map((e) => e.seq)).toEqual(
      Array.from({ length: 30 }, (_, i) => 30 - i).filter((seq) => seq < 11 || seq > 13),
    );
    const bySeq = new Map(entries.map((e) => [e.seq, e]));
    expect(bySeq.get(2)).toMatchObject({ at: 'yesterday' });
    expect(bySeq.get(3)).toMatchObject({
      kind: 'bribe-paid',
      summary: 'An entry of a kind the app does not write (“bribe-paid”): the file was edited.',
    });
    expect(bySeq.get(4)).toMatchObject({ strategyId: 'core', versionId: '=1+1' });
    expect(bySeq.get(6)).toMatchObject({ chainIndex: 0 });
    for (const seq of [2, 3, 4, 6])
      expect(await call('activity.get', { seq }), `entry ${seq}`).toMatchObject({ ok: true });
    expect((await checkAgain()).brokenAt!.reason).toBe(
      'Entry 2 of profile Demo (yesterday) does not match its hash: its content was changed after it was written.',
    );
  });
});

describe('an activity table rebuilt without its unique index', () => {
  it('finds an entry duplicated where a batch of the check ends', async () => {
    const folder = tempFolder();
    const path = folder.file();
    const seeded = openStore(path);
    seedActivity(seeded, { profileId: DEMO, profileName: 'Demo', count: 2100 });
    seeded.close();
    const db = new Database(path);
    // The copy keeps every column but neither the unique index nor the triggers.
    db.exec(`
      CREATE TABLE copied AS SELECT * FROM activity;
      DROP TABLE activity;
      CREATE TABLE activity (seq INTEGER PRIMARY KEY, profile_id TEXT NOT NULL,
        chain_index INTEGER NOT NULL, at TEXT NOT NULL, kind TEXT NOT NULL, strategy_id TEXT,
        version_id TEXT, refers_to INTEGER, payload TEXT NOT NULL, previous_hash TEXT NOT NULL,
        hash TEXT NOT NULL);
      INSERT INTO activity SELECT * FROM copied;
      DROP TABLE copied;
      INSERT INTO activity SELECT 2101, profile_id, chain_index, at, kind, strategy_id,
        version_id, refers_to, payload, previous_hash, hash FROM activity WHERE seq = 2000;
    `);
    db.close();
    const store = openStore(path);
    const check = await new ActivityChecks(store.activity, () => '2026-02-01T00:00:00.000Z').run();
    store.close();
    folder.cleanup();
    expect(check).toMatchObject({
      ok: false,
      entries: 2101,
      brokenAt: { seq: 2101, chainIndex: 2000 },
    });
    expect(check.brokenAt!.reason).toBe(
      'Entry 2000 of profile Demo (2026-01-06 18:19 UTC) appears twice or out of order: expected entry 2001.',
    );
  });

  it('raises no false alarm for entries written while the check at start walks in slices', async () => {
    const folder = tempFolder();
    const store = openStore(folder.file());
    // The first slice ends on Other's first entry: Demo's chain is read whole before the pause.
    seedActivity(store, { profileId: DEMO, profileName: 'Demo', count: 1999 });
    seedActivity(store, { profileId: OTHER, profileName: 'Other', count: 5 });
    const checks = new ActivityChecks(store.activity, () => '2026-02-01T00:00:00.000Z');
    const walking = checks.run();
    // Meanwhile the app writes to both: Demo's entry lands behind the walk, Other's ahead of it.
    seedActivity(store, { profileId: DEMO, profileName: 'Demo', count: 1 });
    seedActivity(store, { profileId: OTHER, profileName: 'Other', count: 1 });
    const check = await walking;
    expect(await checks.run()).toMatchObject({ ok: true, entries: 2006 });
    store.close();
    folder.cleanup();
    expect(check).toMatchObject({ ok: true, brokenAt: null });
  });
});
