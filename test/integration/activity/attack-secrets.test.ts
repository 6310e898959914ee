import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CLIENTS, DEMO_STRATEGY_IDS, DEMO_VERSION_IDS } from '../../../electron/sandbox';
import { openDeskHarness, sandboxAdmin, type DeskHarness } from '../../support/desk-harness';

const CORE = DEMO_STRATEGY_IDS.coreEquity;
const SECRET = DEMO_CLIENTS.manager.client_secret;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/**
 * A profile created, its secret replaced, an execution whose answer echoes the secret and the
 * token: no activity entry, no export and no log line holds either.
 */
describe('the activity log and its exports never hold a credential', () => {
  let h: DeskHarness;

  beforeAll(async () => {
    h = await openDeskHarness({ clientOptions: { retry: { attempts: 1 } } });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('records the secret replaced and the echoed answer without them', async () => {
    const { baseUrl } = await h.startSandbox();
    const profile = await h.desk.profiles.create({
      name: 'Audit',
      baseUrl,
      clientId: DEMO_CLIENTS.manager.client_id,
      secret: SECRET,
    });
    const profileId = profile.id;
    // The secret entered again (replaced by the same value) with a new name.
    await h.desk.profiles.update({ profileId, name: 'Audit 2', secret: SECRET });
    await h.desk.strategies.add({ profileId, strategyId: CORE });
    // The target the draft starts from.
    await h.desk.versions.import({
      profileId,
      strategyId: CORE,
      versionId: DEMO_VERSION_IDS.coreEquityExecuted,
    });
    const credentials = await h.desk.knownSecrets();
    // The profile's secret and the token it was granted for adding the strategy.
    expect(credentials).toContain(SECRET);
    expect(credentials).toHaveLength(2);
    const echo = credentials.join(' and ');
    const draft = await h.desk.drafts.create({
      profileId,
      strategyId: CORE,
      name: 'echoed',
      start: 'target',
    });
    await sandboxAdmin(baseUrl, 'PUT', '/sandbox/faults', {
      reply_next: {
        status: 422,
        content_type: 'application/json',
        body: JSON.stringify({ message: `refused for ${echo}`, errors: { [echo]: [echo] } }),
      },
    });
    // Sent without the dialog, as a script would: the answer is the only request that meets it.
    await expect(h.desk.versions.execute({ draftId: draft.id })).rejects.toMatchObject({
      status: 422,
    });

    const { entries } = await h.desk.activity.list({ profileId, offset: 0, limit: 50 });
    const kinds = entries.map((e) => e.kind).reverse();
    expect(kinds).toEqual([
      'profile-created',
      'profile-changed',
      'strategy-added',
      'version-imported',
      'execution-sent',
      'execution-answered',
    ]);
    const changed = await h.desk.activity.get({ seq: entries.at(-2)!.seq });
    expect(changed.summary).toBe(
      'Profile changed: name “Audit” → “Audit 2”; client secret replaced',
    );
    const answered = await h.desk.activity.get({ seq: entries[0]!.seq });
    expect(JSON.stringify(answered)).toContain('refused for [redacted] and [redacted]');

    const csv = (await h.desk.activity.export({ filter: { profileId }, format: 'csv' }))!;
    const jsonl = (await h.desk.activity.export({ filter: { profileId }, format: 'jsonl' }))!;
    await h.desk.log.flush();
    const files = [csv.path, jsonl.path, ...filesUnder(h.dataDir)];
    expect(files.some((f) => f.endsWith('.log'))).toBe(true);
    for (const file of new Set(files)) {
      const bytes = readFileSync(file);
      for (const credential of credentials) expect(bytes.includes(credential), file).toBe(false);
    }
  });
});
