import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { activityExportFile } from '../../../../electron/core/activity/export';
import { csvCell } from '../../../../electron/core/csv/cell';
import { verifyActivityExport } from '../../../../electron/core/activity/verify-export';
import { openStore, type Store } from '../../../../electron/core/store';
import { seedActivity } from '../../../support/activity-seed';
import { exportTo } from '../../../support/export-to';
import { tempFolder } from '../../../support/store-fixtures';

const PROFILE = '11111111-1111-4111-8111-111111111111';
const CORE = '33333333-3333-4333-8333-333333333333';
const OTHER = '44444444-4444-4444-8444-444444444444';

describe('activity exports', () => {
  let folder: ReturnType<typeof tempFolder>;
  let store: Store;
  beforeEach(() => {
    folder = tempFolder();
    store = openStore(folder.file());
    // One entry a minute from 2026-01-05 09:00 UTC: 3,000 entries run into 2026-01-07.
    seedActivity(store, {
      profileId: PROFILE,
      profileName: '@Desk',
      count: 3000,
      strategyIds: [CORE, OTHER],
    });
  });
  afterEach(() => {
    store.close();
    folder.cleanup();
  });

  const exported = async (
    filter: Parameters<typeof activityExportFile>[1]['filter'],
    format: 'csv' | 'jsonl',
    name: string,
  ) => {
    const path = folder.file(name);
    const written = await exportTo(
      store,
      path,
      activityExportFile(
        store.activity,
        { filter, format, profileName: '@Desk' },
        '2026-02-01T00:00:00.000Z',
      ),
    );
    return { path, written };
  };

  it('writes CSV cells by the order reports’ rules', () => {
    expect(csvCell('=1+1')).toBe(`'=1+1`);
    expect(csvCell('-5')).toBe(`'-5`);
    expect(csvCell('a,"b"')).toBe('"a,""b"""');
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell(null)).toBe('');
    expect(csvCell(42)).toBe('42');
  });

  it('writes the whole log as CSV, oldest first, private to the user', async () => {
    const { path, written } = await exported({ profileId: PROFILE }, 'csv', 'all.csv');
    expect(written.rows).toBe(3000);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const lines = readFileSync(path, 'utf8').split('\r\n');
    expect(lines[0]).toMatch(/^seq,chain_index,at,profile,kind,/);
    expect(lines[1]).toMatch(/^1,1,2026-01-05T09:00:00.000Z,'@Desk,Execution sent,/);
    expect(lines[3000]).toMatch(/^3000,3000,/);
  });

  it('writes JSON Lines that verify on their own: whole, by day, by strategy', async () => {
    const whole = await exported({ profileId: PROFILE }, 'jsonl', 'all.jsonl');
    expect(await verifyActivityExport(whole.path)).toEqual({
      ok: true,
      entries: 3000,
      message: 'OK: 3000 entries, chain 1..3000 of profile @Desk',
    });
    // 2026-01-06 runs from the 901st minute to the 2,340th.
    const day = await exported(
      { profileId: PROFILE, from: '2026-01-06', to: '2026-01-06' },
      'jsonl',
      'day.jsonl',
    );
    expect((await verifyActivityExport(day.path)).message).toBe(
      'OK: 1440 entries, chain 901..2340 of profile @Desk',
    );
    const strategy = await exported({ profileId: PROFILE, strategyId: CORE }, 'jsonl', 's.jsonl');
    expect(await verifyActivityExport(strategy.path)).toMatchObject({ ok: true });
  });

  it('names what is wrong with an export that was changed', async () => {
    const { path } = await exported({ profileId: PROFILE }, 'jsonl', 'all.jsonl');
    const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
    const write = (name: string, changed: string[]) => {
      writeFileSync(folder.file(name), changed.join('\n') + '\n');
      return verifyActivityExport(folder.file(name));
    };
    // The last entry gone: the header's count says so.
    expect((await write('short.jsonl', lines.slice(0, -1))).message).toBe(
      'The header announces 3000 entries but the file holds 2999: entries were removed or added.',
    );
    // Two entries swapped.
    const swapped = [...lines];
    [swapped[10], swapped[11]] = [swapped[11]!, swapped[10]!];
    expect((await write('swapped.jsonl', swapped)).message).toMatch(
      /^Entry 10 of profile @Desk is out of place: it comes later in the file than entry 11 \(lines were reordered\)\.$/,
    );
    expect((await write('nohead.jsonl', lines.slice(1))).message).toMatch(
      /^Line 1 is not the header of a Strategy desk activity export/,
    );
    const fake = JSON.parse(lines[7]!) as { hash: string };
    fake.hash = 'a'.repeat(64);
    expect(
      (await write('hash.jsonl', [...lines.slice(0, 7), JSON.stringify(fake), ...lines.slice(8)]))
        .message,
    ).toMatch(/^Entry 7 of profile @Desk \(2026-01-05 09:06 UTC\) does not match its hash/);
  });
});
