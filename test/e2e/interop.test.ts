import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { DEMO_CLIENTS, DEMO_STRATEGY_IDS, DEMO_VERSION_IDS } from '../../electron/sandbox';
import { openBareAppE2E, type BareAppE2E } from '../support/e2e-app';
import { chromiumPart, collectPageProblems, screenshot } from '../support/e2e-browser';
import { newDraft, openDraftsTab, rowOf } from '../support/e2e-drafts-env';
import { openStrategyTab } from '../support/e2e-versions-setup';
import {
  bodyOf,
  compressed,
  isExecute,
  isToken,
  jsonAnswer,
  startFakeService,
  versionPathIds,
  withJson,
  type Coding,
  type FakeAnswer,
  type FakeService,
} from '../support/fake-service';
import { itNeeds } from '../support/system-parts';

/**
 * A production service that answers otherwise than the built-in sandbox, within the interface:
 * the manager's flow on screen, in Chromium against the browser host, the real desk, SQLite and
 * keychain, with the fake service (test/support/fake-service.ts) in front of the sandbox.
 */
const withChromium = itNeeds(chromiumPart);
let env: BareAppE2E | undefined;
let fake: FakeService | undefined;
let trap: FakeService | undefined;
let profileId = '';
const { freshStart, dividendGrowth, coreEquity } = DEMO_STRATEGY_IDS;

beforeAll(async () => {
  if (!chromiumPart.available) return;
  env = await openBareAppE2E({ stepMs: 10 });
  const sandbox = await env.harness.startSandbox();
  fake = await startFakeService({ upstream: sandbox.baseUrl, prefix: '/psvs' });
  trap = await startFakeService();
  profileId = (
    await env.harness.desk.profiles.create({
      name: 'Production',
      baseUrl: fake.baseUrl,
      clientId: DEMO_CLIENTS.manager.client_id,
      secret: DEMO_CLIENTS.manager.client_secret,
    })
  ).id;
  for (const strategyId of [freshStart, dividendGrowth, coreEquity])
    await env.harness.desk.strategies.add({ profileId, strategyId });
}, 120_000);
afterAll(async () => {
  await env?.close();
  await fake?.close();
  await trap?.close();
});

const step = (page: Page, status: string) =>
  page.locator(`ol[aria-label="Rebalance steps"] li[data-status="${status}"]`);

async function openDetail(page: Page, strategy: string, versionId: string) {
  await openStrategyTab(page, strategy, 'Versions');
  await page.getByRole('button', { name: `Open version ${versionId.slice(0, 8)}` }).click();
  await page.getByRole('heading', { name: `Version ${versionId}` }).waitFor();
}

async function createdVersions(strategyId: string) {
  return (await env!.harness.desk.versions.list({ profileId, strategyId })).filter(
    (v) => v.origin === 'created',
  );
}

/** Types rows into an empty draft's grid, as the manager does. */
async function typeRows(page: Page, rows: [string, string][]) {
  await page.getByRole('button', { name: 'Add row' }).click();
  for (const [i, [symbol, weight]] of rows.entries()) {
    if (i > 0) await page.keyboard.press('Enter');
    await page.keyboard.type(symbol);
    await page.keyboard.press('Tab');
    await page.keyboard.type(weight);
  }
  await page.getByText('No problems: the draft can be executed.').waitFor();
}

/**
 * Opens the confirmation and executes. `acknowledgeUnknownTarget`: the profile knows no executed
 * version and the draft sells holdings, so the confirmation asks for the tick first.
 */
async function executeOnScreen(page: Page, options: { acknowledgeUnknownTarget?: true } = {}) {
  await page.getByRole('button', { name: 'Execute…' }).click();
  const dialog = page.getByRole('dialog');
  if (options.acknowledgeUnknownTarget)
    await dialog.getByTestId('confirm-unknown').getByRole('checkbox').check();
  await dialog.getByRole('button', { name: 'Execute rebalance' }).click();
}

/** The sandbox's execute refusals reshaped; everything else forwarded as it is. */
function refusalsAs(reshape: (errors: { detail: string; version_id?: string }) => FakeAnswer) {
  fake!.answer(async (req, forward) => {
    const answer = await forward();
    if (!isExecute(req) || answer.status !== 422) return answer;
    return reshape(bodyOf(answer).errors);
  });
}

describe('a production service answering within the interface, on screen', () => {
  withChromium(
    'compressed answers, a relative Location without includes, a token without scope or lifetime: COMPLETE with fills',
    async () => {
      const codings: Coding[] = ['gzip', 'br', 'deflate'];
      let n = 0;
      fake!.answer(async (req, forward) => {
        let answer = await forward();
        if (isToken(req) && answer.status === 200)
          answer = withJson(answer, (body) => {
            delete body.scope;
            delete body.expires_in;
          });
        if (isExecute(req) && answer.status === 202)
          answer = { ...answer, headers: { ...answer.headers, location: bodyOf(answer).data.id } };
        return compressed(answer, codings[n++ % codings.length]!);
      });
      const page = await env!.browser.newPage({ viewport: { width: 1360, height: 900 } });
      const problems = collectPageProblems(page);
      await env!.harness.desk.profiles.testConnection({ profileId });
      await openDraftsTab(page, env!.host.url, 'Fresh Start');
      await newDraft(page, 'Interop', 'Empty');
      await typeRows(page, [
        ['AAPL', '10'],
        ['MSFT', '5'],
      ]);
      await executeOnScreen(page);
      await page.getByRole('tab', { name: 'Versions', selected: true }).waitFor();
      const [version] = await createdVersions(freshStart);
      // Executed from the draft, the new version's detail opens.
      await page.getByRole('heading', { name: `Version ${version!.id}` }).waitFor();
      await step(page, 'COMPLETE').and(page.locator('.complete')).waitFor({ timeout: 15_000 });
      const stored = await env!.harness.desk.versions.get({
        profileId,
        strategyId: freshStart,
        versionId: version!.id,
      });
      expect(stored.orders.every((o) => o.status === 'FILLED' && o.filled_quantity !== null)).toBe(
        true,
      );
      // The relative Location was resolved under the service's path, with the includes.
      const reads = fake!.requests.filter((r) => r.method === 'GET' && versionPathIds(r.path));
      expect(reads.length).toBeGreaterThan(0);
      for (const r of reads) expect(r.path).toMatch(/^\/psvs\/.*\?include=orders,positions$/);
      await screenshot(page, 'interop-01-compressed-complete');
      expect(problems).toEqual([]);
      await page.close();
    },
    60_000,
  );

  withChromium('an unknown symbol refused as JSON:API, pointed at: its row is marked', async () => {
    refusalsAs(() =>
      jsonAnswer(422, {
        errors: [
          {
            status: '422',
            title: 'Unprocessable Entity',
            detail: 'is not a recognized symbol',
            source: { pointer: '/data/positions/0/symbol' },
          },
        ],
      }),
    );
    const page = await env!.browser.newPage({ viewport: { width: 1360, height: 900 } });
    const problems = collectPageProblems(page);
    await openDraftsTab(page, env!.host.url, 'Fresh Start');
    await newDraft(page, 'Typo', 'Empty');
    await typeRows(page, [['ZZZQ', '5']]);
    await executeOnScreen(page);
    await page.getByText('The service does not know these symbols: ZZZQ').waitFor();
    const row = rowOf(page, 'ZZZQ');
    expect(await row.getAttribute('title')).toContain('the service does not know the symbol ZZZQ');
    await screenshot(page, 'interop-02-jsonapi-unknown-symbol');
    expect(problems).toEqual([]);
    await page.close();
  });

  withChromium(
    'the unexecuted version as a 409 JSON:API conflict: offered for deletion, then executed',
    async () => {
      refusalsAs((e) =>
        jsonAnswer(409, {
          errors: [
            {
              status: '409',
              title: 'Conflict',
              detail: e.detail,
              meta: { version_id: e.version_id },
            },
          ],
        }),
      );
      const page = await env!.browser.newPage({ viewport: { width: 1360, height: 900 } });
      const problems = collectPageProblems(page);
      await openDraftsTab(page, env!.host.url, 'Dividend Growth');
      await newDraft(page, 'Trim', 'From the holdings (weights 0)');
      await page.getByLabel('Draft weight % of JNJ', { exact: true }).fill('9');
      await page.getByText('No problems: the draft can be executed.').waitFor();
      await executeOnScreen(page, { acknowledgeUnknownTarget: true });
      const blocking = `${DEMO_VERSION_IDS.dividendGrowthScheduled.slice(0, 8)}…`;
      const offer = page.getByRole('button', {
        name: `See version ${blocking} before deleting it`,
      });
      await offer.waitFor();
      await screenshot(page, 'interop-03-409-unexecuted');
      // Shown first, then deleted on the button naming it, then the draft executes.
      await offer.click();
      await page
        .getByRole('dialog', { name: `Unexecuted version ${blocking} of Dividend Growth` })
        .getByRole('button', {
          name: new RegExp(
            `^Delete version ${blocking}, scheduled for .+, and execute this draft$`,
          ),
        })
        .click();
      await page.getByRole('tab', { name: 'Versions', selected: true }).waitFor();
      await expect.poll(async () => (await createdVersions(dividendGrowth)).length).toBe(1);
      expect(problems).toEqual([]);
      await page.close();
    },
    60_000,
  );

  withChromium(
    'a Location on another origin and a lagging replica: nothing goes elsewhere, the detail says it keeps looking, then COMPLETE',
    async () => {
      let lagging = true;
      fake!.answer(async (req, forward) => {
        if (req.method === 'GET' && versionPathIds(req.path) && lagging)
          return jsonAnswer(404, { errors: { detail: 'Not found' } });
        const answer = await forward();
        if (!isExecute(req) || answer.status !== 202) return answer;
        const id = bodyOf(answer).data.id as string;
        const location = `${trap!.origin}/psvs/api/v1/strategies/${coreEquity}/versions/${id}`;
        return { ...answer, headers: { ...answer.headers, location } };
      });
      const desk = env!.harness.desk;
      const draft = await desk.drafts.create({
        profileId,
        strategyId: coreEquity,
        name: 'e2e',
        start: 'empty',
      });
      await desk.drafts.saveRows({
        draftId: draft.id,
        rows: [{ symbol: 'AAPL', weight: '12', locked: false }],
      });
      const { version } = await desk.versions.execute({ draftId: draft.id });
      const page = await env!.browser.newPage({ viewport: { width: 1360, height: 900 } });
      const problems = collectPageProblems(page);
      await page.goto(env!.host.url);
      await openDetail(page, 'Core Equity', version.id);
      const note = page.getByRole('status', { name: 'Following this version' });
      await note.getByText(/keeps looking for up to 2 minutes/).waitFor();
      await screenshot(page, 'interop-04-lagging-replica');
      lagging = false;
      await step(page, 'COMPLETE').and(page.locator('.complete')).waitFor({ timeout: 15_000 });
      await note.waitFor({ state: 'detached' });
      expect(trap!.requests).toEqual([]);
      expect(problems).toEqual([]);
      await page.close();
    },
    60_000,
  );
});
