import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AppStatus } from '../../../../shared/views';
import { Connectivity } from '../../../../renderer/src/lib/stores/connectivity.svelte';
import { PROFILE, appStatus, deferred, fakeApi } from '../fake-api';

afterEach(() => vi.useRealTimers());

const figures = {
  runningVersions: 2,
  lastSyncAt: '2026-01-01T00:05:00.000Z',
  needsAttention: 1,
  failedUnacknowledged: 1,
};

describe('the connectivity store (the status bar)', () => {
  it('lays the figures a status change carries over the status, without a read', async () => {
    const desk = fakeApi({ 'app.status': () => appStatus() });
    const connectivity = new Connectivity(desk.api, () => PROFILE);
    await connectivity.refresh();
    connectivity.applyFigures(figures);
    expect(connectivity.status).toMatchObject(figures);
    expect(desk.channels()).toEqual(['app.status']);
  });

  it('keeps figures heard during a read over its older answer', async () => {
    const read = deferred<AppStatus>();
    const desk = fakeApi({ 'app.status': () => read.promise });
    const connectivity = new Connectivity(desk.api, () => PROFILE);
    connectivity.status = appStatus();
    const refreshing = connectivity.refresh();
    connectivity.applyFigures(figures);
    read.resolve(appStatus());
    await refreshing;
    expect(connectivity.status).toMatchObject(figures);
  });

  it('never moves the last sync back behind a strategy a screen already showed', async () => {
    const desk = fakeApi({ 'app.status': () => appStatus() });
    const connectivity = new Connectivity(desk.api, () => PROFILE);
    await connectivity.refresh();
    connectivity.noteSynced('2026-01-01T00:09:00.000Z');
    await connectivity.refresh();
    expect(connectivity.status?.lastSyncAt).toBe('2026-01-01T00:09:00.000Z');
  });

  it('says why the selected profile’s service is offline, and probes it until it answers', async () => {
    vi.useFakeTimers();
    let online = false;
    const desk = fakeApi({
      'app.status': () => appStatus({ online }),
      'profiles.testConnection': () => ({ grantedScopes: null }),
    });
    const connectivity = new Connectivity(desk.api, () => PROFILE);
    connectivity.applyChange({
      type: 'connectivity-changed',
      profileId: PROFILE,
      online: false,
      message: 'The service does not answer.',
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(connectivity.state).toBe('offline');
    expect(connectivity.offlineMessage).toBe('The service does not answer.');
    online = true;
    await vi.advanceTimersByTimeAsync(5_000);
    expect(desk.channels()).toContain('profiles.testConnection');
    expect(connectivity.state).toBe('online');
    expect(connectivity.offlineMessage).toBeNull();
    connectivity.stop();
  });
});
