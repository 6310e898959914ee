import { describe, expect, it } from 'vitest';
import { DeskError } from '../../../../shared/errors';
import type { ExecutePreview } from '../../../../shared/views';
import { ExecuteFlow } from '../../../../renderer/src/drafts/execute-flow.svelte';
import { PROFILE, STRATEGY, VERSION, deferred, fakeApi, versionDetail } from '../fake-api';

const DRAFT = 'd0000000-0000-4000-8000-000000000001';
const BLOCKING = 'b0000000-0000-4000-8000-000000000001';
const preview = (more: Partial<ExecutePreview> = {}) =>
  ({ planKey: 'plan-1', earlierVersionId: null, ...more }) as ExecutePreview;

/** A flow over a fake API, with what it told the editor and the screens. */
function flowWith(answers: Record<string, (input: never) => unknown>) {
  const desk = fakeApi({
    'versions.prepareExecute': () => preview(),
    'restrictions.checkDraft': () => ({ violations: [], listHash: 'h' }),
    ...answers,
  });
  const told: string[] = [];
  const flow = new ExecuteFlow(desk.api, {
    draftId: DRAFT,
    ref: () => ({ profileId: PROFILE, strategyId: STRATEGY }),
    flush: async () => void told.push('flush'),
    markUnknown: (symbols) => told.push(`unknown ${symbols.join(',')}`),
    strategyChanged: () => told.push('strategy changed'),
    openVersion: (id) => told.push(`open ${id}`),
  });
  return { desk, flow, told };
}

const refusal = (kind: string, details: object = {}) =>
  new DeskError({ kind, message: `refused: ${kind}`, details } as never);

describe('the execute flow', () => {
  it('saves the draft, reads afresh, then opens the confirmation; nothing is sent before it is confirmed', async () => {
    const { desk, flow, told } = flowWith({});
    await flow.openConfirmation();
    expect(flow.confirming).toBe(true);
    expect(flow.preview?.planKey).toBe('plan-1');
    expect(told).toEqual(['flush', 'strategy changed']);
    expect(desk.channels()).toEqual(['versions.prepareExecute', 'restrictions.checkDraft']);
  });

  it('says what it is doing while it reads, and stays closed when the fresh read fails', async () => {
    const read = deferred<ExecutePreview>();
    const { flow } = flowWith({ 'versions.prepareExecute': () => read.promise });
    const opening = flow.openConfirmation();
    await Promise.resolve();
    await Promise.resolve();
    expect(flow.busy).toBe('Reading the strategy and its current target…');
    read.reject(refusal('network'));
    await opening;
    expect(flow.busy).toBeNull();
    expect(flow.confirming).toBe(false);
    expect(flow.failure?.kind).toBe('fresh-read');
  });

  it('sends the confirmed plan with the acknowledgement, then opens the version it became', async () => {
    const { desk, flow, told } = flowWith({
      'versions.prepareExecute': () => preview({ earlierVersionId: BLOCKING }),
      'versions.execute': () => ({ version: versionDetail() }),
    });
    await flow.openConfirmation();
    flow.confirm(true);
    expect(flow.confirming).toBe(false);
    await new Promise((r) => setTimeout(r, 0));
    expect(desk.calls.at(-1)).toEqual({
      channel: 'versions.execute',
      input: {
        draftId: DRAFT,
        confirmation: { planKey: 'plan-1', acknowledgedStale: true, againAfter: BLOCKING },
      },
    });
    expect(told.slice(-2)).toEqual([`open ${VERSION}`, 'strategy changed']);
    expect(flow.failure).toBeNull();
    expect(flow.busy).toBeNull();
  });

  it('marks the unknown symbols in the grid, and drops the failure once no row has them', async () => {
    const { flow, told } = flowWith({
      'versions.execute': () => {
        throw refusal('unknown-symbols', { ambiguous: false, unknownSymbols: ['ZZZ'] });
      },
    });
    await flow.run();
    expect(flow.failure?.kind).toBe('unknown-symbols');
    expect(told).toContain('unknown ZZZ');
    flow.symbolsNow(['AAA', 'ZZZ']);
    expect(flow.failure?.kind).toBe('unknown-symbols');
    flow.symbolsNow(['AAA']);
    expect(flow.failure).toBeNull();
  });

  it('shows the unexecuted version in the way, then executes again with the same confirmation once it is deleted', async () => {
    let sent = 0;
    const { desk, flow, told } = flowWith({
      'versions.execute': () => {
        sent++;
        if (sent === 1)
          throw refusal('unexecuted-version', { ambiguous: false, versionId: BLOCKING });
        return { version: versionDetail() };
      },
    });
    await flow.openConfirmation();
    flow.confirm(false);
    await new Promise((r) => setTimeout(r, 0));
    expect(flow.failure).toMatchObject({ kind: 'unexecuted-version', versionId: BLOCKING });
    expect(told).toContain('strategy changed');
    flow.showing = BLOCKING;
    flow.afterBlockingVersion();
    await new Promise((r) => setTimeout(r, 0));
    expect(flow.showing).toBeNull();
    const executes = desk.calls.filter((c) => c.channel === 'versions.execute');
    expect(executes.map((c) => c.input)).toEqual([
      {
        draftId: DRAFT,
        confirmation: { planKey: 'plan-1', acknowledgedStale: false, againAfter: null },
      },
      {
        draftId: DRAFT,
        confirmation: { planKey: 'plan-1', acknowledgedStale: false, againAfter: null },
      },
    ]);
    expect(told.at(-2)).toBe(`open ${VERSION}`);
  });

  it('says an unclear answer may have been accepted, and never sends it again itself', async () => {
    const { desk, flow } = flowWith({
      'versions.execute': () => {
        throw refusal('timeout', { ambiguous: true });
      },
    });
    await flow.run();
    expect(flow.failure?.kind).toBe('ambiguous');
    expect(desk.channels()).toEqual(['versions.execute']);
  });

  it('opens the new confirmation when the plan it confirmed is outdated', async () => {
    const { desk, flow } = flowWith({
      'versions.execute': () => {
        throw refusal('confirmation-outdated');
      },
    });
    await flow.run();
    await new Promise((r) => setTimeout(r, 0));
    expect(flow.failure).toBeNull();
    expect(flow.confirming).toBe(true);
    expect(desk.channels()).toEqual([
      'versions.execute',
      'versions.prepareExecute',
      'restrictions.checkDraft',
    ]);
  });

  it('imports the latest version first and reads afresh; an unexecuted one is named as such', async () => {
    const { desk, flow } = flowWith({
      'versions.import': () => versionDetail({ executedAt: null }),
    });
    await flow.openConfirmation();
    await flow.importFirst(BLOCKING);
    expect(desk.channels()).toEqual([
      'versions.prepareExecute',
      'restrictions.checkDraft',
      'versions.import',
      'versions.prepareExecute',
      'restrictions.checkDraft',
    ]);
    expect(flow.confirming).toBe(true);
    expect(flow.importNote).toMatch(/has not been executed, so it cannot be the current target/);
  });

  it('keeps the confirmation open with the import’s error next to the id', async () => {
    const { flow } = flowWith({
      'versions.import': () => {
        throw refusal('not-found');
      },
    });
    await flow.openConfirmation();
    await flow.importFirst(BLOCKING);
    expect(flow.confirming).toBe(true);
    expect(flow.importFailure?.kind).toBe('not-found');
  });

  it('refuses a typed id that is not a version id, and shows one it imported before deleting it', async () => {
    const { desk, flow, told } = flowWith({ 'versions.import': () => versionDetail() });
    await flow.importThenShow('not an id');
    expect(flow.importProblem).toMatch(/8-4-4-4-12 hexadecimal digits/);
    expect(desk.channels()).toEqual([]);
    await flow.importThenShow(` ${BLOCKING.toUpperCase()} `);
    expect(flow.importProblem).toBeNull();
    expect(flow.showing).toBe(BLOCKING);
    expect(told).toEqual(['strategy changed']);
  });
});
