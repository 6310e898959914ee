import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_STRATEGY_IDS } from '../../../electron/sandbox';
import { openDeskHarness, sandboxAdmin, type DeskHarness } from '../../support/desk-harness';

const CORE = DEMO_STRATEGY_IDS.coreEquity;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** A service whose execute answer echoes the client secret and the access token it was sent. */
describe('an execute answer echoing the credentials leaves them nowhere on disk', () => {
  let h: DeskHarness;
  let profileId: string;

  beforeAll(async () => {
    h = await openDeskHarness({ clientOptions: { retry: { attempts: 1 } } });
    profileId = (await h.desk.profiles.useSandbox({})).id;
    await h.desk.profiles.testConnection({ profileId });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('the unknown entry in the journal, the database files and the log hold neither', async () => {
    const credentials = await h.desk.knownSecrets();
    // The sandbox profile's secret and the token it was granted.
    expect(credentials).toHaveLength(2);
    const echo = credentials.join(' and ');
    await sandboxAdmin(h.sandbox()!.baseUrl, 'PUT', '/sandbox/faults', {
      reply_next: {
        status: 500,
        content_type: 'application/json',
        body: JSON.stringify({
          message: `failed for ${echo}`,
          errors: { client_secret: [credentials[0]], [echo]: [`sent ${echo}`] },
        }),
      },
    });
    const draft = await h.desk.drafts.create({
      profileId,
      strategyId: CORE,
      name: 'echoed',
      start: 'target',
    });
    await expect(h.desk.versions.execute({ draftId: draft.id })).rejects.toMatchObject({
      kind: 'server',
    });

    const [entry] = await h.desk.versions.journal({ profileId });
    expect(entry?.state).toBe('unknown');
    // The journal's event carries the same entries, cleaned the same way.
    const announced = h.events.filter((e) => e.type === 'journal-changed').at(-1);
    // With the status bar's figures as the status gives them now: the unknown outcome counted.
    const { runningVersions, lastSyncAt, needsAttention, failedUnacknowledged } =
      await h.desk.app.status({});
    expect(needsAttention).toBe(1);
    expect(announced).toEqual({
      type: 'journal-changed',
      profileId,
      inFlight: [entry],
      appStatus: { runningVersions, lastSyncAt, needsAttention, failedUnacknowledged },
    });
    expect(entry?.error).toContain('failed for [redacted] and [redacted]');
    await h.desk.log.flush();
    const files = filesUnder(h.dataDir);
    expect(files.some((f) => f.endsWith('.sqlite-wal') || f.endsWith('.sqlite'))).toBe(true);
    for (const file of files) {
      const bytes = readFileSync(file);
      for (const secret of credentials) expect(bytes.includes(secret), file).toBe(false);
    }
  });
});
