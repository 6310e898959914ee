import { describe, expect, it } from 'vitest';
import type { BookJob, BookRow } from '../../../shared/book/views';
import { BookRows, choiceWith, laterJob, NO_CHOICE } from '../../../renderer/src/book/book-rows';

const row = (strategyId: string, name = strategyId): BookRow => ({
  strategyId,
  name,
  tags: [],
  model: null,
  target: { state: 'unknown', versionId: null, executedAt: null, symbols: [] },
  holdingsCount: 0,
  heldSymbols: [],
  lastVersion: null,
  running: false,
  liquidateOnlyReason: null,
  flags: [],
  refreshFailure: null,
  syncedAt: '2026-01-01T00:00:00.000Z',
});

const job = (state: BookJob['state'], done: number, id = 'j1'): BookJob => ({
  id,
  kind: 'add',
  state,
  total: 9,
  done,
  failed: 0,
  inFlight: 0,
  waitingUntil: null,
  concurrency: 4,
  startedAt: '2026-01-01T00:00:00.000Z',
  endedAt: null,
  outcomes: null,
  lines: 9,
});

describe('the book rows a screen holds', () => {
  it('places rows by their place, knows whole pages, and drops rows past a shrunk end', () => {
    const rows = new BookRows();
    rows.received(0, [row('a'), row('b'), row('c')], 3);
    expect(rows.at(1)?.strategyId).toBe('b');
    expect(rows.hasPage(0, 2, 3)).toBe(true);
    expect(rows.hasPage(1, 2, 3)).toBe(true);
    rows.received(0, [row('a')], 1);
    expect(rows.at(1)).toBeUndefined();
    expect(rows.hasPage(1, 2, 3)).toBe(false);
  });

  it('replaces the rows read again elsewhere, in place', () => {
    const rows = new BookRows();
    rows.received(0, [row('a'), row('b')], 2);
    expect(rows.replace([row('b', 'B renamed'), row('z')])).toBe(true);
    expect(rows.at(1)?.name).toBe('B renamed');
    expect(rows.replace([row('z')])).toBe(false);
  });

  it('keeps a choice without changing the one it was made from', () => {
    const one = choiceWith(NO_CHOICE, 'a', true);
    const two = choiceWith(one, 'b', true);
    expect([...two]).toEqual(['a', 'b']);
    expect([...choiceWith(two, 'a', false)]).toEqual(['b']);
    expect([...one]).toEqual(['a']);
    expect(NO_CHOICE.size).toBe(0);
  });
});

describe('the later of two views of a read of many strategies', () => {
  it('keeps an ended view over a running one heard after it (an answer late behind its events)', () => {
    expect(laterJob(job('finished', 9), job('running', 0))).toMatchObject({ state: 'finished' });
    expect(laterJob(job('cancelled', 3), job('running', 2))).toMatchObject({ state: 'cancelled' });
  });

  it('takes the newer progress, and another read as it comes', () => {
    expect(laterJob(job('running', 2), job('running', 5)).done).toBe(5);
    expect(laterJob(job('running', 5), job('running', 2)).done).toBe(5);
    expect(laterJob(job('running', 5), job('finished', 9)).state).toBe('finished');
    expect(laterJob(job('finished', 9), job('running', 0, 'j2')).id).toBe('j2');
    expect(laterJob(null, job('running', 0)).id).toBe('j1');
  });
});
