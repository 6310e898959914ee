import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { ScheduleRecord } from '../../../../electron/core/store/repositories/attention';
import { openTemp, seedStrategy, versionResponse } from '../../../support/store-fixtures';

// Due by calendar, computed in SQL (store/repositories/attention.ts): the schedule's last due day
// on or before the day asked for, no execution since that day, none within the cooldown. The
// clock is a parameter of the query: each case names its own day.

let temp: ReturnType<typeof openTemp> | undefined;
afterEach(() => {
  temp?.close();
  temp = undefined;
});

function setUp(executedAt: string) {
  temp = openTemp();
  const { store } = temp;
  const { profileId, strategyId } = seedStrategy(store);
  const version = versionResponse(strategyId, {}, { status: 'COMPLETE', executed_at: executedAt });
  store.versions.recordRead(profileId, version, { origin: 'created', syncedAt: executedAt });
  const schedule = (fields: Partial<ScheduleRecord>) =>
    store.attention.addSchedule({
      id: randomUUID(),
      profile_id: profileId,
      strategy_id: strategyId,
      tag: null,
      cadence: 'monthly',
      day: 1,
      on_date: null,
      cooldown_days: 0,
      created_at: executedAt,
      ...fields,
    });
  const due = (now: string) =>
    store.attention
      .signals(profileId, now)
      .filter((s) => s.kind === 'due')
      .map((s) => s.before);
  return { store, profileId, strategyId, schedule, due };
}

describe('due by calendar', () => {
  it('monthly: due from its day of this month (or last month before it) until an execution', () => {
    const t = setUp('2026-01-20T10:00:00.000Z');
    t.schedule({ cadence: 'monthly', day: 15 });
    expect(t.due('2026-02-10T08:00:00.000Z')).toEqual([]); // last due day 2026-01-15: executed after
    expect(t.due('2026-02-15T08:00:00.000Z')).toEqual(['2026-02-15']);
    expect(t.due('2026-03-01T08:00:00.000Z')).toEqual(['2026-02-15']);
  });

  it('quarterly: due from its day of the quarter’s first month', () => {
    const t = setUp('2026-03-20T10:00:00.000Z');
    t.schedule({ cadence: 'quarterly', day: 2 });
    expect(t.due('2026-04-01T08:00:00.000Z')).toEqual([]); // last due day 2026-01-02
    expect(t.due('2026-04-02T08:00:00.000Z')).toEqual(['2026-04-02']);
    expect(t.due('2026-06-30T08:00:00.000Z')).toEqual(['2026-04-02']);
    expect(t.due('2026-12-31T08:00:00.000Z')).toEqual(['2026-10-02']);
  });

  it('a date: due from that day; a cooldown after any execution holds it back', () => {
    const t = setUp('2026-05-01T10:00:00.000Z');
    t.schedule({ cadence: 'date', day: null, on_date: '2026-05-10', cooldown_days: 14 });
    expect(t.due('2026-05-09T08:00:00.000Z')).toEqual([]);
    // Executed 10 days before: within the cooldown of 14 days.
    expect(t.due('2026-05-11T08:00:00.000Z')).toEqual([]);
    expect(t.due('2026-05-15T10:00:00.000Z')).toEqual(['2026-05-10']);
  });

  it('per tag: every strategy with the tag, none without', () => {
    const t = setUp('2026-01-20T10:00:00.000Z');
    t.schedule({
      strategy_id: null,
      tag: 'Income',
      cadence: 'date',
      day: null,
      on_date: '2026-02-01',
    });
    expect(t.due('2026-02-02T08:00:00.000Z')).toEqual([]);
    t.store.book.changeTags(
      t.profileId,
      [t.strategyId],
      ['Income'],
      [],
      '2026-01-21T00:00:00.000Z',
    );
    expect(t.due('2026-02-02T08:00:00.000Z')).toEqual(['2026-02-01']);
  });
});
