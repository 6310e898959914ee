import { describe, expect, it } from 'vitest';
import type { DeskEvent } from '../../../../shared/contract';
import type { BookRow } from '../../../../shared/book/views';
import {
  BookAnnouncer,
  ROWS_PER_TURN,
  type AnnouncedRows,
} from '../../../../electron/core/book/announce';

const PROFILE = '7d7f6f3e-31a4-4a3c-9d0e-2a5b8c1d9e01';

/**
 * The book's rows as the announcer sees them (a fake of queries.ts): `marked` are the rows the
 * store's triggers marked, worked out a few at a time or all at once, as the real ones are.
 */
function fakeBook(marked: string[], log: string[]) {
  const book: AnnouncedRows = {
    workOutSome(_profileId, limit) {
      const strategyIds = marked.splice(0, limit);
      log.push(`worked out ${strategyIds.length}`);
      return { strategyIds, places: new Set(['flags']), more: marked.length > 0 };
    },
    rowsChanged(profileId, moved, places, added) {
      for (const id of marked.splice(0)) moved.add(id);
      if (moved.size === 0 && !added) return null;
      return {
        type: 'book-rows-changed',
        profileId,
        rows: [...moved].map((strategyId) => ({ strategyId }) as BookRow),
        counts: {} as never,
        placesMoved: [...places],
      };
    },
  };
  return book;
}

/** Logs each turn of the event loop until `stop`: whatever ran between two turns ran in one. */
function countTurns(log: string[]) {
  let going = true;
  const turn = () => {
    if (!going) return;
    log.push('turn');
    setImmediate(turn);
  };
  setImmediate(turn);
  return () => (going = false);
}

/** Resolves once `done` says so, looked at each turn of the loop. */
function until(done: () => boolean) {
  return new Promise<void>((resolve) => {
    const look = () => {
      if (done()) resolve();
      else setImmediate(look);
    };
    look();
  });
}

const rowsOf = (events: DeskEvent[]) =>
  events.flatMap((e) => (e.type === 'book-rows-changed' ? e.rows.map((r) => r.strategyId) : []));

describe('the book’s announcer', () => {
  it('works the marked rows out a few per turn of the loop on its timer, then tells them in one announcement', async () => {
    const marked = Array.from({ length: 3 * ROWS_PER_TURN + 2 }, (_, i) => `s${i}`);
    const all = [...marked];
    const log: string[] = [];
    const events: DeskEvent[] = [];
    const announcer = new BookAnnouncer(fakeBook(marked, log), (e) => events.push(e));
    announcer.soon(PROFILE);
    const stop = countTurns(log);
    await until(() => events.length > 0);
    stop();

    const chunks = log.filter((l) => l.startsWith('worked out'));
    expect(chunks).toEqual([
      `worked out ${ROWS_PER_TURN}`,
      `worked out ${ROWS_PER_TURN}`,
      `worked out ${ROWS_PER_TURN}`,
      'worked out 2',
    ]);
    // Never two pieces of work in one turn: an answer arriving meanwhile waits for one piece.
    expect(log.join(', ')).not.toMatch(/worked out \d+, worked out/);
    expect(events.map((e) => e.type)).toEqual(['book-rows-changed']);
    expect(rowsOf(events)).toEqual(all);
  });

  it('a job’s end told meanwhile carries the rows worked out so far; the timer’s run then tells nothing twice', async () => {
    const marked = Array.from({ length: 4 * ROWS_PER_TURN }, (_, i) => `s${i}`);
    const all = [...marked];
    const log: string[] = [];
    const events: DeskEvent[] = [];
    const announcer = new BookAnnouncer(fakeBook(marked, log), (e) => events.push(e));
    announcer.soon(PROFILE);
    // As soon as the first piece is worked out, the job ends and is told at once.
    await until(() => log.length > 0);
    announcer.now(PROFILE);
    await new Promise((resolve) => setTimeout(resolve, 300));

    expect(events.map((e) => e.type)).toEqual(['book-rows-changed']);
    expect(rowsOf(events)).toEqual(all);
  });

  it.each([
    ['its profile is forgotten (removed)', (a: BookAnnouncer) => a.forget(PROFILE)],
    ['the desk closes', (a: BookAnnouncer) => a.close()],
  ])('stops working out once %s, and tells nothing after', async (_when, stop) => {
    const marked = Array.from({ length: 4 * ROWS_PER_TURN }, (_, i) => `s${i}`);
    const log: string[] = [];
    const events: DeskEvent[] = [];
    const announcer = new BookAnnouncer(fakeBook(marked, log), (e) => events.push(e));
    announcer.soon(PROFILE);
    await until(() => log.length > 0);
    stop(announcer);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(log).toEqual([`worked out ${ROWS_PER_TURN}`]);
    expect(events).toEqual([]);
  });
});
