import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityFilter } from '../../../shared/activity/views';
import { writeActivityExport } from '../../../electron/core/activity/export';
import { openStore, type Store } from '../../../electron/core/store';
import { seedActivity } from '../../support/activity-seed';
import { tempFolder } from '../../unit/store/fixtures';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const DEMO = '11111111-1111-4111-8111-111111111111';
const CORE = '33333333-3333-4333-8333-333333333333';
const OTHER = '44444444-4444-4444-8444-444444444444';

/** `npm run verify-activity -- FILE`, as an auditor runs it (tsx, no app). */
function verifyActivity(file: string) {
  const run = spawnSync(
    process.execPath,
    [join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'scripts/verify-activity.ts', file],
    { cwd: ROOT, encoding: 'utf8' },
  );
  return { status: run.status, out: `${run.stdout}${run.stderr}`.trim() };
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
    await writeActivityExport(
      store.activity,
      { filter, format: name.endsWith('.csv') ? 'csv' : 'jsonl', profileName: 'Demo' },
      path,
      { exportedAt: '2026-02-01T00:00:00.000Z' },
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

  it('passes an intact export, also with CRLF line endings', () => {
    const intact = { status: 0, out: 'OK: 2400 entries, chain 1..2400 of profile Demo' };
    expect(verifyActivity(file('intact.jsonl', lines(whole)))).toEqual(intact);
    expect(verifyActivity(file('crlf.jsonl', whole.join('\r\n') + '\r\n'))).toEqual(intact);
  });

  it('refuses a line edited without changing any hash (spacing, a repeated key)', () => {
    const spaced = [...whole];
    spaced[5] = spaced[5]!.replace('"profileName":"Demo"', '"profileName": "Demo"');
    const repeated = [...whole];
    // A second "at" that some readers would show and JSON.parse drops.
    repeated[6] = repeated[6]!.replace('{"seq":6,', '{"at":"2020-01-01T00:00:00.000Z","seq":6,');
    expect(verifyActivity(file('spaced.jsonl', lines(spaced)))).toEqual({
      status: 1,
      out: 'Line 6 is not written as the app writes it (its spacing, key order, escapes or a repeated key differ): it was edited after the export.',
    });
    expect(verifyActivity(file('repeated.jsonl', lines(repeated)))).toMatchObject({
      status: 1,
      out: expect.stringMatching(/^Line 7 is not written as the app writes it/),
    });
    const blank = [...whole.slice(0, 10), '', ...whole.slice(10)];
    expect(verifyActivity(file('blank.jsonl', lines(blank)))).toEqual({
      status: 1,
      out: 'Line 11 is empty: the app writes no empty line.',
    });
  });

  it('refuses a header edited to name another profile or to hide a removed entry', () => {
    const renamed = [
      whole[0]!.replace('"profileName":"Demo"', '"profileName":"Audit"'),
      ...whole.slice(1),
    ];
    expect(verifyActivity(file('renamed.jsonl', lines(renamed)))).toEqual({
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
    expect(verifyActivity(file('claimed.jsonl', lines(claimed)))).toEqual({
      status: 1,
      out: `Line 3 does not belong in this export: it is of strategy ${OTHER}, the export only of ${CORE}.`,
    });
  });

  it('says plainly what a filtered export cannot show', async () => {
    const core = await exported({ profileId: DEMO, strategyId: CORE }, 'core.jsonl');
    expect(verifyActivity(core)).toEqual({
      status: 0,
      out:
        `OK: 1200 entries of profile Demo filtered by strategy ${CORE}, from chain entry 1 to 2399\n` +
        'Each entry matches its hash, but entries left out by the filter are not in this file, so one removed from it cannot be seen here: export without a strategy or kind filter to check the chain whole.',
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
    expect(verifyActivity(day)).toEqual({
      status: 0,
      out: [
        'OK: 1440 entries, chain 901..2340 of profile Demo',
        `Entry 901 links to ${before.hash}, the hash of entry 900, which is not in this file: compare it with the log or an earlier export to tie this range to the chain.`,
        `Entries cut from either end of the range, with the header's count changed, cannot be seen in this file alone: entry 2340's hash ${lastOfDay.hash} must be in the log or a later export.`,
      ].join('\n'),
    });
  });

  it('names files that are no export: a CSV, a folder, nothing, bytes that are not text', async () => {
    const csv = await exported({ profileId: DEMO }, 'all.csv');
    expect(verifyActivity(csv)).toEqual({
      status: 1,
      out: 'This is a CSV export: only a JSON Lines export (.jsonl) holds what is needed to verify it.',
    });
    mkdirSync(folder.file('a-folder.jsonl'));
    expect(verifyActivity(folder.file('a-folder.jsonl'))).toEqual({
      status: 1,
      out: `${folder.file('a-folder.jsonl')} is a folder or a device, not an export file.`,
    });
    expect(verifyActivity(folder.file('none.jsonl'))).toEqual({
      status: 1,
      out: `There is no file at ${folder.file('none.jsonl')}.`,
    });
    const latin = Buffer.concat([Buffer.from(lines(whole.slice(0, 3))), Buffer.from([0xff, 0x0a])]);
    expect(verifyActivity(file('latin.jsonl', latin))).toEqual({
      status: 1,
      out: 'Line 4 is not UTF-8 text.',
    });
  });

  it('refuses a line too long to be an entry without running out of memory', () => {
    const path = folder.file('huge.jsonl');
    const fd = openSync(path, 'w');
    writeSync(fd, lines(whole.slice(0, 2)));
    const block = Buffer.alloc(1024 * 1024, 'a');
    for (let i = 0; i < 65; i++) writeSync(fd, block);
    closeSync(fd);
    expect(verifyActivity(path)).toEqual({
      status: 1,
      out: 'Line 3 is longer than 64 MiB: no line of an activity export is, so this is not one.',
    });
  });
});
