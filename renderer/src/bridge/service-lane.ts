import type { Channel } from '../../../shared/contract';

/**
 * Calls that wait on the service. A browser opens at most six connections to the host, one
 * of them held by the event stream: if slow service calls took the rest, a draft save (a
 * local write that takes milliseconds) would queue behind them for as long as the service
 * takes. So service calls share a few connections and queue among themselves; every other
 * call always finds a connection free.
 */
export const SERVICE_CHANNELS: ReadonlySet<string> = new Set([
  'profiles.testConnection',
  'profiles.check',
  'profiles.useSandbox',
  'strategies.add',
  'strategies.refresh',
  'versions.import',
  'versions.execute',
  'versions.retryExecution',
  'versions.prepareDelete',
  'versions.delete',
  'versions.checkNow',
] satisfies Channel[]);

/** How many service calls may be in flight at once (of the browser's six connections). */
export const SERVICE_LANE_WIDTH = 3;

/** Runs at most `width` tasks at once, the others in the order they came. */
export function createLane(width: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async function run<T>(task: () => Promise<T>): Promise<T> {
    if (running >= width) await new Promise<void>((resolve) => waiting.push(resolve));
    else running++;
    try {
      return await task();
    } finally {
      // The slot passes straight to the next in line, so `running` stays counted.
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}
