import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedActivity } from '../../support/activity-seed';
import { openDeskHarness, type DeskHarness } from '../../support/desk-harness';

// "Check again" on a long log never stalls the desk: the walk yields between slices, so the
// desk's other calls (an execute's answer, a batch in flight) are answered while it runs.

const PROFILE = '33333333-3333-4333-8333-333333333333';
const ENTRIES = 20_000;
let h: DeskHarness;

beforeAll(async () => {
  h = await openDeskHarness();
  seedActivity(h.desk.store, { profileId: PROFILE, profileName: 'Long log', count: ENTRIES });
}, 60_000);
afterAll(() => h.close());

describe('checking the log alongside other calls', () => {
  it('answers other calls between slices of the walk, and the walk finds the log whole', async () => {
    let ended = false;
    const walking = h.desk.activity.verify({}).finally(() => (ended = true));
    let answered = 0;
    // One call per turn of the event loop until the walk ends.
    while (!ended) {
      await new Promise((resolve) => setImmediate(resolve));
      if (ended) break;
      await h.desk.activity.list({ profileId: PROFILE, offset: 0, limit: 1 });
      answered += 1;
    }
    expect(await walking).toMatchObject({ ok: true, brokenAt: null });
    expect((await walking).entries).toBeGreaterThanOrEqual(ENTRIES);
    // Slices of 200 entries: a hundred turns at least, each answering a call.
    expect(answered).toBeGreaterThanOrEqual(ENTRIES / 200 / 2);
  });

  it('a second "Check again" while one walks is answered by that walk', async () => {
    const [first, second] = await Promise.all([
      h.desk.activity.verify({}),
      h.desk.activity.verify({}),
    ]);
    expect(second).toBe(first);
    expect(await h.desk.activity.lastCheck({})).toEqual(first);
  });
});
