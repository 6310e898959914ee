import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobEnded } from '../../support/book';
import { openDeskHarness, type DeskHarness } from '../../support/desk-harness';

const MILLION = 1_000_000;
const ID = 'c3633e1d-f6c8-49fb-97e5-80b6e09e9a21';

/**
 * Texts of a million characters made to make a backtracking parser quadratic: runs of spaces,
 * invisible spaces and quotes between two characters that are not, on one line and on many, in
 * one column and in a CSV cell.
 */
const ADVERSARIAL: Record<string, string> = {
  'spaces between two letters': `a${' '.repeat(MILLION - 2)}a`,
  'quotes between two letters': `a${'"'.repeat(MILLION - 2)}a`,
  'zero-width spaces and quotes': `a${'\u200b\u201c '.repeat((MILLION - 2) / 3)}a`,
  'a thousand lines of spaces': `${' '.repeat(998)}a\n`.repeat(MILLION / 1000),
  'a CSV cell of spaces before a quote': `${ID},${' '.repeat(MILLION / 2)}"x"${' '.repeat(MILLION / 2 - 100)}"`,
};
/** The same length, nothing to backtrack over: what a linear parser takes for a million. */
const BASELINE = `${ID}\n`.repeat(MILLION / (ID.length + 1));

/**
 * "Add many" reads a pasted list in the main process: however the text is made, reading it is
 * linear, so a paste of a million characters never freezes the app (one of 80,000 spaces between
 * two letters once blocked it 13 s). Timed against a plain list of the same length in the same
 * process, with a floor of a second, so a slow machine does not fail it.
 */
describe('a hostile paste into "Add many"', () => {
  let h: DeskHarness;
  let profileId: string;

  beforeAll(async () => {
    h = await openDeskHarness({ stepMs: 5 });
    profileId = (await h.desk.profiles.useSandbox({})).id;
  });
  afterAll(async () => {
    await h?.close();
  });

  /** Milliseconds the add takes to be read and started; its job waited for after. */
  async function timedAdd(text: string): Promise<number> {
    const started = performance.now();
    const job = await h.desk.book.addMany({ profileId, text });
    const took = performance.now() - started;
    if (job.state === 'running') await jobEnded(h, job.id);
    return took;
  }

  it('reads each adversarial text of a million characters in linear time', async () => {
    const baseline = await timedAdd(BASELINE);
    const bound = Math.max(1_000, 10 * baseline);
    for (const [name, text] of Object.entries(ADVERSARIAL)) {
      expect(text.length, name).toBeGreaterThanOrEqual(MILLION - 100);
      expect(await timedAdd(text), name).toBeLessThan(bound);
    }
  });

  /**
   * While a paste is read, the event loop goes on: a turn scheduled just after the add was asked
   * for comes (more than once) before the add answers, and a desk call made on that turn answers
   * first. Read in one go, the add would answer before any turn.
   */
  it('lets the event loop and other desk calls take turns while a million characters are read', async () => {
    for (const [name, text] of Object.entries(ADVERSARIAL)) {
      const order: string[] = [];
      let reading = true;
      const turn = () => {
        if (!reading) return;
        order.push('turn');
        if (order.length === 1)
          void h.desk.book.summary({ profileId }).then(() => order.push('summary'));
        setImmediate(turn);
      };
      const adding = h.desk.book.addMany({ profileId, text });
      setImmediate(turn);
      const job = await adding;
      reading = false;
      order.push('add');
      expect(order.slice(0, 3), name).toEqual(['turn', 'summary', 'turn']);
      expect(order.at(-1), name).toBe('add');
      if (job.state === 'running') await jobEnded(h, job.id);
    }
  });
});
