import { describe, expect, it } from 'vitest';
import { flushSync } from 'svelte';
import { Connectivity } from '../../../renderer/src/lib/stores/connectivity.svelte';

describe('probe', () => {
  it('derived follows state', () => {
    const c = new Connectivity({} as never, () => null);
    expect(c.online).toBe(true);
    c.status = { online: false } as never;
    flushSync();
    expect(c.online).toBe(false);
    expect(c.state).toBe('offline');
  });
});
