import { afterEach, describe, expect, it } from 'vitest';
import type { DeskEvent } from '../../../shared/contract';
import { DEMO_STRATEGY_IDS } from '../../../electron/sandbox';
import { openDeskHarness, type DeskHarness } from '../../support/desk-harness';

const CORE = DEMO_STRATEGY_IDS.coreEquity;
let h: DeskHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

type RowsChanged = Extract<DeskEvent, { type: 'book-rows-changed' }>;

describe('the book’s rows a version moved', () => {
  it('are announced with the version’s end, as book.rows answers them: no screen reads them again', async () => {
    h = await openDeskHarness({ stepMs: 100 });
    const desk = h.desk;
    const profileId = (await desk.profiles.useSandbox({})).id;
    const draft = await desk.drafts.create({
      profileId,
      strategyId: CORE,
      name: 'd',
      start: 'target',
    });
    const { version } = await desk.versions.execute({ draftId: draft.id });
    await h.waitFor(
      (e) =>
        e.type === 'book-rows-changed' &&
        e.rows.some((r) => r.strategyId === CORE && r.lastVersion?.id === version.id && !r.running),
    );
    const last = h.events
      .filter((e): e is RowsChanged => e.type === 'book-rows-changed')
      .map((e) => e.rows.find((r) => r.strategyId === CORE))
      .filter((r) => r !== undefined)
      .at(-1)!;
    expect(last.lastVersion).toMatchObject({ id: version.id, status: 'COMPLETE' });
    const page = await desk.book.rows({
      profileId,
      query: { search: '', flags: [], tag: null, sort: 'name', descending: false },
      offset: 0,
      limit: 50,
    });
    expect(page.rows.find((r) => r.strategyId === CORE)).toEqual(last);
  });

  it('a refresh’s rows say the orders they may have moved in: by sync time, not by name', async () => {
    h = await openDeskHarness({ stepMs: 0 });
    const desk = h.desk;
    const profileId = (await desk.profiles.useSandbox({})).id;
    const { total } = await desk.book.rows({
      profileId,
      query: { search: '', flags: [], tag: null, sort: 'name', descending: false },
      offset: 0,
      limit: 1,
    });
    // The rows that read worked out for the first time are told first (new: in every order).
    await h.waitFor((e) => e.type === 'book-rows-changed' && e.placesMoved.includes('name'));
    const heardBefore = h.events.length;
    const job = await desk.book.refresh({ profileId, selection: { kind: 'all' } });
    await h.waitFor(
      (e) => e.type === 'book-job-changed' && e.job.id === job.id && e.job.state === 'finished',
    );
    const told = h.events
      .slice(heardBefore)
      .filter((e): e is RowsChanged => e.type === 'book-rows-changed');
    expect(new Set(told.flatMap((e) => e.rows.map((r) => r.strategyId))).size).toBe(total);
    const places = new Set(told.flatMap((e) => e.placesMoved));
    expect(places.has('synced')).toBe(true);
    expect(places.has('name')).toBe(false);
  });
});
