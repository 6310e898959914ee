import { mount } from 'svelte';
import type { DeskApi } from '../../../shared/contract';
import { DeskError } from '../../../shared/errors';
import { HostWatch } from './host-state.svelte';
import HostNotice from './HostNotice.svelte';
import { createHttpBridge } from './http-bridge';
import { takeToken } from './token';

declare global {
  interface Window {
    /** Exposed by Electron's preload; absent when the browser host serves the page. */
    desk?: DeskApi;
  }
}

let desk: DeskApi | null = null;

/**
 * The only door to the main process. The preload's API in Electron, the HTTP bridge in a
 * browser: the rest of the renderer cannot tell them apart.
 */
export function getDesk(): DeskApi {
  if (desk) return desk;
  if (window.desk) {
    desk = window.desk;
    return desk;
  }
  const token = takeToken();
  if (!token) {
    throw new DeskError({
      kind: 'no-access-key',
      message:
        'This page was opened without its access key. Open the address the app printed when it started (it ends with #token=…).',
    });
  }
  // The browser host can stop (or restart with a new key) under an open tab: the tab says so.
  const watch = new HostWatch();
  mount(HostNotice, { target: document.body, props: { watch } });
  desk = createHttpBridge({
    origin: location.origin,
    token,
    onHostState: (state) => (watch.state = state),
  });
  return desk;
}
