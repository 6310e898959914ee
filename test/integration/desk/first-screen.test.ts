import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOOK_PAGE, WHOLE_BOOK } from '../../../shared/book/first-page';
import { listChannels } from '../../../shared/contract';
import { dispatchCall } from '../../../electron/transport/dispatch';
import { openDeskHarness, type DeskHarness } from '../../support/desk-harness';

/**
 * `app.firstScreen`, through the real desk, SQLite and the keychain: what the app opens on in one
 * answer is exactly what `profiles.list`, `book.summary` and `book.rows` give, for the profile the
 * page remembers or else the first.
 */
describe("the app's first screen in one call", () => {
  let h: DeskHarness;
  const entry = listChannels().find((c) => c.channel === 'app.firstScreen')!;
  /** As the hosts call it: the input and the answer checked against the contract. */
  const firstScreen = async (profileId: string | null) => {
    const answer = await dispatchCall(h.desk, entry, { profileId });
    if (!answer.ok) throw new Error(`app.firstScreen failed: ${answer.error.message}`);
    return answer.value as Awaited<ReturnType<typeof h.desk.app.firstScreen>>;
  };
  const bookOf = async (profileId: string) => ({
    profileId,
    summary: await h.desk.book.summary({ profileId }),
    page: await h.desk.book.rows({ profileId, query: WHOLE_BOOK, offset: 0, limit: BOOK_PAGE }),
  });

  beforeAll(async () => {
    h = await openDeskHarness({ stepMs: 0 });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('is the welcome screen with no profile: none, and no book', async () => {
    expect(await firstScreen(null)).toEqual({ profiles: [], book: null });
  });

  it("gives the profiles and the remembered profile's book as their own calls give them", async () => {
    const sandbox = await h.desk.profiles.useSandbox({});
    const other = await h.desk.profiles.create({
      name: 'Another book',
      baseUrl: 'http://127.0.0.1:9',
      clientId: 'manager',
      secret: 'another-secret',
    });
    const profiles = await h.desk.profiles.list({});
    expect(profiles.map((p) => p.id).sort()).toEqual([sandbox.id, other.id].sort());

    // None remembered (or one that is no profile's): the first of the list.
    const first = profiles[0]!.id;
    for (const remembered of [null, 'not-a-profile', '00000000-0000-4000-8000-000000000000'])
      expect(await firstScreen(remembered)).toEqual({ profiles, book: await bookOf(first) });

    // The sandbox's book: its three strategies, counted and on the first page.
    const sandboxBook = await firstScreen(sandbox.id);
    expect(sandboxBook).toEqual({ profiles, book: await bookOf(sandbox.id) });
    expect(sandboxBook.book!.summary.counts.strategies).toBe(3);
    expect(sandboxBook.book!.page.rows.map((r) => r.name)).toEqual([
      'Core Equity',
      'Dividend Growth',
      'Fresh Start',
    ]);
    expect(await firstScreen(other.id)).toEqual({ profiles, book: await bookOf(other.id) });
  });
});
