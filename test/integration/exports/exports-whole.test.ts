import { spawn } from 'node:child_process';
import { linkSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOOK_FLAGS } from '../../../shared/book/flags';
import type { BookRow } from '../../../shared/book/views';
import type { ExportResult } from '../../../shared/views';
import { DEMO_STRATEGY_IDS } from '../../../electron/sandbox';
import { BOOK_CSV_COLUMNS } from '../../../electron/core/book/export';
import { openDeskHarness, type DeskHarness } from '../../support/desk-harness';
import { addMany, createStrategies, wholeBook, WHOLE_BOOK } from '../../support/book';
import { parseCsv } from '../../support/rfc4180';

const CHILD = fileURLToPath(new URL('./export-child.ts', import.meta.url));
const PARTIAL = /^\..+\.[0-9a-f]{12}\.partial$/;
const partialsIn = (dir: string) => readdirSync(dir).filter((name) => PARTIAL.test(name));

/** A book row's cells as the table shows them, by the export's column names. */
function tableCells(row: BookRow): Record<(typeof BOOK_CSV_COLUMNS)[number], string> {
  const cells: Record<string, string> = {
    strategy_id: row.strategyId,
    name: row.name,
    tags: row.tags.join('; '),
    model_id: row.model?.id ?? '',
    model: row.model?.name ?? '',
    model_sync: row.model?.sync ?? '',
    target_source: row.target.state,
    target_version_id: row.target.versionId ?? '',
    target_executed_at: row.target.executedAt ?? '',
    changed_symbols: row.target.symbols.join(' '),
    holdings_count: String(row.holdingsCount),
    held_symbols: row.heldSymbols.join(' '),
    last_version_id: row.lastVersion?.id ?? '',
    last_version_status: row.lastVersion?.status ?? '',
    last_version_executed_at: row.lastVersion?.executedAt ?? '',
    running: String(row.running),
    liquidate_only_reason: row.liquidateOnlyReason ?? '',
    flags: row.flags.join(' '),
    refresh_failed_at: row.refreshFailure?.at ?? '',
    refresh_failure: row.refreshFailure?.message ?? '',
    synced_at: row.syncedAt,
  };
  for (const flag of BOOK_FLAGS)
    cells[`flag_${flag.replace(/-/g, '_')}`] = String(row.flags.includes(flag));
  return cells as Record<(typeof BOOK_CSV_COLUMNS)[number], string>;
}

/**
 * Every export goes one way (core/exports): the rows to a hidden temporary file, listed in the
 * leftover registry, renamed into place once whole, progress under the export's id. Through the
 * real desk, the built-in sandbox over HTTP, SQLite, and a child process killed mid-write.
 */
describe('exports whole and matched', () => {
  let h: DeskHarness;
  let profileId: string;
  let chosenDir: string;

  beforeAll(async () => {
    chosenDir = mkdtempSync(join(tmpdir(), 'desk-exports-chosen-'));
    h = await openDeskHarness({
      stepMs: 0,
      demoModel: true,
      // As a save dialog answers when the manager keeps the name: the same file each time.
      chooseExportPath: async (name) => join(chosenDir, name),
    });
    profileId = (await h.desk.profiles.useSandbox({})).id;
  });
  afterAll(async () => {
    await h?.close();
    rmSync(chosenDir, { recursive: true, force: true });
  });

  it('writes every column of the book as the table shows it, the model and its sync state too', async () => {
    const result = await h.desk.book.exportStrategies({ profileId, query: WHOLE_BOOK });
    const [header, ...lines] = parseCsv(readFileSync(result!.path, 'utf8'));
    expect(header).toEqual([...BOOK_CSV_COLUMNS]);
    const book = await wholeBook(h, profileId);
    expect(lines.map((l) => l[0])).toEqual(book.map((r) => r.strategyId));
    for (const [i, row] of book.entries()) {
      const cells = tableCells(row);
      expect(Object.fromEntries(header!.map((c, at) => [c, lines[i]![at]]))).toEqual(
        Object.fromEntries(BOOK_CSV_COLUMNS.map((c) => [c, cells[c]])),
      );
    }
    // The demo model's seven followers name it, with the states the Models screen shows.
    const col = (name: (typeof BOOK_CSV_COLUMNS)[number]) => header!.indexOf(name);
    const following = lines.filter((l) => l[col('model')] === 'Demo model');
    expect(following).toHaveLength(7);
    expect(new Set(following.map((l) => l[col('model_sync')])).size).toBeGreaterThan(1);
  });

  it('replaces a file by rename, never writing into the one already there, for every export', async () => {
    const [model] = await h.desk.models.list({});
    const demo = await h.desk.models.get({ modelId: model!.id });
    const batch = await h.desk.batches.review({
      profileId,
      revisionId: demo.latest!.id,
      strategyIds: [DEMO_STRATEGY_IDS.coreEquity, DEMO_STRATEGY_IDS.dividendGrowth],
    });
    const exports: [string, () => Promise<ExportResult | null>][] = [
      ['book', () => h.desk.book.exportStrategies({ profileId, query: WHOLE_BOOK })],
      ['holdings', () => h.desk.book.exportHoldings({ profileId, query: WHOLE_BOOK })],
      ['model', () => h.desk.models.exportCsv({ revisionId: demo.latest!.id })],
      ['batch orders', () => h.desk.batches.exportOrders({ batchId: batch.id })],
      ['batch summary', () => h.desk.batches.exportSummary({ batchId: batch.id })],
      ['activity', () => h.desk.activity.export({ filter: { profileId }, format: 'csv' })],
      [
        'orders',
        () =>
          h.desk.reports.exportOrders({
            profileId,
            selection: { kind: 'strategy', strategyId: DEMO_STRATEGY_IDS.coreEquity },
          }),
      ],
    ];
    for (const [what, exported] of exports) {
      const first = (await exported())!;
      // Another name for the file written first: a write in place would change it too.
      const before = join(chosenDir, `before-${basename(first.path)}`);
      linkSync(first.path, before);
      const text = readFileSync(before, 'utf8');
      const again = (await exported())!;
      expect(again.path, what).toBe(first.path);
      expect(statSync(again.path).ino, what).not.toBe(statSync(before).ino);
      expect(readFileSync(before, 'utf8'), what).toBe(text);
      expect(statSync(again.path).mode & 0o777, what).toBe(0o600);
      const events = h.events.filter(
        (e) => e.type === 'export-progress' && e.exportId === again.exportId,
      );
      expect(events.at(-1), what).toEqual({
        type: 'export-progress',
        exportId: again.exportId,
        rows: again.rows,
        done: true,
      });
      rmSync(before);
    }
    expect(partialsIn(chosenDir)).toEqual([]);
    expect(h.desk.store.settings.get('exports.partial')).toBeNull();
  });

  it('tells each export’s progress under the id its caller gave, and refuses an id under way', async () => {
    const ids = ['5a0e6a51-0c7d-4c1f-9a51-6a2f4b1e0001', '5a0e6a51-0c7d-4c1f-9a51-6a2f4b1e0002'];
    const [book, holdings] = await Promise.all([
      h.desk.book.exportStrategies({ profileId, query: WHOLE_BOOK, exportId: ids[0] }),
      h.desk.book.exportHoldings({ profileId, query: WHOLE_BOOK, exportId: ids[1] }),
    ]);
    expect([book!.exportId, holdings!.exportId]).toEqual(ids);
    const ended = (id: string) =>
      h.events.find((e) => e.type === 'export-progress' && e.exportId === id && e.done);
    expect(ended(ids[0]!)).toMatchObject({ rows: book!.rows });
    expect(ended(ids[1]!)).toMatchObject({ rows: holdings!.rows });
    expect(book!.rows).not.toBe(holdings!.rows);

    const same = '5a0e6a51-0c7d-4c1f-9a51-6a2f4b1e0003';
    const twice = await Promise.allSettled([
      h.desk.book.exportStrategies({ profileId, query: WHOLE_BOOK, exportId: same }),
      h.desk.book.exportHoldings({ profileId, query: WHOLE_BOOK, exportId: same }),
    ]);
    expect(twice.map((t) => t.status)).toEqual(['fulfilled', 'rejected']);
    expect((twice[1] as PromiseRejectedResult).reason).toMatchObject({
      kind: 'invalid-input',
      message: expect.stringMatching(/already under way/),
    });
  });

  it('leaves no file when killed mid-write, and its leftover goes at the next start', async () => {
    // Over 10,000 holdings, so the export tells its progress before it ends.
    const { ids } = await createStrategies(h.sandbox()!.baseUrl, { count: 2_100, holdings: 5 });
    await addMany(h, profileId, ids);
    const killedDir = mkdtempSync(join(tmpdir(), 'desk-exports-killed-'));
    try {
      await h.desk.close();
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', CHILD, h.dataDir, killedDir, profileId],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      let output = '';
      child.stdout.on('data', (d: Buffer) => (output += d.toString()));
      const signal = await new Promise<NodeJS.Signals | null>((resolve) =>
        child.once('exit', (_code, s) => resolve(s)),
      );
      expect([signal, output.trim()]).toEqual(['SIGKILL', 'exporting']);
      // Half-written: only the hidden temporary file, nothing under the chosen name.
      expect(readdirSync(killedDir)).toEqual([
        expect.stringMatching(/^\.book-holdings-.+\.partial$/),
      ]);

      await h.restart();
      expect(readdirSync(killedDir)).toEqual([]);
      expect(h.desk.store.settings.get('exports.partial')).toBeNull();
    } finally {
      rmSync(killedDir, { recursive: true, force: true });
    }
  }, 120_000);
});
