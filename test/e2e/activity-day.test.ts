import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { DEMO_CLIENTS, DEMO_STRATEGY_IDS, DEMO_VERSION_IDS } from '../../electron/sandbox';
import { ActivityDay, fact, RAW } from '../support/activity-day';
import { openBareAppE2E, type BareAppE2E } from '../support/e2e-app';
import {
  chromiumPart,
  collectPageProblems,
  SCREENSHOT_DIR,
  screenshot,
} from '../support/e2e-browser';
import { itNeeds } from '../support/system-parts';
import { deleteShown } from '../support/delete-version';

/**
 * A manager's day, every action checked against the activity log as a reviewer would: after each
 * action exactly the entries it should add (kind, strategy, version, in time order), shown live in
 * the profile's Activity view in Chromium, each one readable there (no raw JSON, no true/false,
 * no undefined/null), executions with an outcome line that says what came of them. The paths:
 * refusals (422 in the dialog, 400 without it), a timeout retried with the same key, a reset
 * connection dismissed, unknown, stale and unconfirmed targets, a service that differed from the
 * prediction, deletes (one already gone), imports, a strategy that does not exist, a profile moved
 * with a new secret, a strategy and the profile removed.
 */
const withChromium = itNeeds(chromiumPart);
const { coreEquity: CORE, dividendGrowth: DIVIDEND, freshStart: FRESH } = DEMO_STRATEGY_IDS;
const { client_id: CLIENT_ID, client_secret: SECRET } = DEMO_CLIENTS.manager;
/** Short enough for a timeout test, long enough for a loaded machine's ordinary answers. */
const REQUEST_MS = 4_000;

describe('a manager’s day, every action checked against the activity log', () => {
  let app: BareAppE2E | undefined;
  let day: ActivityDay;
  let baseUrl = '';

  beforeAll(async () => {
    if (!chromiumPart.available) return;
    app = await openBareAppE2E({
      stepMs: 20,
      clientOptions: { timeouts: { requestMs: REQUEST_MS } },
    });
    baseUrl = (await app.harness.startSandbox()).baseUrl;
    day = new ActivityDay(app, baseUrl);
  }, 120_000);
  afterAll(async () => {
    await app?.close();
  });

  withChromium(
    'each action has exactly its entries, live in the view, readable, with what came of it',
    async () => {
      // The check made at start has run (on the empty log) before the day begins (a second
      // after start when no call comes).
      await expect
        .poll(() => day.desk.activity.lastCheck({}), { timeout: 10_000 })
        .toMatchObject({ entries: 0 });
      // The profile, its strategies (one that does not exist) and two versions by id.
      const profile = await day.desk.profiles.create({
        name: 'Day desk',
        baseUrl,
        clientId: CLIENT_ID,
        secret: SECRET,
      });
      const profileId = (day.profileId = profile.id);
      const page = (day.page = await app!.browser.newPage({
        viewport: { width: 1360, height: 900 },
      }));
      const problems = collectPageProblems(page);
      let listReads = 0;
      page.on('request', (r) => {
        if (r.url().endsWith('/api/activity.list')) listReads++;
      });
      await page.goto(app!.host.url);
      await page.getByRole('button', { name: 'Profile activity' }).click();
      await page.getByRole('heading', { name: 'Activity', level: 2 }).waitFor();
      // The check at start found an empty log: it says so, not that "0 entries" held.
      await page.getByText(/^Nothing was recorded yet at the last check/).waitFor();
      await day.expectAdded([{ kind: 'profile-created', strategyId: null }]);

      for (const id of [CORE, DIVIDEND, FRESH])
        await day.desk.strategies.add({ profileId, strategyId: id });
      await expect(
        day.desk.strategies.add({ profileId, strategyId: randomUUID() }),
      ).rejects.toMatchObject({ kind: 'not-found' });
      await day.expectAdded([
        { kind: 'strategy-added', strategyId: CORE },
        { kind: 'strategy-added', strategyId: DIVIDEND },
        { kind: 'strategy-added', strategyId: FRESH },
      ]);
      const scheduled = DEMO_VERSION_IDS.dividendGrowthScheduled;
      await day.desk.versions.import({
        profileId,
        strategyId: CORE,
        versionId: DEMO_VERSION_IDS.coreEquityExecuted,
      });
      await day.desk.versions.import({ profileId, strategyId: DIVIDEND, versionId: scheduled });
      const [imported] = await day.expectAdded([
        {
          kind: 'version-imported',
          strategyId: CORE,
          versionId: DEMO_VERSION_IDS.coreEquityExecuted,
        },
        { kind: 'version-imported', strategyId: DIVIDEND, versionId: scheduled },
      ]);
      expect(fact(await day.desk.activity.get({ seq: imported!.seq }), 'Status')).toBe('COMPLETE');
      await screenshot(page, 'activity-day-01-setup');

      // 1. Refused by the service (a symbol it does not know), through the confirmation.
      const refusedDraft = await day.draftOf(CORE, 'Unknown symbol', 'target', (rows) => [
        ...rows.map((r) => (r.symbol === 'AAPL' ? { ...r, weight: '14' } : r)),
        { symbol: 'ZZZZ', weight: '1', locked: false },
      ]);
      const refused = await day.executeConfirmed(refusedDraft.id);
      await expect(refused.run).rejects.toMatchObject({ status: 422 });
      const [refusedSent, refusal] = await day.expectAdded([
        { kind: 'execution-sent', strategyId: CORE },
        { kind: 'execution-answered', strategyId: CORE },
      ]);
      expect(refusedSent!.outcome).toMatch(/^Refused: 422 .*ZZZZ/);
      const refusalDetail = await day.desk.activity.get({ seq: refusal!.seq });
      expect(fact(refusalDetail, 'Result')).toBe('Refused');
      expect(fact(refusalDetail, 'HTTP status')).toBe('422');
      expect(fact(refusalDetail, 'Service message')).toMatch(/ZZZZ/);
      expect(refusalDetail.refersTo?.seq).toBe(refusedSent!.seq);
      await screenshot(page, 'activity-day-02-refused');

      // 1b. A 400 to an execution sent without the dialog: refused too, the service's words kept.
      const badDraft = await day.draftOf(CORE, 'Bad request', 'target', (rows) =>
        rows.map((r) => (r.symbol === 'AAPL' ? { ...r, weight: '14.5' } : r)),
      );
      await day.admin('PUT', '/sandbox/faults', {
        reply_next: {
          status: 400,
          body: JSON.stringify({ errors: { detail: 'The body could not be read.' } }),
        },
      });
      await expect(day.desk.versions.execute({ draftId: badDraft.id })).rejects.toMatchObject({
        status: 400,
      });
      const [badSent, badAnswer] = await day.expectAdded([
        { kind: 'execution-sent', strategyId: CORE },
        { kind: 'execution-answered', strategyId: CORE },
      ]);
      expect(badSent!.outcome).toMatch(/^Refused: 400 /);
      const badDetail = await day.desk.activity.get({ seq: badAnswer!.seq });
      expect(fact(badDetail, 'HTTP status')).toBe('400');
      expect(fact(badDetail, 'Service message')).toBe('The body could not be read.');
      expect(
        fact(await day.desk.activity.get({ seq: badSent!.seq }), 'Confirmed in the dialog'),
      ).toBe('No');

      // 2. The scheduled version is deleted.
      await deleteShown(day.desk, { profileId, strategyId: DIVIDEND, versionId: scheduled });
      const [deleted] = await day.expectAdded([
        { kind: 'version-deleted', strategyId: DIVIDEND, versionId: scheduled },
      ]);
      const deletedDetail = await day.desk.activity.get({ seq: deleted!.seq });
      expect(fact(deletedDetail, 'Content')).toMatch(/^Read from the service just before deleting/);
      expect(fact(deletedDetail, 'Status')).toBe('SCHEDULED');
      expect(fact(deletedDetail, 'Already gone at the service')).toBe('No');
      expect(deletedDetail.tables.map((t) => t.title)).toContain('Positions');
      expect(deleted!.outcome).toBe('Deleted at the service');

      // 3. A strategy with no version and nothing held: the target is unknown, no action is
      // predicted, and with nothing to sell no tick is asked for.
      const freshDraft = await day.draftOf(FRESH, 'First target', 'empty', () => [
        { symbol: 'AAPL', weight: '10', locked: false },
      ]);
      const unknownTarget = await day.executeConfirmed(freshDraft.id);
      expect(unknownTarget.preview.target.kind).toBe('unknown');
      const { version: freshVersion } = await unknownTarget.run;
      await day.ended(freshVersion.id);
      const [freshSent] = await day.expectAdded([
        { kind: 'execution-sent', strategyId: FRESH },
        { kind: 'execution-answered', strategyId: FRESH, versionId: freshVersion.id },
        { kind: 'version-ended', strategyId: FRESH, versionId: freshVersion.id },
      ]);
      const freshSentDetail = await day.desk.activity.get({ seq: freshSent!.seq });
      expect(fact(freshSentDetail, 'Known target')).toMatch(/^Unknown/);
      expect(fact(freshSentDetail, 'Predicted actions')).toBe(
        'Uncertain: no executed version of this strategy is known here',
      );
      expect(fact(freshSentDetail, 'Stale or unknown target acknowledged')).toBe('Not needed');
      expect(freshSent!.outcome).toMatch(/^Complete: 1 order filled, [\d,.]+ filled value$/);

      // 4. The answer never comes (a timeout): unclear, then sent again with the same key.
      const timedDraft = await day.draftOf(CORE, 'Timed out', 'target', (rows) =>
        rows.map((r) =>
          r.symbol === 'JPM'
            ? { ...r, weight: '9' }
            : r.symbol === 'AAPL'
              ? { ...r, weight: '14' }
              : r,
        ),
      );
      const readsBefore = listReads;
      await day.admin('PUT', '/sandbox/faults', { latency_ms: REQUEST_MS + 1_500 });
      await expect(day.desk.versions.execute({ draftId: timedDraft.id })).rejects.toMatchObject({
        kind: 'timeout',
      });
      await day.admin('DELETE', '/sandbox/faults');
      const [timedSent, timedAnswer] = await day.expectAdded([
        { kind: 'execution-sent', strategyId: CORE },
        { kind: 'execution-answered', strategyId: CORE },
      ]);
      expect(timedSent!.outcome).toMatch(/^Unclear: /);
      expect(fact(await day.desk.activity.get({ seq: timedAnswer!.seq }), 'Error kind')).toBe(
        'timeout',
      );
      const [unclear] = await day.desk.versions.journal({ profileId });
      expect(unclear).toMatchObject({ state: 'unknown', draftId: timedDraft.id });
      const retried = await day.desk.versions.retryExecution({ journalId: unclear!.id });
      await day.ended(retried.version.id);
      const [retry] = await day.expectAdded([
        { kind: 'execution-retried', strategyId: CORE },
        { kind: 'execution-answered', strategyId: CORE, versionId: retried.version.id },
        { kind: 'version-ended', strategyId: CORE, versionId: retried.version.id },
      ]);
      const timedSentDetail = await day.desk.activity.get({ seq: timedSent!.seq });
      expect(fact(await day.desk.activity.get({ seq: retry!.seq }), 'Idempotency-Key')).toBe(
        fact(timedSentDetail, 'Idempotency-Key'),
      );
      expect(timedSentDetail.linked.map((l) => l.kind)).toEqual([
        'execution-answered',
        'execution-retried',
        'execution-answered',
        'version-ended',
      ]);
      expect(timedSentDetail.outcome).toMatch(/^Complete: /);
      // Its row, shown since it was sent, took each new outcome without the list being read again.
      await expect
        .poll(() => day.rowOf(timedSent!.seq).locator('td.outcome').textContent())
        .toBe(timedSentDetail.outcome);
      expect(listReads).toBe(readsBefore);
      await screenshot(page, 'activity-day-03-retried');

      // 5. The connection is reset after the service committed: unclear, and dismissed. The
      // service keeps only SPY and AAPL, which this app never learns as a target.
      const resetDraft = await day.draftOf(CORE, 'Two symbols', 'target', (rows) =>
        rows.map((r) => ({
          ...r,
          weight: r.symbol === 'SPY' ? '40' : r.symbol === 'AAPL' ? '30' : '0',
        })),
      );
      const reset = await day.executeConfirmed(resetDraft.id);
      await day.admin('PUT', '/sandbox/faults', { drop_after_commit_next: 1 });
      await expect(reset.run).rejects.toMatchObject({ kind: 'network' });
      const [left] = await day.desk.versions.journal({ profileId });
      await day.desk.versions.dismissExecution({ journalId: left!.id });
      const [resetSent] = await day.expectAdded([
        { kind: 'execution-sent', strategyId: CORE },
        { kind: 'execution-answered', strategyId: CORE },
        { kind: 'execution-dismissed', strategyId: CORE },
      ]);
      expect(resetSent!.outcome).toBe('Dismissed');
      // The service goes on with it all the same.
      await expect
        .poll(
          async () => {
            const strategies = (await day.admin('GET', '/sandbox/strategies')) as {
              data: { id: string; latest_executed_version_id: string }[];
            };
            const id = strategies.data.find((s) => s.id === CORE)!.latest_executed_version_id;
            return (
              (await day.elsewhere('GET', `/api/v1/strategies/${CORE}/versions/${id}`)) as {
                status: string;
              }
            ).status;
          },
          { timeout: 20_000 },
        )
        .toBe('COMPLETE');

      // 6. The holdings no longer fit the known target: acknowledged, and the service differs.
      const staleDraft = await day.draftOf(CORE, 'Back to banks', 'target', (rows) =>
        rows.map((r) =>
          r.symbol === 'JPM'
            ? { ...r, weight: '8' }
            : r.symbol === 'AAPL'
              ? { ...r, weight: '15' }
              : r,
        ),
      );
      const stale = await day.executeConfirmed(staleDraft.id, true);
      expect(stale.preview.check?.fits).toBe(false);
      const { version: staleVersion } = await stale.run;
      await day.ended(staleVersion.id);
      const [staleSent, , staleEnd] = await day.expectAdded([
        { kind: 'execution-sent', strategyId: CORE },
        { kind: 'execution-answered', strategyId: CORE, versionId: staleVersion.id },
        { kind: 'version-ended', strategyId: CORE, versionId: staleVersion.id },
      ]);
      const staleSentDetail = await day.desk.activity.get({ seq: staleSent!.seq });
      expect(fact(staleSentDetail, 'Known target')).toMatch(/^Stale/);
      expect(fact(staleSentDetail, 'Stale or unknown target acknowledged')).toBe('Yes');
      // No action was predicted on the stale target: the differences are what it warned of.
      expect(staleSent!.outcome).toMatch(
        /the service's target differed from the last known one, as warned$/,
      );
      const staleEndDetail = await day.desk.activity.get({ seq: staleEnd!.seq });
      expect(fact(staleEndDetail, 'Compared with the prediction')).toBe(
        'The service’s target differed from the last known one, as the confirmation warned (the target was uncertain)',
      );
      const differences = staleEndDetail.tables.find(
        (t) => t.title === 'Differences from the prediction',
      )!;
      expect(differences.rows.map((r) => r[0])).toContain('JPM');
      await day
        .activityTable()
        .locator(`tr[data-seq="${staleEnd!.seq}"]`)
        .getByRole('button', { name: 'Rebalance ended' })
        .click();
      await page
        .getByRole('region', { name: /Rebalance ended/ })
        .getByText('Differences from the prediction')
        .waitFor();
      await screenshot(page, 'activity-day-04-differed');
      // Numbers align right; a column with no reason anywhere is text, not numbers.
      const orders = page
        .getByRole('region', { name: /Rebalance ended/ })
        .locator('table', { has: page.locator('caption', { hasText: 'Orders' }) });
      expect(
        await orders
          .getByRole('columnheader', { name: 'Quantity', exact: true })
          .getAttribute('class'),
      ).toMatch(/\bnum\b/);
      expect(
        await orders
          .getByRole('columnheader', { name: 'Reason', exact: true })
          .getAttribute('class'),
      ).not.toMatch(/\bnum\b/);
      // The details themselves, as a reviewer reads them (the page scrolls inside its frame).
      await page
        .getByRole('region', { name: /Rebalance ended/ })
        .screenshot({ path: join(SCREENSHOT_DIR, 'activity-day-04b-differed-details.png') });
      await page.keyboard.press('Escape');

      // 7. A version imported, then deleted by another client, then deleted here: already gone.
      const created = (await day.admin(
        'POST',
        `/sandbox/strategies/${DIVIDEND}/unexecuted-versions`,
        {},
      )) as {
        data: { id: string };
      };
      const gone = created.data.id;
      await day.desk.versions.import({ profileId, strategyId: DIVIDEND, versionId: gone });
      await day.elsewhere('DELETE', `/api/v1/strategies/${DIVIDEND}/versions/${gone}`);
      await deleteShown(day.desk, { profileId, strategyId: DIVIDEND, versionId: gone });
      const [, goneEntry] = await day.expectAdded([
        { kind: 'version-imported', strategyId: DIVIDEND, versionId: gone },
        { kind: 'version-deleted', strategyId: DIVIDEND, versionId: gone },
      ]);
      const goneDetail = await day.desk.activity.get({ seq: goneEntry!.seq });
      expect(fact(goneDetail, 'Already gone at the service')).toBe('Yes');
      expect(fact(goneDetail, 'Status')).toBe('None: no rebalance was started');
      expect(goneEntry!.outcome).toBe('Already gone at the service');
      // Found gone when read before deleting: the copy held here is what the entry keeps.
      expect(fact(goneDetail, 'Content')).toMatch(/already gone at the service when read/);
      expect(goneDetail.tables.map((t) => t.title)).toContain('Positions (last copy held here)');

      // 7b. The service no longer knows the known target (it started afresh): the dialog asks
      // for the same acknowledgement as a stale target, and the entry keeps it.
      await day.admin('POST', '/sandbox/reset');
      const afreshDraft = await day.draftOf(CORE, 'After the reset', 'target', (rows) =>
        rows.map((r) =>
          r.symbol === 'JPM'
            ? { ...r, weight: '7' }
            : r.symbol === 'AAPL'
              ? { ...r, weight: '16' }
              : r,
        ),
      );
      // Without the tick the desk refuses, whatever the page sent: nothing goes to the service.
      const unticked = await day.executeConfirmed(afreshDraft.id, false);
      expect(unticked.preview.targetUnconfirmed).toBe(true);
      expect(unticked.preview.check?.fits).toBe(true);
      await expect(unticked.run).rejects.toMatchObject({
        kind: 'stale-not-acknowledged',
        message: expect.stringContaining('no longer knows'),
      });
      expect(await day.all()).toHaveLength(day.seen.length);
      const afresh = await day.executeConfirmed(afreshDraft.id, true);
      expect(afresh.preview.targetUnconfirmed).toBe(true);
      const { version: afreshVersion } = await afresh.run;
      await day.ended(afreshVersion.id);
      const [afreshSent] = await day.expectAdded([
        { kind: 'execution-sent', strategyId: CORE },
        { kind: 'execution-answered', strategyId: CORE, versionId: afreshVersion.id },
        { kind: 'version-ended', strategyId: CORE, versionId: afreshVersion.id },
      ]);
      const afreshSentDetail = await day.desk.activity.get({ seq: afreshSent!.seq });
      expect(fact(afreshSentDetail, 'Stale or unknown target acknowledged')).toBe('Yes');
      expect(fact(afreshSentDetail, 'Known target')).toBe(
        "Known: the holdings fitted it; the service no longer knew this version, so this app's copy was used",
      );

      // 8. A draft deleted after its execution: the entry still names it.
      await day.desk.drafts.remove({ draftId: freshDraft.id });
      const afterDraft = await day.desk.activity.get({ seq: freshSent!.seq });
      expect(fact(afterDraft, 'Draft')).toBe(`First target (${freshDraft.id})`);
      expect(await day.all()).toHaveLength(day.seen.length);

      // 9. The profile moves with a new secret.
      const moved = baseUrl.replace('127.0.0.1', 'localhost');
      await day.desk.profiles.update({ profileId, baseUrl: moved, secret: SECRET });
      const [changed] = await day.expectAdded([{ kind: 'profile-changed', strategyId: null }]);
      expect(changed!.summary).toBe(
        `Profile changed: address ${baseUrl} → ${moved}; client secret replaced`,
      );
      const changedDetail = await day.desk.activity.get({ seq: changed!.seq });
      expect(fact(changedDetail, 'Changed service address')).toBe(`${baseUrl} → ${moved}`);
      expect(fact(changedDetail, 'Client secret replaced')).toBe('Yes');
      expect(fact(changedDetail, 'Stored secret allowed to the new address')).toBeUndefined();
      // It moves back, the manager letting the stored secret go there: that word is kept.
      await day.desk.profiles.update({ profileId, baseUrl, sendSecretToNewAddress: true });
      const [back] = await day.expectAdded([{ kind: 'profile-changed', strategyId: null }]);
      expect(back!.summary).toBe(
        `Profile changed: address ${moved} → ${baseUrl}; stored client secret allowed to the new address`,
      );
      const backDetail = await day.desk.activity.get({ seq: back!.seq });
      expect(fact(backDetail, 'Client secret replaced')).toBe('No');
      expect(fact(backDetail, 'Stored secret allowed to the new address')).toBe('Yes');

      // 10. A strategy removed: its entries keep its name, in the view too.
      await day.desk.strategies.remove({ profileId, strategyId: DIVIDEND });
      await day.expectAdded([{ kind: 'strategy-removed', strategyId: DIVIDEND }]);
      const dividendRows = day.seen.filter((e) => e.strategyId === DIVIDEND);
      expect(dividendRows).toHaveLength(6);
      for (const e of dividendRows) {
        expect(e.strategyName).toBe('Dividend Growth');
        // Rows are drawn as they come into view: scroll to its place (newest first).
        const place = day.seen.length - e.chainIndex;
        await page
          .getByRole('region', { name: /Activity entries/ })
          .evaluate((el, top) => (el.scrollTop = top), place * 30);
        await day.rowOf(e.seq).waitFor();
        expect(await day.rowOf(e.seq).locator('td').nth(2).textContent()).toMatch(
          /Dividend Growth/,
        );
      }
      await screenshot(page, 'activity-day-05-strategy-removed');
      expect(problems).toEqual([]);
      await page.close();

      // Every secret and live token the desk knows, to look for in the log once it is all written.
      const secrets = await day.desk.knownSecrets();
      expect(secrets).toContain(SECRET);

      // 11. The profile removed: its log is still there, whole, and still verifies.
      await day.desk.profiles.remove({ profileId });
      const kept = await day.all();
      expect(kept.slice(0, day.seen.length)).toEqual(day.seen);
      expect(kept).toHaveLength(day.seen.length + 1);
      expect(kept.at(-1)).toMatchObject({ kind: 'profile-removed', profileName: 'Day desk' });
      for (const e of kept) {
        const d = await day.desk.activity.get({ seq: e.seq });
        expect(`${d.summary} ${d.outcome ?? ''}`).not.toMatch(RAW);
        for (const f of d.facts)
          if (f.label !== 'Body sent') expect(`${f.label}: ${f.value}`).not.toMatch(RAW);
        for (const t of d.tables)
          expect(JSON.stringify(t.rows)).not.toMatch(/undefined|null|true|false/);
      }
      expect(await day.desk.activity.verify({})).toMatchObject({ ok: true, brokenAt: null });
      const exported = (await day.desk.activity.export({
        filter: { profileId },
        format: 'jsonl',
      }))!;
      const exportedText = readFileSync(exported.path, 'utf8');
      const db = new Database(day.desk.store.path, { readonly: true });
      const payloads = (db.prepare('SELECT payload FROM activity').all() as { payload: string }[])
        .map((r) => r.payload)
        .join('\n');
      db.close();
      for (const secret of secrets) {
        expect(payloads).not.toContain(secret);
        expect(exportedText).not.toContain(secret);
      }
    },
    240_000,
  );
});
