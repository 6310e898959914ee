import { describe, expect, it } from 'vitest';
import { DeskError } from '../../../../shared/errors';
import type { StrategyView } from '../../../../shared/views';
import { StrategyDetail } from '../../../../renderer/src/lib/stores/strategy-detail.svelte';
import {
  PROFILE,
  STRATEGY,
  VERSION,
  deferred,
  fakeApi,
  settle,
  statusChanged,
  strategyView,
  versionDetail,
  versionLine,
} from '../fake-api';

function detailWith(answers: Record<string, (input: never) => unknown>) {
  const desk = fakeApi(answers);
  const told: string[] = [];
  const detail = new StrategyDetail(
    desk.api,
    { profileId: PROFILE, strategyId: STRATEGY },
    {
      synced: (at) => told.push(`synced ${at}`),
      linesChanged: () => told.push('lines'),
      figuresChanged: () => told.push('figures'),
    },
  );
  return { desk, detail, told };
}

const ended = (settledStrategy: StrategyView | null) =>
  statusChanged({
    status: 'COMPLETE',
    ended: true,
    version: versionLine({ status: 'COMPLETE', syncedAt: '2026-01-01T00:02:00.000Z' }),
    settledStrategy,
  });

describe('the open strategy’s store', () => {
  it('takes the strategy a rebalance’s end carries, and drops a slower read asked for before it', async () => {
    const read = deferred<StrategyView>();
    const { desk, detail, told } = detailWith({ 'strategies.get': () => read.promise });
    const loading = detail.load();
    const settled = strategyView({ syncedAt: '2026-01-01T00:02:00.000Z', isLiquidateOnly: true });
    detail.applyStatusChange(ended(settled));
    read.resolve(strategyView());
    await loading;
    expect(detail.strategy).toEqual(settled);
    expect(told).toEqual(['synced 2026-01-01T00:02:00.000Z']);
    expect(desk.channels()).toEqual(['strategies.get']);
  });

  it('leaves another strategy’s change alone', async () => {
    const { detail } = detailWith({ 'strategies.get': () => strategyView() });
    await detail.load();
    detail.applyStatusChange(ended(strategyView({ id: 'c0000000-0000-4000-8000-000000000009' })));
    expect(detail.strategy).toEqual(strategyView());
  });

  it('keeps its history current from the lines status changes carry, even one heard during the read', async () => {
    const read = deferred<ReturnType<typeof versionLine>[]>();
    const { desk, detail } = detailWith({ 'versions.list': () => read.promise });
    detail.history.open();
    detail.applyStatusChange(statusChanged());
    read.resolve([versionLine()]);
    await settle();
    expect(detail.history.list?.map((v) => v.status)).toEqual(['IN_PROGRESS']);
    detail.applyStatusChange(ended(null));
    expect(detail.history.list?.map((v) => v.status)).toEqual(['COMPLETE']);
    expect(desk.channels()).toEqual(['versions.list']);
  });

  it('reads the open version again on each of its changes and notes when each status was seen live', async () => {
    const { desk, detail } = detailWith({ 'versions.get': () => versionDetail() });
    const open = detail.showVersion(VERSION);
    await settle();
    detail.applyStatusChange(statusChanged());
    await settle();
    expect(open.seen.IN_PROGRESS).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(desk.channels()).toEqual(['versions.get', 'versions.get']);
    detail.closeVersion(open);
    detail.applyStatusChange(statusChanged());
    expect(desk.channels()).toHaveLength(2);
    expect(detail.version).toBeNull();
  });

  it('reads the strategy again when a rebalance ended but the event could not carry it', async () => {
    const { desk, detail, told } = detailWith({
      'strategies.get': () => strategyView(),
      'versions.get': () => versionDetail(),
      'strategies.refresh': () => strategyView(),
    });
    await detail.load();
    detail.showVersion(VERSION);
    await settle();
    detail.applyStatusChange(ended(null));
    await settle();
    expect(desk.channels()).toEqual([
      'strategies.get',
      'versions.get',
      'versions.get',
      'strategies.refresh',
      'strategies.get',
    ]);
    expect(told.at(-1)).toBe('lines');
  });

  it('says the service is slow only for its own profile while online', () => {
    const { detail } = detailWith({});
    const change = { type: 'connectivity-changed', online: true, message: 'slow' } as const;
    detail.applyConnectivity({ ...change, profileId: 'e0000000-0000-4000-8000-000000000001' });
    expect(detail.serviceSlow).toBe(false);
    detail.applyConnectivity({ ...change, profileId: PROFILE });
    expect(detail.serviceSlow).toBe(true);
  });

  it('keeps the last view when a refresh is cancelled, and says why any other refresh failed', async () => {
    let kind = 'cancelled';
    const { detail } = detailWith({
      'strategies.get': () => strategyView(),
      'strategies.refresh': () => {
        throw new DeskError({ kind, message: `refresh ${kind}` } as never);
      },
    });
    await detail.load();
    await detail.refresh();
    expect([detail.failure, detail.refreshing]).toEqual([null, false]);
    kind = 'network';
    await detail.refresh();
    expect(detail.failure?.kind).toBe('network');
    expect(detail.strategy).toEqual(strategyView());
  });

  it('acknowledges a failure: the version shows it, the sidebar and the status bar count again', async () => {
    const acknowledged = versionDetail({ failureAcknowledgedAt: '2026-01-01T00:03:00.000Z' });
    const { detail, told } = detailWith({
      'versions.get': () => versionDetail(),
      'versions.acknowledgeFailure': () => acknowledged,
    });
    const open = detail.showVersion(VERSION);
    await settle();
    await open.acknowledge();
    expect(open.version).toEqual(acknowledged);
    expect(told).toEqual(['lines', 'figures']);
  });
});
