import type { DeskEvent, DeskEventOf, DeskEventType } from './contract';

type Listener = (event: DeskEvent) => void;

export interface EventListenersOptions {
  /** The first listener came: open whatever brings the events (the browser host's stream). */
  onFirst?: () => void;
  /** The last listener left: close it. */
  onLast?: () => void;
  /** A listener threw: the others still hear the event. Without it, the error propagates. */
  onListenerError?: (error: unknown) => void;
}

/**
 * The listeners of one bridge's events (the preload's, the HTTP bridge's): `subscribe` for every
 * event, `on` for one type with its data typed, both returning the unsubscribe function. Plain
 * data and functions only, no zod: the renderer bundles the HTTP bridge.
 */
export class EventListeners {
  private readonly listeners = new Set<Listener>();

  constructor(private readonly options: EventListenersOptions = {}) {}

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    if (this.listeners.size === 1) this.options.onFirst?.();
    return () => {
      if (!this.listeners.delete(listener)) return;
      if (this.listeners.size === 0) this.options.onLast?.();
    };
  }

  on<T extends DeskEventType>(type: T, handler: (event: DeskEventOf<T>) => void): () => void {
    return this.subscribe((event) => {
      if (event.type === type) handler(event as DeskEventOf<T>);
    });
  }

  /** Hands an event (already checked against the contract's schema) to every listener. */
  emit(event: DeskEvent): void {
    for (const listener of [...this.listeners]) {
      if (!this.options.onListenerError) {
        listener(event);
        continue;
      }
      try {
        listener(event);
      } catch (error) {
        this.options.onListenerError(error);
      }
    }
  }

  get size(): number {
    return this.listeners.size;
  }
}
