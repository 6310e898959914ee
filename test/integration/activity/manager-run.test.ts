import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityEntrySummary } from '../../../shared/activity/views';
import type { DeskEvent } from '../../../shared/contract';
import { DeskError } from '../../../shared/views';
import { DEMO_CLIENTS, DEMO_STRATEGY_IDS, DEMO_VERSION_IDS } from '../../../electron/sandbox';
import { openDeskHarness, sandboxAdmin, type DeskHarness } from '../../support/desk-harness';
import { deleteShown } from '../../support/delete-version';

const CORE = DEMO_STRATEGY_IDS.coreEquity;
const DIVIDEND = DEMO_STRATEGY_IDS.dividendGrowth;
const SCHEDULED = DEMO_VERSION_IDS.dividendGrowthScheduled;
const SECRET = DEMO_CLIENTS.manager.client_secret;
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** Runs `npm run verify-activity -- FILE` as a manager would (tsx, no app). */
function verifyActivity(file: string) {
  const run = spawnSync(
    process.execPath,
    [join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'scripts/verify-activity.ts', file],
    { cwd: ROOT, encoding: 'utf8' },
  );
  return { status: run.status, out: `${run.stdout}${run.stderr}`.trim() };
}

describe('a manager’s day, every action checked against the activity log', () => {
  let h: DeskHarness;
  let profileId: string;
  let baseUrl: string;
  const appended = (kind: string, versionId?: string) => (e: DeskEvent) =>
    e.type === 'activity-appended' &&
    e.entry.kind === kind &&
    (versionId === undefined || e.entry.versionId === versionId);
  const admin = (method: string, path: string, body?: unknown) =>
    sandboxAdmin(baseUrl, method, path, body);
  const all = async (): Promise<ActivityEntrySummary[]> =>
    (await h.desk.activity.list({ profileId, offset: 0, limit: 500 })).entries.reverse();

  /** A draft of Core Equity with one weight moved, executed through the confirmation. */
  async function executeConfirmed(name: string, jpm: string) {
    const draft = await h.desk.drafts.create({
      profileId,
      strategyId: CORE,
      name,
      start: 'target',
    });
    await h.desk.drafts.saveRows({
      draftId: draft.id,
      rows: draft.rows.map((r) =>
        r.symbol === 'JPM'
          ? { ...r, weight: jpm }
          : r.symbol === 'AAPL'
            ? { ...r, weight: String(23 - Number(jpm)) }
            : r,
      ),
    });
    const preview = await h.desk.versions.prepareExecute({ draftId: draft.id });
    const confirmation = {
      planKey: preview.planKey,
      acknowledgedStale: preview.check?.fits === false,
      againAfter: null,
    };
    return { draft, run: h.desk.versions.execute({ draftId: draft.id, confirmation }) };
  }

  beforeAll(async () => {
    h = await openDeskHarness({ stepMs: 0 });
    baseUrl = (await h.startSandbox()).baseUrl;
  });
  afterAll(async () => {
    await h?.close();
  });

  it('records the run in order, with what a reviewer needs, and verifies', async () => {
    const profile = await h.desk.profiles.create({
      name: 'Demo',
      baseUrl,
      clientId: DEMO_CLIENTS.manager.client_id,
      secret: SECRET,
    });
    profileId = profile.id;
    await h.desk.strategies.add({ profileId, strategyId: CORE });
    await h.desk.strategies.add({ profileId, strategyId: DIVIDEND });
    // A refresh of a strategy already here is not an addition.
    await h.desk.strategies.refresh({ profileId, strategyId: CORE });
    await h.desk.versions.import({ profileId, strategyId: DIVIDEND, versionId: SCHEDULED });
    // The target Core Equity was last executed to, so drafts start from it.
    await h.desk.versions.import({
      profileId,
      strategyId: CORE,
      versionId: DEMO_VERSION_IDS.coreEquityExecuted,
    });

    // 1. An execution through the confirmation, followed to its end.
    const first = await executeConfirmed('Tilt to banks', '9');
    const { version: v1, journalId: j1 } = await first.run;
    await h.waitFor(appended('version-ended', v1.id));

    // 2. The scheduled version is deleted.
    await deleteShown(h.desk, { profileId, strategyId: DIVIDEND, versionId: SCHEDULED });

    // 3. An execution whose answer is lost (the service committed it), sent again.
    await admin('PUT', '/sandbox/faults', { drop_after_commit_next: 1 });
    const second = await executeConfirmed('Back to target', '8');
    await expect(second.run).rejects.toBeInstanceOf(DeskError);
    const [unclear] = await h.desk.versions.journal({ profileId });
    expect(unclear).toMatchObject({ state: 'unknown' });
    const retried = await h.desk.versions.retryExecution({ journalId: unclear!.id });
    await h.waitFor(appended('version-ended', retried.version.id));

    // 4. Another lost answer, dismissed this time.
    await admin('PUT', '/sandbox/faults', { drop_after_commit_next: 1 });
    const third = await executeConfirmed('Left alone', '7');
    await expect(third.run).rejects.toBeInstanceOf(DeskError);
    const [left] = await h.desk.versions.journal({ profileId });
    await h.desk.versions.dismissExecution({ journalId: left!.id });

    // 5. An execution sent without the dialog, refused by the service.
    const refusedDraft = await h.desk.drafts.create({
      profileId,
      strategyId: CORE,
      name: 'Refused',
      start: 'target',
    });
    await admin('PUT', '/sandbox/faults', {
      reply_next: {
        status: 422,
        body: JSON.stringify({ errors: { positions: ['unknown symbols: FOO'] } }),
      },
    });
    await expect(h.desk.versions.execute({ draftId: refusedDraft.id })).rejects.toMatchObject({
      status: 422,
    });

    // 6. The strategy goes, the profile moves and is renamed, then goes.
    await h.desk.strategies.remove({ profileId, strategyId: DIVIDEND });
    const moved = baseUrl.replace('127.0.0.1', 'localhost');
    await h.desk.profiles.update({
      profileId,
      name: '=Demo fund',
      baseUrl: moved,
      sendSecretToNewAddress: true,
    });

    const entries = await all();
    expect(entries.map((e) => e.kind)).toEqual([
      'profile-created',
      'strategy-added',
      'strategy-added',
      'version-imported',
      'version-imported',
      'execution-sent',
      'execution-answered',
      'version-ended',
      'version-deleted',
      'execution-sent',
      'execution-answered',
      'execution-retried',
      'execution-answered',
      'version-ended',
      'execution-sent',
      'execution-answered',
      'execution-dismissed',
      'execution-sent',
      'execution-answered',
      'strategy-removed',
      'profile-changed',
    ]);
    expect(entries.map((e) => e.chainIndex)).toEqual(entries.map((_, i) => i + 1));
    const detail = (i: number) => h.desk.activity.get({ seq: entries[i]!.seq });
    const fact = (d: { facts: { label: string; value: string }[] }, label: string) =>
      d.facts.find((f) => f.label === label)?.value;

    // The first execution: profile, environment, address, draft, key, body, prediction, answer.
    const sent = await detail(5);
    const journal = h.desk.store.journal.get(j1)!;
    expect(sent.strategyId).toBe(CORE);
    expect(fact(sent, 'Profile')).toBe('Demo');
    expect(fact(sent, 'Environment')).toBe('production');
    expect(fact(sent, 'Service address')).toBe(baseUrl);
    expect(fact(sent, 'Draft')).toBe(`Tilt to banks (${first.draft.id})`);
    expect(fact(sent, 'Idempotency-Key')).toBe(journal.idempotencyKey);
    expect(fact(sent, 'Body sent')).toBe(journal.requestBody);
    expect(fact(sent, 'Confirmed in the dialog')).toBe('Yes');
    expect(sent.tables.map((t) => t.title)).toEqual(['Positions sent', 'Prediction shown']);
    expect(sent.tables[0]!.rows).toContainEqual(['JPM', '9']);
    // Flags read as words, like the facts: not `true` or `false`.
    const shown = sent.tables[1]!;
    const sellsAll = shown.columns.indexOf('Sells all');
    expect(new Set(shown.rows.map((r) => r[sellsAll]))).toEqual(new Set(['No']));
    expect(sent.linked.map((l) => l.kind)).toEqual(['execution-answered', 'version-ended']);
    expect(sent.outcome).toMatch(/^Complete: \d+ orders? filled, [\d,.]+ filled value/);
    const answer = await detail(6);
    expect(answer).toMatchObject({
      versionId: v1.id,
      refersTo: { seq: sent.seq },
      // An answer names its strategy through the execution it answers.
      strategyName: 'Core Equity',
    });
    expect(fact(answer, 'Strategy')).toBe(`Core Equity (${CORE})`);
    // A removed strategy's entries keep the name they were written with.
    const removed = entries.filter((e) => e.strategyId === DIVIDEND);
    expect(removed.length).toBeGreaterThan(1);
    expect(removed.every((e) => e.strategyName === 'Dividend Growth')).toBe(true);
    expect(fact(answer, 'Result')).toBe('Accepted');
    const end = await detail(7);
    expect(end.refersTo?.seq).toBe(sent.seq);
    expect(fact(end, 'Final status')).toBe('COMPLETE');
    expect(fact(end, 'Compared with the prediction')).toMatch(/matched|differed/);
    expect(end.tables[0]!.title).toBe('Orders');

    // The deleted version: its full content as read just before deleting it.
    const deleted = await detail(8);
    expect(deleted.versionId).toBe(SCHEDULED);
    expect(fact(deleted, 'Content')).toMatch(/^Read from the service just before deleting/);
    expect(fact(deleted, 'Status')).toBe('SCHEDULED');
    expect(deleted.tables.find((t) => t.title === 'Positions')!.rows.length).toBeGreaterThan(0);

    // The unclear execution, its retry with the same key, then its answer.
    const unclearSent = await detail(9);
    expect(unclearSent.linked.map((l) => l.kind)).toEqual([
      'execution-answered',
      'execution-retried',
      'execution-answered',
      'version-ended',
    ]);
    expect(fact(await detail(10), 'Result')).toBe('Unclear');
    // The kind the client gave the lost answer is kept with it.
    expect(['network', 'timeout', 'server', 'bad-response']).toContain(
      fact(await detail(10), 'Error kind'),
    );
    expect(fact(await detail(11), 'Idempotency-Key')).toBe(fact(unclearSent, 'Idempotency-Key'));
    expect((await detail(12)).versionId).toBe(retried.version.id);
    expect((await detail(16)).refersTo?.seq).toBe(entries[14]!.seq);
    expect(entries[14]!.outcome).toBe('Dismissed');

    // The refusal: sent without the dialog, answered with the service's status.
    const unconfirmed = await detail(17);
    expect(fact(unconfirmed, 'Confirmed in the dialog')).toBe('No');
    expect(fact(unconfirmed, 'Draft')).toBe(`Refused (${refusedDraft.id})`);
    const refusal = await detail(18);
    expect(fact(refusal, 'Result')).toBe('Refused');
    expect(fact(refusal, 'HTTP status')).toBe('422');
    expect(entries[17]!.outcome).toMatch(/^Refused: 422 /);

    // The address change named old → new; the rename too.
    const changed = await detail(20);
    expect(changed.summary).toBe(
      `Profile changed: name “Demo” → “=Demo fund”; address ${baseUrl} → ${moved}; ` +
        'stored client secret allowed to the new address',
    );

    // Removing the profile keeps its entries, and appends one.
    await h.desk.profiles.remove({ profileId });
    const kept = await all();
    expect(kept).toHaveLength(22);
    expect(kept.at(-1)).toMatchObject({ kind: 'profile-removed', profileName: '=Demo fund' });

    // By strategy, by kind, by day.
    const core = await h.desk.activity.list({ profileId, strategyId: CORE, offset: 0, limit: 50 });
    expect(core.entries.every((e) => e.strategyId === CORE)).toBe(true);
    expect(core.total).toBe(kept.filter((e) => e.strategyId === CORE).length);
    const ends = await h.desk.activity.list({
      profileId,
      kinds: ['version-ended'],
      offset: 0,
      limit: 50,
    });
    expect(ends.total).toBe(2);
    const today = kept[0]!.at.slice(0, 10);
    expect(
      (await h.desk.activity.list({ profileId, from: today, to: today, offset: 0, limit: 1 }))
        .total,
    ).toBe(22);
    expect(
      (await h.desk.activity.list({ profileId, to: '2000-01-01', offset: 0, limit: 1 })).total,
    ).toBe(0);

    expect(await h.desk.activity.verify({})).toMatchObject({
      ok: true,
      entries: 22,
      brokenAt: null,
    });
  });

  it('exports CSV and JSON Lines that verify on their own, and never holds the secret', async () => {
    const csv = (await h.desk.activity.export({ filter: { profileId }, format: 'csv' }))!;
    expect(csv.rows).toBe(22);
    const csvText = readFileSync(csv.path, 'utf8');
    const csvLines = csvText.split('\r\n');
    expect(csvLines[0]).toBe(
      'seq,chain_index,at,profile,kind,strategy_id,version_id,refers_to,summary,payload,previous_hash,hash',
    );
    expect(csvLines).toHaveLength(24);
    // A name a spreadsheet would run as a formula is neutralized.
    expect(csvLines.at(-2)).toContain(",'=Demo fund,Profile removed,");

    const jsonl = (await h.desk.activity.export({ filter: { profileId }, format: 'jsonl' }))!;
    const lines = readFileSync(jsonl.path, 'utf8').trimEnd().split('\n');
    expect(JSON.parse(lines[0]!)).toMatchObject({
      format: 'strategy-desk-activity',
      version: 1,
      profileId,
      entries: 22,
    });
    expect(lines).toHaveLength(23);
    expect(verifyActivity(jsonl.path)).toEqual({
      status: 0,
      out: `OK: 22 entries, chain 1..22 of profile =Demo fund`,
    });

    // A strategy's export skips indexes but still checks out; an edited one does not.
    const coreOnly = (await h.desk.activity.export({
      filter: { profileId, strategyId: CORE },
      format: 'jsonl',
    }))!;
    expect(verifyActivity(coreOnly.path).status).toBe(0);
    const edited = join(h.dataDir, 'edited.jsonl');
    const sixth = JSON.parse(lines[6]!) as { payload: { draftName: string } };
    sixth.payload.draftName = 'Tilt to bonds';
    writeFileSync(
      edited,
      [...lines.slice(0, 6), JSON.stringify(sixth), ...lines.slice(7)].join('\n'),
    );
    const broken = verifyActivity(edited);
    expect(broken.status).toBe(1);
    expect(broken.out).toMatch(/^Entry 6 of profile Demo \(.+ UTC\) does not match its hash/);
    const cut = join(h.dataDir, 'cut.jsonl');
    writeFileSync(cut, [...lines.slice(0, 3), ...lines.slice(4)].join('\n') + '\n');
    expect(verifyActivity(cut).out).toBe(
      'Entry 3 of profile Demo is missing: the chain jumps from 2 to 4.',
    );

    for (const file of [csv.path, jsonl.path])
      expect(readFileSync(file, 'utf8')).not.toContain(SECRET);
    const db = new Database(h.desk.store.path, { readonly: true });
    const payloads = db.prepare('SELECT payload FROM activity').all() as { payload: string }[];
    db.close();
    expect(payloads.some((p) => p.payload.includes(SECRET))).toBe(false);
  });

  it('finds one byte edited in the database file at start, and names the entry', async () => {
    await h.desk.close();
    const path = h.desk.store.path;
    const db = new Database(path);
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    const bytes = readFileSync(path);
    expect(bytes.includes(SECRET)).toBe(false);
    // The deleted version's entry is the only one that says whether it was gone already.
    const at = bytes.indexOf('"goneAtServiceAlready":false');
    expect(at).toBeGreaterThan(0);
    bytes[at + '"goneAtServiceAlready":'.length] = 'F'.charCodeAt(0);
    writeFileSync(path, bytes);

    const desk = await h.restart();
    let check = await desk.activity.lastCheck({});
    for (let i = 0; check === null && i < 500; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      check = await desk.activity.lastCheck({});
    }
    expect(check).toMatchObject({ ok: false, entries: 22, brokenAt: { chainIndex: 9 } });
    expect(check!.brokenAt!.reason).toMatch(
      /^Entry 9 of profile Demo \(\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC\) does not match its hash: its content was changed after it was written\.$/,
    );
  });
});
