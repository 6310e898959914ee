import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDeskHarness, type DeskHarness } from '../../support/desk-harness';

/**
 * The service client once spelled its error kinds in snake_case. An entry written then keeps that
 * spelling (it is hashed as stored, and never rewritten), still verifies, is found by the same
 * filters, and shows its kind in today's word.
 */
describe('activity entries written with the old spelling of an error kind', () => {
  let h: DeskHarness;
  let profileId: string;
  let answered: number;
  let deleted: number;
  const strategyId = randomUUID();
  const versionId = randomUUID();

  beforeAll(async () => {
    h = await openDeskHarness({ stepMs: 0 });
    profileId = (await h.desk.profiles.useSandbox({})).id;
    // As an earlier version of the app wrote them: through the log's own append, so chained.
    [answered, deleted] = h.desk.store.activity.record((append) => [
      append({
        profileId,
        kind: 'execution-answered',
        strategyId,
        versionId: null,
        payload: {
          profileName: 'Sandbox',
          journalId: randomUUID(),
          attempt: 1,
          result: 'rejected',
          error: {
            kind: 'unexecuted_version',
            message: 'An unexecuted version must be deleted first.',
            status: 422,
            serviceMessage: null,
          },
        },
      }).seq,
      append({
        profileId,
        kind: 'version-deleted',
        strategyId,
        versionId,
        payload: {
          profileName: 'Sandbox',
          strategyName: 'Core Equity',
          goneAtServiceAlready: false,
          shownBeforeDelete: 'unread-acknowledged',
          readBeforeDelete: null,
          readError: {
            kind: 'bad_response',
            message: 'The service answered in a form the app does not understand.',
            status: 200,
            serviceMessage: null,
            triedAt: '2026-11-20T14:02:00.000Z',
          },
          lastRead: null,
        },
      }).seq,
    ]);
  });
  afterAll(async () => {
    await h.close();
  });

  it('shows the kind in today’s word', async () => {
    expect((await h.desk.activity.get({ seq: answered })).facts).toContainEqual({
      label: 'Error kind',
      value: 'unexecuted-version',
    });
    expect((await h.desk.activity.get({ seq: deleted })).facts).toContainEqual({
      label: 'Read error kind',
      value: 'bad-response',
    });
  });

  it('keeps the entries as written, and the chain verifies', async () => {
    const db = new Database(join(h.dataDir, 'strategy-desk.sqlite'), { readonly: true });
    const payloads = db
      .prepare('SELECT payload FROM activity WHERE seq IN (?, ?) ORDER BY seq')
      .all(answered, deleted) as { payload: string }[];
    db.close();
    expect(payloads.map((p) => p.payload)).toEqual([
      expect.stringContaining('"kind":"unexecuted_version"'),
      expect.stringContaining('"kind":"bad_response"'),
    ]);
    expect(await h.desk.activity.verify({})).toMatchObject({ ok: true, brokenAt: null });
  });

  it('is found by the filters as before', async () => {
    const page = await h.desk.activity.list({
      profileId,
      strategyId,
      kinds: ['execution-answered'],
      offset: 0,
      limit: 10,
    });
    expect(page.entries.map((e) => e.seq)).toEqual([answered]);
  });
});
