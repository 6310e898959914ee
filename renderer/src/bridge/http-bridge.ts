import { CONTRACT_METHODS } from '../../../shared/channels';
import type { Area, DeskApi, DeskEvent } from '../../../shared/contract';
import { deskEventsOf } from '../../../shared/event-listeners';
import { Listeners } from '../../../shared/listeners';
import { DeskError } from '../../../shared/errors';
import { openEventStream } from './event-stream';
import { SERVICE_CHANNELS, SERVICE_LANE_WIDTH, createLane } from './service-lane';

export interface HttpBridgeOptions {
  /** Where the browser host listens, e.g. `http://127.0.0.1:5173`; the page's own origin by default. */
  origin: string;
  token: string;
  fetch?: typeof fetch;
  /** Told when the push channel drops or comes back. */
  onStreamState?: (connected: boolean) => void;
  /** Told when the app stops answering, answers again, or no longer accepts this page's key. */
  onHostState?: (state: HostState) => void;
}

/**
 * What the page knows of the app behind it: answering; not running (nothing answers at its
 * address); or running with another access key (it was restarted), which this page cannot get.
 */
export type HostState = 'live' | 'gone' | 'key-invalid';

export const HOST_GONE_MESSAGE =
  'The app is not running: restart it and open the new address it prints.';
export const KEY_INVALID_MESSAGE =
  "This page's access key is no longer valid: the app was restarted. Open the new address it printed (it ends with #token=…).";

const hostUnreachable = () =>
  new DeskError({ kind: 'host-unreachable', message: HOST_GONE_MESSAGE });
const keyInvalid = () =>
  new DeskError({ kind: 'access-key-invalid', message: KEY_INVALID_MESSAGE });

/**
 * The contract over the browser host's HTTP API: `POST /api/<area>.<method>` with the bearer
 * token, `{ok:false}` rethrown as DeskError. The host parses every input and output with the
 * contract's zod schemas; the renderer does not bundle them (they would be most of its size).
 */
export function createHttpBridge(options: HttpBridgeOptions) {
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const serviceLane = createLane(SERVICE_LANE_WIDTH);
  let hostState: HostState = 'live';
  const report = (next: HostState) => {
    // A refused key stays refused: only the new address (with its new key) gets further.
    if (hostState === next || hostState === 'key-invalid') return;
    hostState = next;
    options.onHostState?.(next);
  };

  async function call(area: Area, method: string, input: unknown): Promise<unknown> {
    const channel = `${area}.${method}`;
    let response: Response;
    try {
      response = await doFetch(`${options.origin}/api/${channel}`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${options.token}`,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify(input ?? {}),
        cache: 'no-store',
      });
    } catch {
      report('gone');
      throw hostUnreachable();
    }
    // The host's own 401 (a service's 401 arrives as an answer with status 200).
    if (response.status === 401) {
      report('key-invalid');
      throw keyInvalid();
    }
    report('live');
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      throw new DeskError({
        kind: 'internal',
        message: 'The app answered in an unexpected form.',
        status: response.status,
      });
    }
    const answer = body as { ok?: unknown; value?: unknown; error?: unknown };
    if (answer.ok === true && 'value' in answer) return answer.value;
    // The host parsed the error with the wire schema (each kind's details of its own shape).
    throw (
      DeskError.fromUnknown(answer.error) ??
      new DeskError({ kind: 'internal', message: 'The app answered in an unexpected form.' })
    );
  }

  // One function per method of the area, straight from the contract table.
  function area<A extends Area>(name: A): DeskApi[A] {
    return Object.fromEntries(
      CONTRACT_METHODS[name].map((method) => [
        method,
        (input: unknown) =>
          SERVICE_CHANNELS.has(`${name}.${method}`)
            ? serviceLane(() => call(name, method, input))
            : call(name, method, input),
      ]),
    ) as DeskApi[A];
  }

  // One stream shared by every listener, opened with the first and closed with the last.
  let stop: (() => void) | null = null;
  const listeners: Listeners<DeskEvent> = new Listeners<DeskEvent>({
    onFirst: () => {
      stop ??= openEventStream({
        url: `${options.origin}/api/events`,
        token: options.token,
        fetch: doFetch,
        onEvent: (event) => listeners.emit(event),
        onState: (connected) => {
          if (connected) report('live');
          options.onStreamState?.(connected);
        },
        onFailure: (why) => report(why === 'unreachable' ? 'gone' : 'key-invalid'),
      });
    },
    onLast: () => {
      stop?.();
      stop = null;
    },
  });

  return {
    profiles: area('profiles'),
    strategies: area('strategies'),
    drafts: area('drafts'),
    versions: area('versions'),
    reports: area('reports'),
    activity: area('activity'),
    book: area('book'),
    models: area('models'),
    batches: area('batches'),
    attention: area('attention'),
    restrictions: area('restrictions'),
    team: area('team'),
    app: area('app'),
    events: deskEventsOf(listeners),
  } satisfies DeskApi;
}
