import { afterAll, beforeAll, describe, expect } from 'vitest';
import { DEMO_STRATEGY_IDS } from '../../electron/sandbox';
import { collectPageProblems, screenshot } from '../support/e2e-browser';
import { chromiumPart, openDraftsEnv, type DraftsEnv } from '../support/e2e-drafts-env';
import { itNeeds } from '../support/system-parts';

/**
 * A model's edits are not lost and its import says what it did, in Chromium against the real
 * desk, the sandbox and SQLite: another model clicked asks to save, discard or stay; a CSV file
 * imported into a model with rows asks to replace or merge; an exported revision imported into
 * an empty model saves the same rows and hash.
 */
const withChromium = itNeeds(chromiumPart);
let env: DraftsEnv | undefined;

beforeAll(async () => {
  if (chromiumPart.available) env = await openDraftsEnv();
}, 120_000);
afterAll(async () => env?.close());

describe('a model’s edits and imports', () => {
  withChromium('asks before edits are lost, and before an import replaces or merges', async () => {
    const { host, harness, profileId } = env!;
    const desk = harness.desk;
    const alpha = await desk.models.create({
      name: 'Alpha',
      start: { kind: 'strategy', profileId, strategyId: DEMO_STRATEGY_IDS.coreEquity },
    });
    await desk.models.create({ name: 'Beta', start: { kind: 'empty' } });
    const first = alpha.rows[0]!;

    const page = await env!.browser.newPage({ viewport: { width: 1400, height: 900 } });
    const problems = collectPageProblems(page);
    await page.goto(host.url);
    await page.getByRole('button', { name: 'Models', exact: true }).click();
    const list = page.getByRole('navigation', { name: 'Models' });
    const heading = (name: string) => page.getByRole('heading', { name, level: 2 });
    await list.getByRole('button', { name: /^Alpha/ }).click();
    await heading('Alpha').waitFor();
    // Nothing changed: nothing to save.
    await page.getByText('As revision 1: nothing to save').waitFor();
    const saveButton = page.getByRole('button', { name: 'Save as a new revision' });
    expect(await saveButton.isDisabled()).toBe(true);

    const weight = page.getByLabel(`Weight % of ${first.symbol}`, { exact: true });
    const edit = async (value: string) => {
      await weight.click();
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.type(value);
      await page.getByText('Unsaved changes').waitFor();
    };
    await edit('1');
    const dialog = page.getByRole('dialog', { name: '“Alpha” has unsaved changes' });

    // Stay: the edit is still there.
    await list.getByRole('button', { name: /^Beta/ }).click();
    await dialog.getByRole('button', { name: 'Stay' }).click();
    await dialog.waitFor({ state: 'detached' });
    await heading('Alpha').waitFor();
    await page.getByText('Unsaved changes').waitFor();

    // A new model made meanwhile waits for the same answer: Stay keeps Alpha and its edit.
    const form = page.getByRole('form', { name: 'New model' });
    await form.getByLabel('New model').fill('Gamma');
    await form.getByRole('button', { name: 'Create model' }).click();
    await dialog.getByRole('button', { name: 'Stay' }).click();
    await list.getByRole('button', { name: /^Gamma/ }).waitFor();
    await heading('Alpha').waitFor();
    await page.getByText('Unsaved changes').waitFor();

    // Discard: Beta opens, and Alpha is as saved.
    await list.getByRole('button', { name: /^Beta/ }).click();
    await screenshot(page, 'models-unsaved-ask');
    await dialog.getByRole('button', { name: 'Discard changes' }).click();
    await heading('Beta').waitFor();
    await list.getByRole('button', { name: /^Alpha/ }).click();
    await heading('Alpha').waitFor();
    expect(await dialog.count()).toBe(0);
    expect((await desk.models.get({ modelId: alpha.id })).latest!.number).toBe(1);

    // Save: revision 2 holds the edit, then Beta opens.
    await edit('2');
    await list.getByRole('button', { name: /^Beta/ }).click();
    await dialog.getByRole('button', { name: 'Save as a new revision' }).click();
    await heading('Beta').waitFor();
    const saved = await desk.models.get({ modelId: alpha.id });
    expect(saved.latest!.number).toBe(2);
    expect(saved.rows.find((r) => r.symbol === first.symbol)!.weight).toBe('2');

    // Alpha's revision exported; imported into Alpha again, the question is asked.
    await list.getByRole('button', { name: /^Alpha/ }).click();
    await heading('Alpha').waitFor();
    await page.getByRole('button', { name: 'Export revision 2 as CSV' }).click();
    await page.getByText(`Saved ${saved.rows.length} rows as CSV`).waitFor();
    const file = { path: (await page.getByTestId('model-export-path').textContent())! };
    const importInput = page.getByLabel('Import CSV…');
    await importInput.setInputFiles(file.path);
    const ask = page.getByRole('group', { name: 'Replace or merge the imported rows' });
    await ask.getByText(`${saved.rows.length} rows read`, { exact: false }).waitFor();
    await ask.getByRole('button', { name: 'Replace the rows' }).click();
    await page
      .getByText(
        new RegExp(
          `the model's ${saved.rows.length} rows were replaced by the file's ${saved.rows.length}`,
        ),
      )
      .waitFor();
    // The same rows as saved: nothing to save, the total unchanged.
    await page.getByText('As revision 2: nothing to save').waitFor();
    await importInput.setInputFiles(file.path);
    await ask.getByRole('button', { name: 'Merge' }).click();
    await page
      .getByText(`Read ${saved.rows.length} rows: 0 added, 0 updated.`, { exact: false })
      .waitFor();
    await page.getByText('As revision 2: nothing to save').waitFor();

    // Into the empty model: no question; saved, the same rows and hash as Alpha's revision.
    await list.getByRole('button', { name: /^Beta/ }).click();
    await heading('Beta').waitFor();
    await importInput.setInputFiles(file.path);
    await page
      .getByText(`Read ${saved.rows.length} rows: ${saved.rows.length} added`, { exact: false })
      .waitFor();
    expect(await ask.count()).toBe(0);
    await saveButton.click();
    await page.getByText('As revision 1: nothing to save').waitFor();
    const beta = (await desk.models.list({})).find((m) => m.name === 'Beta')!;
    const betaDetail = await desk.models.get({ modelId: beta.id });
    expect(betaDetail.rows.map((r) => [r.symbol, r.weight])).toEqual(
      saved.rows.map((r) => [r.symbol, r.weight]),
    );
    expect(betaDetail.latest!.hash).toBe(saved.latest!.hash);
    expect(problems).toEqual([]);
  });

  withChromium('asks the same before the Models screen is left for another screen', async () => {
    const { host, harness, profileId } = env!;
    const desk = harness.desk;
    const delta = await desk.models.create({
      name: 'Delta',
      start: { kind: 'strategy', profileId, strategyId: DEMO_STRATEGY_IDS.coreEquity },
    });
    const first = delta.rows[0]!;

    const page = await env!.browser.newPage({ viewport: { width: 1400, height: 900 } });
    const problems = collectPageProblems(page);
    await page.goto(host.url);
    const sidebar = page.getByRole('complementary', { name: 'Profile and strategies' });
    await sidebar.getByRole('button', { name: 'Models', exact: true }).click();
    const list = page.getByRole('navigation', { name: 'Models' });
    const heading = page.getByRole('heading', { name: 'Delta', level: 2 });
    await list.getByRole('button', { name: /^Delta/ }).click();
    await heading.waitFor();
    const weight = page.getByLabel(`Weight % of ${first.symbol}`, { exact: true });
    const edit = async (value: string) => {
      await weight.click();
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.type(value);
      await page.getByText('Unsaved changes').waitFor();
    };
    const dialog = page.getByRole('dialog', { name: '“Delta” has unsaved changes' });
    const stays = async () => {
      await dialog.getByRole('button', { name: 'Stay' }).click();
      await dialog.waitFor({ state: 'detached' });
      await heading.waitFor();
      await page.getByText('Unsaved changes').waitFor();
    };
    await edit('3');

    // The book, the profile's activity, a strategy of the sidebar, the profile's batches, the
    // Models button itself: each asks, and Stay keeps the model and its edit.
    await sidebar.getByRole('button', { name: 'Book', exact: true }).click();
    await stays();
    await sidebar.getByRole('button', { name: 'Profile activity' }).click();
    await stays();
    await sidebar
      .getByRole('navigation', { name: 'Strategies' })
      .getByRole('button', { name: /^Core Equity\b/ })
      .click();
    await stays();
    await list.getByRole('button', { name: 'Batches of this profile' }).click();
    await stays();
    await sidebar.getByRole('button', { name: 'Models', exact: true }).click();
    await screenshot(page, 'models-unsaved-leaving');
    await stays();

    // Discard: the strategy opens, the model as saved.
    await sidebar
      .getByRole('navigation', { name: 'Strategies' })
      .getByRole('button', { name: /^Core Equity\b/ })
      .click();
    await dialog.getByRole('button', { name: 'Discard changes' }).click();
    await page.getByRole('heading', { name: 'Core Equity', level: 1 }).waitFor();
    expect((await desk.models.get({ modelId: delta.id })).latest!.number).toBe(1);

    // Save: revision 2 holds the edit, then the profile's activity opens.
    await sidebar.getByRole('button', { name: 'Models', exact: true }).click();
    await list.getByRole('button', { name: /^Delta/ }).click();
    await heading.waitFor();
    await edit('4');
    await sidebar.getByRole('button', { name: 'Profile activity' }).click();
    await dialog.getByRole('button', { name: 'Save as a new revision' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Profile activity', pressed: true }).waitFor();
    expect(await heading.count()).toBe(0);
    const saved = await desk.models.get({ modelId: delta.id });
    expect(saved.latest!.number).toBe(2);
    expect(saved.rows.find((r) => r.symbol === first.symbol)!.weight).toBe('4');

    // Nothing unsaved: the book opens at once.
    await sidebar.getByRole('button', { name: 'Models', exact: true }).click();
    await list.getByRole('button', { name: /^Delta/ }).click();
    await heading.waitFor();
    await sidebar.getByRole('button', { name: 'Book', exact: true }).click();
    await page.getByRole('button', { name: 'Book', pressed: true }).waitFor();
    expect(await dialog.count()).toBe(0);
    expect(problems).toEqual([]);
  });

  withChromium('asks before a reload or close loses unsaved edits', async () => {
    const { host, harness, profileId } = env!;
    const epsilon = await harness.desk.models.create({
      name: 'Epsilon',
      start: { kind: 'strategy', profileId, strategyId: DEMO_STRATEGY_IDS.coreEquity },
    });
    const first = epsilon.rows[0]!;
    const page = await env!.browser.newPage({ viewport: { width: 1400, height: 900 } });
    const problems = collectPageProblems(page);
    const asked: string[] = [];
    page.on('dialog', (d) => {
      asked.push(d.type());
      // Stay.
      void d.dismiss();
    });
    await page.goto(host.url);
    await page.getByRole('button', { name: 'Models', exact: true }).click();
    await page
      .getByRole('navigation', { name: 'Models' })
      .getByRole('button', { name: /^Epsilon/ })
      .click();
    const heading = page.getByRole('heading', { name: 'Epsilon', level: 2 });
    await heading.waitFor();
    const weight = page.getByLabel(`Weight % of ${first.symbol}`, { exact: true });
    await weight.click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('5');
    await page.getByText('Unsaved changes').waitFor();

    // A reload (as the window's close) is held: the browser asks, and staying keeps the model and
    // its edit.
    await page.evaluate(() => location.reload());
    await expect.poll(() => asked).toEqual(['beforeunload']);
    await heading.waitFor();
    expect(await weight.inputValue()).toBe('5');
    await page.getByText('Unsaved changes').waitFor();

    // Saved, nothing is held: the page reloads without asking.
    await page.getByRole('button', { name: 'Save as a new revision' }).click();
    await page.getByText('As revision 2: nothing to save').waitFor();
    await page.reload();
    await page.getByRole('button', { name: 'Models', exact: true }).waitFor();
    expect(asked).toEqual(['beforeunload']);
    expect(problems).toEqual([]);
    await page.close();
  });
});
