import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StrategyListItem } from '../../../../shared/views';
import { Strategies } from '../../../../renderer/src/lib/stores/strategies.svelte';
import {
  OTHER_PROFILE,
  OTHER_STRATEGY,
  PROFILE,
  STRATEGY,
  deferred,
  fakeApi,
  memoryStorage,
  strategyLine,
} from '../fake-api';

beforeEach(() => vi.stubGlobal('localStorage', memoryStorage()));
afterEach(() => vi.unstubAllGlobals());

const entry = (strategyId: string, state: string) =>
  ({ id: 'a0000000-0000-4000-8000-000000000001', strategyId, state }) as never;
const unknown = (strategyId: string) => entry(strategyId, 'unknown');

describe('the strategies store (the sidebar)', () => {
  it('lists a profile’s strategies and opens the one last open with it', async () => {
    const desk = fakeApi({
      'strategies.list': () => [strategyLine(), strategyLine({ id: OTHER_STRATEGY, name: 'B' })],
    });
    const strategies = new Strategies(desk.api);
    await strategies.show(PROFILE);
    strategies.open(OTHER_STRATEGY);
    await strategies.show(null);
    await strategies.show(PROFILE);
    expect(strategies.selectedId).toBe(OTHER_STRATEGY);
    expect(strategies.list.map((s) => s.name)).toEqual(['Core Equity', 'B']);
  });

  it('replaces a line a status change carries, without a read; another profile’s is left alone', async () => {
    const desk = fakeApi({ 'strategies.list': () => [strategyLine()] });
    const strategies = new Strategies(desk.api);
    await strategies.show(PROFILE);
    strategies.applyLine(PROFILE, strategyLine({ running: true }));
    strategies.applyLine(OTHER_PROFILE, strategyLine({ name: 'elsewhere' }));
    expect(strategies.list).toEqual([strategyLine({ running: true })]);
    expect(desk.channels()).toEqual(['strategies.list']);
  });

  it('lays a line heard during a read over that read’s older answer', async () => {
    const desk = fakeApi({ 'strategies.list': () => [strategyLine()] });
    const strategies = new Strategies(desk.api);
    await strategies.show(PROFILE);
    const read = deferred<StrategyListItem[]>();
    desk.answers['strategies.list'] = () => read.promise;
    const loading = strategies.load();
    const told = strategyLine({ running: true, syncedAt: '2026-01-01T00:01:00.000Z' });
    strategies.applyLine(PROFILE, told);
    read.resolve([strategyLine()]);
    await loading;
    expect(strategies.list).toEqual([told]);
    expect(desk.channels()).toEqual(['strategies.list', 'strategies.list']);
  });

  it('needs attention while the journal holds an execution of unknown outcome, or a failure is not acknowledged', async () => {
    const failed = strategyLine({
      id: OTHER_STRATEGY,
      needsAttention: true,
      failedVersionIds: ['f0000000-0000-4000-8000-000000000001'],
    });
    const desk = fakeApi({ 'strategies.list': () => [strategyLine(), failed] });
    const strategies = new Strategies(desk.api);
    await strategies.show(PROFILE);
    strategies.applyJournal(PROFILE, [unknown(STRATEGY)]);
    expect(strategies.list.map((s) => s.needsAttention)).toEqual([true, true]);
    strategies.applyJournal(PROFILE, [unknown(OTHER_STRATEGY)]);
    expect(strategies.list.map((s) => s.needsAttention)).toEqual([false, true]);
    expect(desk.channels()).toEqual(['strategies.list']);
  });

  it('leaves the list as it is when a journal event changes no line (a batch tells one per strategy)', async () => {
    const desk = fakeApi({ 'strategies.list': () => [strategyLine()] });
    const strategies = new Strategies(desk.api);
    await strategies.show(PROFILE);
    const before = strategies.list;
    strategies.applyJournal(PROFILE, [entry(OTHER_STRATEGY, 'sent'), entry(STRATEGY, 'accepted')]);
    expect(strategies.list).toBe(before);
    strategies.applyJournal(PROFILE, [unknown(STRATEGY)]);
    expect(strategies.list).not.toBe(before);
    expect(strategies.list.map((s) => s.needsAttention)).toEqual([true]);
  });

  it('keeps the journal’s word over a list read before it', async () => {
    const read = deferred<StrategyListItem[]>();
    const desk = fakeApi({ 'strategies.list': () => read.promise });
    const strategies = new Strategies(desk.api);
    const showing = strategies.show(PROFILE);
    strategies.applyJournal(PROFILE, [unknown(STRATEGY)]);
    read.resolve([strategyLine()]);
    await showing;
    expect(strategies.list[0]!.needsAttention).toBe(true);
  });
});
