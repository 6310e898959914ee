import { contract, type Area, type DeskApi, type DeskEvent } from '../../../shared/contract';
import { DeskError, deskErrorData } from '../../../shared/views';
import { openEventStream } from './event-stream';

export interface HttpBridgeOptions {
  /** Where the browser host listens, e.g. `http://127.0.0.1:5173`; the page's own origin by default. */
  origin: string;
  token: string;
  fetch?: typeof fetch;
  /** Told when the push channel drops or comes back. */
  onStreamState?: (connected: boolean) => void;
}

const hostUnreachable = () =>
  new DeskError({
    kind: 'host-unreachable',
    message: 'The app is not answering. Check that it is still running, then try again.',
  });

/**
 * The contract over the browser host's HTTP API: `POST /api/<area>.<method>` with the bearer
 * token, `{ok:false}` rethrown as DeskError, answers parsed with the contract's output schemas.
 */
export function createHttpBridge(options: HttpBridgeOptions) {
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);

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
      throw hostUnreachable();
    }
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
    if (answer.ok === true) {
      const schema = (contract[area] as Record<string, { output: { parse(v: unknown): unknown } }>)[
        method
      ]!.output;
      try {
        return schema.parse(answer.value);
      } catch {
        throw new DeskError({
          kind: 'internal',
          message: 'The app answered in an unexpected form.',
        });
      }
    }
    const error = deskErrorData.safeParse(answer.error);
    throw new DeskError(
      error.success
        ? error.data
        : { kind: 'internal', message: 'The app answered in an unexpected form.' },
    );
  }

  // One function per method of the area, straight from the contract table.
  function area<A extends Area>(name: A): DeskApi[A] {
    return Object.fromEntries(
      Object.keys(contract[name]).map((method) => [
        method,
        (input: unknown) => call(name, method, input),
      ]),
    ) as DeskApi[A];
  }

  // One stream shared by every listener, opened with the first and closed with the last.
  const listeners = new Set<(event: DeskEvent) => void>();
  let stop: (() => void) | null = null;

  return {
    profiles: area('profiles'),
    strategies: area('strategies'),
    drafts: area('drafts'),
    versions: area('versions'),
    reports: area('reports'),
    app: area('app'),
    events: {
      subscribe(listener: (event: DeskEvent) => void) {
        listeners.add(listener);
        stop ??= openEventStream({
          url: `${options.origin}/api/events`,
          token: options.token,
          fetch: doFetch,
          onEvent: (event) => {
            for (const l of [...listeners]) l(event);
          },
          ...(options.onStreamState && { onState: options.onStreamState }),
        });
        return () => {
          listeners.delete(listener);
          if (listeners.size === 0 && stop) {
            stop();
            stop = null;
          }
        };
      },
    },
  } satisfies DeskApi;
}
