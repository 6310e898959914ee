import type { HostState } from './http-bridge';

/** The browser host as this page last found it, for the notice that covers a page gone stale. */
export class HostWatch {
  state = $state<HostState>('live');
}
