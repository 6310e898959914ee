import Database from 'better-sqlite3';
import { closeSync, mkdirSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityFilter } from '../../../shared/activity/views';
import {
  entryCanonical,
  entryHash,
} from '../../../electron/core/store/repositories/activity-canonical';
import { ActivityChecks } from '../../../electron/core/activity/checks';
import { activityExportFile } from '../../../electron/core/activity/export';
import type { ActivityRow } from '../../../electron/core/store/repositories/activity';
import { openStore, type Store } from '../../../electron/core/store';
import { seedActivity } from '../../support/activity-seed';
import { exportTo } from '../../support/export-to';
import { tempFolder } from '../../support/store-fixtures';
import { runVerifyActivity } from '../../../scripts/verify-activity-run';

const DEMO = '11111111-1111-4111-8111-111111111111';
const CORE = '33333333-3333-4333-8333-333333333333';
const OTHER = '44444444-4444-4444-8444-444444444444';

/**
 * `npm run verify-activity -- FILE`, as an auditor runs it, in this process: the command's own
 * run (manager-run.test.ts starts it as a process, the way a manager types it).
 */
async function verifyActivity(...files: string[]) {
  const printed: string[] = [];
  const failed: string[] = [];
  const status = await runVerifyActivity(files, {
    out: (line) => printed.push(line),
    err: (line) => failed.push(line),
  });
  return { status, out: [...printed, ...failed].join('\n').trim() };
}

/**
 * An attacker edits JSON Lines exports of a real log; the CLI must name what is wrong and exit
 * 1, exit 0 only for an intact export, and say what a file alone cannot show.
 */
describe('verify-activity against edited exports', () => {
  const folder = tempFolder();
  let store: Store;
  let whole: string[];
  const file = (name: string, text: string | Buffer) => {
    writeFileSync(folder.file(name), text);
    return folder.file(name);
  };
  const exported = async (filter: ActivityFilter, name: string) => {
    const path = folder.file(name);
    await exportTo(
      store,
      path,
      activityExportFile(
        store.activity,
        { filter, format: name.endsWith('.csv') ? 'csv' : 'jsonl', profileName: 'Demo' },
        '2026-02-01T00:00:00.000Z',
      ),
    );
    return path;
  };
  const lines = (changed: string[]) => changed.join('\n') + '\n';

  beforeAll(async () => {
    store = openStore(folder.file());
    // One entry a minute from 2026-01-05 09:00 UTC: 2026-01-06 holds entries 901..2340.
    seedActivity(store, {
      profileId: DEMO,
      profileName: 'Demo',
      count: 2400,
      strategyIds: [CORE, OTHER],
    });
    whole = readFileSync(await exported({ profileId: DEMO }, 'all.jsonl'), 'utf8')
      .trimEnd()
      .split('\n');
  });
  afterAll(() => {
    store.close();
    folder.cleanup();
  });

  it('passes an intact export, also with CRLF line endings', async () => {
    const intact = { status: 0, out: 'OK: 2400 entries, chain 1..2400 of profile Demo' };
    expect(await verifyActivity(file('intact.jsonl', lines(whole)))).toEqual(intact);
    expect(await verifyActivity(file('crlf.jsonl', whole.join('\r\n') + '\r\n'))).toEqual(intact);
  });

  it('refuses a line edited without changing any hash (spacing, a repeated key)', async () => {
    const spaced = [...whole];
    spaced[5] = spaced[5]!.replace('"profileName":"Demo"', '"profileName": "Demo"');
    const repeated = [...whole];
    // A second "at" that some readers would show and JSON.parse drops.
    repeated[6] = repeated[6]!.replace('{"seq":6,', '{"at":"2020-01-01T00:00:00.000Z","seq":6,');
    expect(await verifyActivity(file('spaced.jsonl', lines(spaced)))).toEqual({
      status: 1,
      out: 'Line 6 is not written as the app writes it (its spacing, key order, escapes or a repeated key differ): it was edited after the export.',
    });
    expect(await verifyActivity(file('repeated.jsonl', lines(repeated)))).toMatchObject({
      status: 1,
      out: expect.stringMatching(/^Line 7 is not written as the app writes it/),
    });
    const blank = [...whole.slice(0, 10), '', ...whole.slice(10)];
    expect(await verifyActivity(file('blank.jsonl', lines(blank)))).toEqual({
      status: 1,
      out: 'Line 11 is empty: the app writes no empty line.',
    });
  });

  it('refuses a header edited to name another profile or to hide a removed entry', async () => {
    const renamed = [
      whole[0]!.replace('"profileName":"Demo"', '"profileName":"Audit"'),
      ...whole.slice(1),
    ];
    expect(await verifyActivity(file('renamed.jsonl', lines(renamed)))).toEqual({
      status: 1,
      out: 'The header names the profile “Audit” but its entries name it “Demo”: the header was edited after the export.',
    });
    // Entry 100 removed, the header made to claim a strategy filter the entries do not keep to.
    const claimed = [
      whole[0]!
        .replace('"entries":2400', '"entries":2399')
        .replace(
          `"filter":{"profileId":"${DEMO}"}`,
          `"filter":{"profileId":"${DEMO}","strategyId":"${CORE}"}`,
        ),
      ...whole.slice(1, 100),
      ...whole.slice(101),
    ];
    expect(await verifyActivity(file('claimed.jsonl', lines(claimed)))).toEqual({
      status: 1,
      out: `Line 3 does not belong in this export: it is of strategy ${OTHER}, the export only of ${CORE}.`,
    });
  });

  it('says plainly what a filtered export cannot show', async () => {
    const core = await exported({ profileId: DEMO, strategyId: CORE }, 'core.jsonl');
    expect(await verifyActivity(core)).toEqual({
      status: 0,
      out:
        `OK: 1200 entries of profile Demo filtered by strategy ${CORE}, from chain entry 1 to 2399\n` +
        'Each entry matches its hash, but entries left out by the filter are not in this file, so one removed from it cannot be seen here: export without a strategy or kind filter to check the chain whole, or hold it against the log.',
    });
  });

  it('prints the hashes that tie a date range to the chain', async () => {
    const day = await exported(
      { profileId: DEMO, from: '2026-01-06', to: '2026-01-06' },
      'd.jsonl',
    );
    const before = JSON.parse(whole[900]!) as { chainIndex: number; hash: string };
    const lastOfDay = JSON.parse(whole[2340]!) as { chainIndex: number; hash: string };
    expect([before.chainIndex, lastOfDay.chainIndex]).toEqual([900, 2340]);
    expect(await verifyActivity(day)).toEqual({
      status: 0,
      out: [
        'OK: 1440 entries, chain 901..2340 of profile Demo',
        `Entry 901 links to ${before.hash}, the hash of entry 900, which is not in this file: hold it against the log (or compare it with an earlier export) to tie this range to the chain.`,
        `Entries cut from either end of the range, with the header's count changed, cannot be seen in this file alone: entry 2340's hash ${lastOfDay.hash} must be in the log or a later export.`,
      ].join('\n'),
    });
  });

  it('names files that are no export: a CSV, a folder, nothing, bytes that are not text', async () => {
    const csv = await exported({ profileId: DEMO }, 'all.csv');
    expect(await verifyActivity(csv)).toEqual({
      status: 1,
      out: 'This is a CSV export: only a JSON Lines export (.jsonl) holds what is needed to verify it.',
    });
    mkdirSync(folder.file('a-folder.jsonl'));
    expect(await verifyActivity(folder.file('a-folder.jsonl'))).toEqual({
      status: 1,
      out: `${folder.file('a-folder.jsonl')} is a folder or a device, not an export file.`,
    });
    expect(await verifyActivity(folder.file('none.jsonl'))).toEqual({
      status: 1,
      out: `There is no file at ${folder.file('none.jsonl')}.`,
    });
    const latin = Buffer.concat([Buffer.from(lines(whole.slice(0, 3))), Buffer.from([0xff, 0x0a])]);
    expect(await verifyActivity(file('latin.jsonl', latin))).toEqual({
      status: 1,
      out: 'Line 4 is not UTF-8 text.',
    });
  });

  it('refuses a line too long to be an entry without running out of memory', async () => {
    const path = folder.file('huge.jsonl');
    const fd = openSync(path, 'w');
    writeSync(fd, lines(whole.slice(0, 2)));
    const block = Buffer.alloc(1024 * 1024, 'a');
    for (let i = 0; i < 65; i++) writeSync(fd, block);
    closeSync(fd);
    expect(await verifyActivity(path)).toEqual({
      status: 1,
      out: 'Line 3 is longer than 64 MiB: no line of an activity export is, so this is not one.',
    });
  });

  /** A copy of the app's database, edited by `edit` with the append-only triggers dropped. */
  function editedLog(name: string, edit: (db: Database.Database) => void): string {
    const copy = folder.file(name);
    const source = new Database(folder.file(), { readonly: true });
    source.exec(`VACUUM INTO '${copy}'`);
    source.close();
    const db = new Database(copy);
    db.exec('DROP TRIGGER activity_no_update; DROP TRIGGER activity_no_delete;');
    edit(db);
    db.close();
    return copy;
  }

  it('holds an export against the log: a log rewritten or cut after it, an export cut', async () => {
    const all = await exported({ profileId: DEMO }, 'held.jsonl');
    const log = folder.file();
    expect(await verifyActivity(all, log)).toEqual({
      status: 0,
      out:
        'OK: 2400 entries, chain 1..2400 of profile Demo\n' +
        `Held against the log in ${log}: the profile's chain there holds (every entry's hash recomputed from its content), every entry of this export is in it, hash for hash, and none of the log's entries of this export's filter up to the last is missing.`,
    });
    // Entry 100 edited and every hash after it recomputed: the log alone still verifies.
    const rewritten = editedLog('rewritten.sqlite', (db) => {
      const rows = db
        .prepare('SELECT * FROM activity WHERE chain_index >= 99 ORDER BY chain_index')
        .all() as ActivityRow[];
      let previous = rows[0]!.hash;
      const update = db.prepare(
        'UPDATE activity SET payload = ?, previous_hash = ?, hash = ? WHERE seq = ?',
      );
      for (const row of rows.slice(1)) {
        const payload =
          row.chain_index === 100 ? row.payload.replace('"Demo"', '"Forged"') : row.payload;
        const fields = {
          seq: row.seq,
          profileId: row.profile_id,
          chainIndex: row.chain_index,
          at: row.at,
          kind: row.kind,
          strategyId: row.strategy_id,
          versionId: row.version_id,
          refersTo: row.refers_to,
        };
        const hash = entryHash(previous, entryCanonical(fields, payload));
        update.run(payload, previous, hash, row.seq);
        previous = hash;
      }
    });
    const forged = openStore(rewritten);
    expect(
      (await new ActivityChecks(forged.activity, () => '2026-02-01T00:00:00.000Z').run()).ok,
    ).toBe(true);
    forged.close();
    expect(await verifyActivity(all, rewritten)).toEqual({
      status: 1,
      out: `Entry 100 of profile Demo differs from the log in ${rewritten}: the log or the export was changed after the export.`,
    });
    const cut = editedLog('cut.sqlite', (db) => db.exec('DELETE FROM activity WHERE seq = 2400'));
    expect(await verifyActivity(all, cut)).toEqual({
      status: 1,
      out: `Entry 2400 of profile Demo is not in the log in ${cut}: the log was cut after the export.`,
    });
    // A day's export with its first five entries taken out and its count made to match.
    const dayExport = await exported(
      { profileId: DEMO, from: '2026-01-06', to: '2026-01-06' },
      'held-day.jsonl',
    );
    const day = readFileSync(dayExport, 'utf8').trimEnd().split('\n');
    const shortened = file(
      'shortened.jsonl',
      lines([day[0]!.replace('"entries":1440', '"entries":1435'), ...day.slice(6)]),
    );
    expect(await verifyActivity(shortened)).toMatchObject({ status: 0 });
    expect(await verifyActivity(shortened, log)).toEqual({
      status: 1,
      out: `The log in ${log} holds 1440 entries of this export's filter up to its last one, the export 1435: entries were removed from the export.`,
    });
  });

  it('recomputes the hashes of the log: an entry edited in the database with its stored hash left alone', async () => {
    const all = await exported({ profileId: DEMO }, 'recomputed.jsonl');
    const day = await exported(
      { profileId: DEMO, from: '2026-01-06', to: '2026-01-06' },
      'recomputed-day.jsonl',
    );
    const broken = (log: string, entry: string) =>
      `The log in ${log} does not verify: Entry ${entry} does not match its hash: its content was changed after it was written.`;
    // Inside the export: its stored hash still equals the exported one.
    const payload = editedLog('payload.sqlite', (db) =>
      db.exec(
        `UPDATE activity SET payload = replace(payload, '"Demo"', '"Forged"') WHERE chain_index = 100`,
      ),
    );
    expect(await verifyActivity(all, payload)).toEqual({
      status: 1,
      out: broken(payload, '100 of profile Demo (2026-01-05 10:39 UTC)'),
    });
    // A day's export, the log edited before its range and inside it.
    const before = editedLog('before-range.sqlite', (db) =>
      db.exec(`UPDATE activity SET kind = 'version-deleted' WHERE chain_index = 50`),
    );
    expect(await verifyActivity(day, before)).toEqual({
      status: 1,
      out: broken(before, '50 of profile Demo (2026-01-05 09:49 UTC)'),
    });
    const inside = editedLog('in-range.sqlite', (db) =>
      db.exec(`UPDATE activity SET strategy_id = '${CORE}' WHERE chain_index = 1000`),
    );
    expect(await verifyActivity(day, inside)).toEqual({
      status: 1,
      out: broken(inside, '1000 of profile Demo (2026-01-06 01:39 UTC)'),
    });
    // The app's own check (on demand and at start, in slices) recomputes too.
    const forged = openStore(payload);
    const checks = new ActivityChecks(forged.activity, () => '2026-02-01T00:00:00.000Z');
    expect((await checks.run()).brokenAt).toMatchObject({ chainIndex: 100, profileId: DEMO });
    forged.close();
  });
});
