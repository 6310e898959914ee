import { describe, expect, it } from 'vitest';
import { ACTIVITY_KINDS, type ActivityKind } from '../../../../shared/activity/kinds';
import type { ActivityEntrySummary, ActivityFilter } from '../../../../shared/activity/views';
import {
  EntryWindow,
  PAGE_SIZE,
  matchesFilter,
  type PageRequest,
} from '../../../../renderer/src/activity/entry-window';
import { readFilter } from '../../../../renderer/src/activity/filter';

/** The rows of the view, read a page at a time while the log grows at the top. */

const PROFILE = '11111111-1111-4111-8111-111111111111';
const STRATEGY = '22222222-2222-4222-8222-222222222222';

function entry(seq: number, over: Partial<ActivityEntrySummary> = {}): ActivityEntrySummary {
  return {
    seq,
    chainIndex: seq,
    at: new Date(Date.UTC(2026, 0, 1) + seq * 60_000).toISOString(),
    kind: 'execution-sent',
    profileId: PROFILE,
    profileName: 'Main',
    strategyId: STRATEGY,
    strategyName: 'Core',
    versionId: null,
    summary: `entry ${seq}`,
    outcome: null,
    ...over,
  };
}

/** A log of `n` entries (seq 1..n) that can grow, answering like the list: newest first. */
function log(n: number) {
  const entries = Array.from({ length: n }, (_, i) => entry(i + 1));
  return {
    append: () => {
      const e = entry(entries.length + 1);
      entries.push(e);
      return e;
    },
    page: (r: PageRequest) => {
      const newest = [...entries].reverse();
      return { total: newest.length, entries: newest.slice(r.offset, r.offset + r.limit) };
    },
  };
}

const filter: ActivityFilter = { profileId: PROFILE };
const seqs = (w: EntryWindow, from: number, to: number) =>
  Array.from({ length: to - from }, (_, i) => w.at(from + i)?.seq);

describe('the rows of the Activity view', () => {
  it('asks only for the pages in view, and none twice while one is on its way', () => {
    const source = log(100_000);
    const w = new EntryWindow(filter, matchesFilter);
    const first = w.missing(0, 20);
    expect(first).toEqual([{ page: 0, offset: 0, limit: PAGE_SIZE }]);
    w.asked(first[0]!);
    expect(w.missing(0, 20)).toEqual([]);
    w.received(first[0]!, source.page(first[0]!));
    expect(w.total).toBe(100_000);
    expect(w.missing(0, 40)).toEqual([]);
    // Scrolled deep: the one page that covers the rows in view.
    const deep = w.missing(54_321, 54_360);
    expect(deep).toEqual([{ page: 543, offset: 54_300, limit: PAGE_SIZE }]);
    w.asked(deep[0]!);
    w.received(deep[0]!, source.page(deep[0]!));
    expect(seqs(w, 54_321, 54_324)).toEqual([100_000 - 54_321, 100_000 - 54_322, 99_999 - 54_322]);
  });

  it('keeps every row at its place when entries arrive between two reads', () => {
    const source = log(1_000);
    const w = new EntryWindow(filter, matchesFilter);
    const first = w.missing(0, 10)[0]!;
    w.asked(first);
    w.received(first, source.page(first));
    // Two entries are written; the view has heard of one of them only.
    const heard = source.append();
    const unheard = source.append();
    expect(w.heard(heard)).toBe(true);
    expect(w.total).toBe(1_001);
    // Rows 500..519 of the view are snapshot places 499..518: pages 4 and 5; page 4 answers.
    const next = w.missing(500, 520)[0]!;
    expect(next).toEqual({ page: 4, offset: 401, limit: PAGE_SIZE });
    w.asked(next);
    // The answer counts both: its rows are placed by its own total, not by what was heard.
    w.received(next, source.page(next));
    expect([w.total, w.at(0)?.seq, w.at(1)?.seq]).toEqual([1_001, 1_001, 1_000]);
    expect(w.at(1 + 400)?.seq).toBe(600);
    expect(w.at(1 + 498)?.seq).toBe(502);
    // It was read one place lower than asked: its last row is asked for again, where it is now.
    expect(w.at(1 + 499)).toBeUndefined();
    const again = w.missing(500, 520);
    expect(again.map((r) => [r.page, r.offset])).toEqual([
      [4, 402],
      [5, 502],
    ]);
    for (const r of again) {
      w.asked(r);
      w.received(r, source.page(r));
    }
    expect(seqs(w, 1 + 498, 1 + 501)).toEqual([502, 501, 500]);
    expect(w.missing(500, 520)).toEqual([]);
    // The other one is heard late: it joins the top, the rest moves down by one.
    expect(w.heard(unheard)).toBe(true);
    expect([w.total, ...seqs(w, 0, 4)]).toEqual([1_002, 1_002, 1_001, 1_000, 999]);
    expect(w.at(2 + 499)?.seq).toBe(501);
  });

  it('takes a live entry once, and only when it matches the filter', () => {
    const source = log(3);
    const w = new EntryWindow({ profileId: PROFILE, kinds: ['execution-sent'] }, matchesFilter);
    const first = w.missing(0, 10)[0]!;
    w.asked(first);
    w.received(first, source.page(first));
    expect(w.heard(entry(3))).toBe(false);
    expect(w.heard(entry(4, { kind: 'version-deleted' }))).toBe(false);
    expect(w.heard(entry(5, { profileId: STRATEGY }))).toBe(false);
    expect(w.heard(entry(6))).toBe(true);
    expect(w.heard(entry(6))).toBe(false);
    expect([w.total, w.at(0)?.seq, w.at(1)?.seq]).toEqual([4, 6, 3]);
  });

  it('drops an entry heard before the first answer when that answer already holds it', () => {
    const source = log(5);
    const w = new EntryWindow(filter, matchesFilter);
    const first = w.missing(0, 10)[0]!;
    w.asked(first);
    expect(w.heard(entry(5))).toBe(true);
    w.received(first, source.page(first));
    expect([w.total, ...seqs(w, 0, 5)]).toEqual([5, 5, 4, 3, 2, 1]);
  });

  it('asks again for a page that failed', () => {
    const w = new EntryWindow(filter, matchesFilter);
    const first = w.missing(0, 10)[0]!;
    w.asked(first);
    w.failed(first);
    expect(w.missing(0, 10)).toEqual([first]);
  });
});

describe('the live filter and the typed filter', () => {
  it('counts days in UTC, both ends included', () => {
    const at = '2026-03-01T23:30:00.000Z';
    const e = entry(1, { at });
    expect(matchesFilter(e, { profileId: PROFILE, from: '2026-03-01', to: '2026-03-01' })).toBe(
      true,
    );
    expect(matchesFilter(e, { profileId: PROFILE, from: '2026-03-02' })).toBe(false);
    expect(matchesFilter(e, { profileId: PROFILE, to: '2026-02-28' })).toBe(false);
    expect(matchesFilter(e, { profileId: PROFILE, strategyId: STRATEGY })).toBe(true);
    expect(
      matchesFilter(entry(1, { strategyId: null }), { profileId: PROFILE, strategyId: STRATEGY }),
    ).toBe(false);
  });

  it('sends kinds only when some are left out, and refuses a range upside down', () => {
    const all: ActivityKind[] = ['profile-created', 'execution-sent'];
    const base = { profileId: PROFILE, from: '', to: '' };
    const some = readFilter({ ...base, kinds: all });
    expect(some).toEqual({
      ok: true,
      filter: { profileId: PROFILE, kinds: ['profile-created', 'execution-sent'] },
    });
    // A strategy's view holds no profile entries: every other kind is no filter.
    const strategyKinds = ACTIVITY_KINDS.filter((k) => !k.startsWith('profile-'));
    expect(readFilter({ ...base, strategyId: STRATEGY, kinds: strategyKinds })).toEqual({
      ok: true,
      filter: { profileId: PROFILE, strategyId: STRATEGY },
    });
    expect(readFilter({ ...base, strategyId: STRATEGY, kinds: strategyKinds.slice(1) })).toEqual({
      ok: true,
      filter: { profileId: PROFILE, strategyId: STRATEGY, kinds: strategyKinds.slice(1) },
    });
    expect(readFilter({ ...base, kinds: strategyKinds })).toMatchObject({
      filter: { kinds: strategyKinds },
    });
    expect(readFilter({ ...base, kinds: [] })).toMatchObject({
      ok: false,
      problem: { field: 'kinds' },
    });
    expect(
      readFilter({ ...base, kinds: ['execution-sent'], from: '2026-03-02', to: '2026-03-01' }),
    ).toEqual({
      ok: false,
      problem: { field: 'to', error: 'The last day comes before the first day.' },
    });
  });
});
