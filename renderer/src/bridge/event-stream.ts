import type { DeskEvent } from '../../../shared/contract';

/**
 * Splits a Server-Sent Events byte stream into the data of each event. Chunks may cut lines and
 * events anywhere; comments (keep-alives) are skipped.
 */
export class SseParser {
  private buffer = '';
  private data: string[] = [];

  push(chunk: string): string[] {
    // One pass over the text: a chunk may gather a frame's worth of events (host/events.ts).
    const text = this.buffer + chunk;
    const out: string[] = [];
    let start = 0;
    for (let newline = text.indexOf('\n'); newline >= 0; newline = text.indexOf('\n', start)) {
      const line = text.slice(
        start,
        newline > start && text[newline - 1] === '\r' ? newline - 1 : newline,
      );
      start = newline + 1;
      if (line === '') {
        if (this.data.length > 0) out.push(this.data.join('\n'));
        this.data = [];
      } else if (line.startsWith('data:')) {
        this.data.push(line.slice(line[5] === ' ' ? 6 : 5));
      }
    }
    this.buffer = text.slice(start);
    return out;
  }
}

export interface EventStreamOptions {
  url: string;
  token: string;
  fetch: typeof fetch;
  onEvent: (event: DeskEvent) => void;
  /** Told when the stream drops or comes back, so the screen can say the app is reconnecting. */
  onState?: (connected: boolean) => void;
  /**
   * Told why a (re)connection failed: nothing answers at the address (the app is not running),
   * or the host refused this page's access key (it was restarted with a new one; no retry then).
   */
  onFailure?: (why: 'unreachable' | 'unauthorized') => void;
}

const MIN_DELAY_MS = 500;
const MAX_DELAY_MS = 15_000;

/**
 * Reads the push channel with fetch (the token goes in a header, unlike EventSource) and
 * reconnects with backoff until stopped. Returns the stop function.
 */
export function openEventStream(options: EventStreamOptions): () => void {
  const controller = new AbortController();
  let delay = MIN_DELAY_MS;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const connect = async (): Promise<void> => {
    try {
      let response: Response;
      try {
        response = await options.fetch(options.url, {
          headers: { Authorization: `Bearer ${options.token}`, Accept: 'text/event-stream' },
          signal: controller.signal,
          cache: 'no-store',
        });
      } catch (error) {
        if (!controller.signal.aborted) options.onFailure?.('unreachable');
        throw error;
      }
      if (response.status === 401) {
        // Another launch of the app holds this address: retrying with this key cannot succeed.
        options.onState?.(false);
        options.onFailure?.('unauthorized');
        return;
      }
      if (!response.ok || !response.body) throw new Error(`status ${response.status}`);
      options.onState?.(true);
      delay = MIN_DELAY_MS;
      const parser = new SseParser();
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        for (const data of parser.push(value)) dispatch(data, options.onEvent);
      }
    } catch {
      // Dropped or refused: fall through to the retry below unless we were stopped.
    }
    if (controller.signal.aborted) return;
    options.onState?.(false);
    timer = setTimeout(() => void connect(), delay + Math.random() * delay * 0.3);
    delay = Math.min(delay * 2, MAX_DELAY_MS);
  };
  void connect();

  return () => {
    controller.abort();
    clearTimeout(timer);
  };
}

function dispatch(data: string, onEvent: (event: DeskEvent) => void): void {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return;
  }
  // The host sends only events that passed the contract's schema (events.ts): a list of types
  // here would drift from the contract (batch-progress was once missing, and dropped). The
  // session routes the types it knows and ignores any other.
  if (
    typeof json === 'object' &&
    json !== null &&
    typeof (json as { type?: unknown }).type === 'string'
  )
    onEvent(json as DeskEvent);
}
