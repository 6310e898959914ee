import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { JournalEntryView, ProfileView } from '../../../../shared/views';
import { DeskSession } from '../../../../renderer/src/lib/stores/session.svelte';
import { StrategyDetail } from '../../../../renderer/src/lib/stores/strategy-detail.svelte';
import {
  PROFILE,
  STRATEGY,
  VERSION,
  appStatus,
  fakeApi,
  memoryStorage,
  settle,
  statusChanged,
  strategyLine,
  strategyView,
  versionDetail,
  versionLine,
} from '../fake-api';

const profile = { id: PROFILE, name: 'Sandbox', environment: 'sandbox' } as ProfileView;

function unknownEntry(strategyId = STRATEGY): JournalEntryView {
  return {
    id: 'a0000000-0000-4000-8000-000000000001',
    strategyId,
    draftId: null,
    state: 'unknown',
    versionId: null,
    error: 'The service did not answer',
    attempts: 1,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  };
}

/** A started session with one profile, one strategy open in its pane, and its version open. */
/** The open strategy's store, made as its pane makes it. */
function openedDetail(session: DeskSession): StrategyDetail {
  return new StrategyDetail(
    session.api,
    { profileId: PROFILE, strategyId: STRATEGY },
    session.detailHooks,
  );
}

async function started() {
  const desk = fakeApi({
    'app.firstScreen': () => ({ profiles: [profile], book: null }),
    'app.status': () => appStatus(),
    'strategies.list': () => [strategyLine()],
    'strategies.get': () => strategyView(),
    'versions.list': () => [versionLine()],
    'versions.get': () => versionDetail(),
    'versions.journal': () => [],
  });
  const session = new DeskSession(desk.api);
  await session.start();
  const detail = session.openDetail(openedDetail(session));
  detail.history.open();
  const open = detail.showVersion(VERSION);
  await settle();
  desk.calls.length = 0;
  return { desk, session, detail, open };
}

beforeEach(() => vi.stubGlobal('localStorage', memoryStorage()));
afterEach(() => vi.unstubAllGlobals());

describe('the session, the renderer’s one subscriber to the desk’s events', () => {
  it('subscribes once when it starts and leaves when it stops', async () => {
    const { desk, session } = await started();
    expect(desk.listeners()).toBe(1);
    session.stop();
    expect(desk.listeners()).toBe(0);
  });

  it('routes a status change to the status bar, the sidebar line, the open strategy, its history and its open version: one read, the version’s detail', async () => {
    const { desk, session, detail, open } = await started();
    const settled = strategyView({ syncedAt: '2026-01-01T00:02:00.000Z', isLiquidateOnly: true });
    desk.emit(
      statusChanged({
        status: 'COMPLETE',
        ended: true,
        version: versionLine({ status: 'COMPLETE', syncedAt: '2026-01-01T00:02:00.000Z' }),
        strategy: strategyLine({ isLiquidateOnly: true, syncedAt: '2026-01-01T00:02:00.000Z' }),
        settledStrategy: settled,
        appStatus: {
          runningVersions: 0,
          lastSyncAt: '2026-01-01T00:02:00.000Z',
          needsAttention: 1,
          failedUnacknowledged: 1,
        },
      }),
    );
    await settle();
    expect(session.connectivity.status?.needsAttention).toBe(1);
    expect(session.strategies.list[0]!.isLiquidateOnly).toBe(true);
    expect(detail.strategy).toEqual(settled);
    expect(detail.history.list?.[0]!.status).toBe('COMPLETE');
    expect(open.seen.COMPLETE).toBeTypeOf('string');
    expect(desk.channels()).toEqual(['versions.get']);
  });

  it('keeps the journal as journal-changed carries it: the sidebar line needs attention, the status bar its figures, nothing read again', async () => {
    const { desk, session } = await started();
    const figures = {
      runningVersions: 3,
      lastSyncAt: '2026-01-02T00:00:00.000Z',
      needsAttention: 1,
      failedUnacknowledged: 0,
    };
    desk.emit({
      type: 'journal-changed',
      profileId: PROFILE,
      inFlight: [unknownEntry()],
      appStatus: figures,
    });
    await settle();
    expect(session.journal.unknownFor(PROFILE, STRATEGY)).toEqual([unknownEntry()]);
    expect(session.strategies.list[0]!.needsAttention).toBe(true);
    // The status bar's figures (of every profile) are the event's, at once.
    expect(session.connectivity.status).toMatchObject(figures);

    desk.emit({
      type: 'journal-changed',
      profileId: PROFILE,
      inFlight: [],
      appStatus: { ...figures, runningVersions: 4, needsAttention: 0 },
    });
    // Past the throttle a read would have waited for (STATUS_REREAD_MS): none was made.
    await new Promise((r) => setTimeout(r, 600));
    expect(session.connectivity.status).toMatchObject({ runningVersions: 4, needsAttention: 0 });
    expect(session.journal.unknownFor(PROFILE, STRATEGY)).toEqual([]);
    expect(session.strategies.list[0]!.needsAttention).toBe(false);
    expect(desk.channels()).toEqual([]);
  });

  it('routes a change of following to the open version, which reads its detail again', async () => {
    const { desk } = await started();
    desk.emit({
      type: 'version-tracking-changed',
      profileId: PROFILE,
      strategyId: STRATEGY,
      versionId: VERSION,
      trackingProblem: null,
    });
    await new Promise((r) => setTimeout(r, 600));
    expect(desk.channels().sort()).toEqual(['app.status', 'versions.get']);
  });

  it('tells the open strategy its service is slow, and the status bar why it is offline', async () => {
    const { desk, session, detail } = await started();
    desk.emit({ type: 'connectivity-changed', profileId: PROFILE, online: true, message: 'slow' });
    expect(detail.serviceSlow).toBe(true);
    desk.emit({ type: 'connectivity-changed', profileId: PROFILE, online: false, message: 'gone' });
    expect(detail.serviceSlow).toBe(false);
    expect(session.connectivity.offlineMessage).toBe('gone');
  });

  it('opens the Reports tab on File › Export CSV… while a strategy is open', async () => {
    const { desk, session, detail } = await started();
    expect(session.tab).toBe('Overview');
    desk.emit({ type: 'menu-command', command: 'export-csv' });
    expect(session.tab).toBe('Reports');
    session.tab = 'Drafts';
    session.closeDetail(detail);
    desk.emit({ type: 'menu-command', command: 'export-csv' });
    expect(session.tab).toBe('Drafts');
  });

  it('tells the activity views and the exports under way their events, while they listen', async () => {
    const { desk, session } = await started();
    const heard: string[] = [];
    const leaveActivity = session.activityHeard.add((e) => heard.push(`activity ${e.entry.seq}`));
    const leaveExport = session.exportProgress.add((e) => heard.push(`export ${e.rows}`));
    const entry = { seq: 7 } as never;
    desk.emit({ type: 'activity-appended', profileId: PROFILE, entry });
    desk.emit({ type: 'export-progress', exportId: 'x', rows: 10, done: false });
    leaveActivity();
    leaveExport();
    desk.emit({ type: 'activity-appended', profileId: PROFILE, entry });
    desk.emit({ type: 'export-progress', exportId: 'x', rows: 20, done: true });
    expect(heard).toEqual(['activity 7', 'export 10']);
  });

  it('opens a version in the Versions tab, and a strategy’s pane on its Overview', async () => {
    const { session } = await started();
    session.openVersion(VERSION);
    expect([session.tab, session.versionId]).toEqual(['Versions', VERSION]);
    session.openDetail(openedDetail(session));
    expect([session.tab, session.versionId]).toEqual(['Overview', null]);
  });
});
