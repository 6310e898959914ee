import type * as Removed from './RemovedActivity.svelte';

/**
 * The removed profiles' activity on the welcome screen: its own chunk, loaded after the welcome
 * screen shows (it only appears once every profile was removed, and the screen never waits on it).
 */
let removed: Promise<typeof Removed> | undefined;

export const loadRemovedActivity = (): Promise<typeof Removed> =>
  (removed ??= import('./RemovedActivity.svelte'));
