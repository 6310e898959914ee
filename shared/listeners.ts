/**
 * The one listener set of the app, core and renderer alike: who hears a kind of event, in the
 * order they joined. `add` returns the function that removes the listener; `emit` hands the
 * event to every listener present when it was emitted. Plain data and functions only (the
 * renderer bundles it).
 */
export interface ListenersOptions {
  /** The first listener came: open whatever brings the events (the browser host's stream). */
  onFirst?: () => void;
  /** The last listener left: close it. */
  onLast?: () => void;
  /** A listener threw: the others still hear the event. Without it, the error propagates. */
  onListenerError?: (error: unknown) => void;
}

export class Listeners<E> {
  private readonly listeners = new Set<(event: E) => void>();

  constructor(private readonly options: ListenersOptions = {}) {}

  add(listener: (event: E) => void): () => void {
    this.listeners.add(listener);
    if (this.listeners.size === 1) this.options.onFirst?.();
    return () => {
      if (!this.listeners.delete(listener)) return;
      if (this.listeners.size === 0) this.options.onLast?.();
    };
  }

  emit(event: E): void {
    const { onListenerError } = this.options;
    for (const listener of [...this.listeners]) {
      if (!onListenerError) {
        listener(event);
        continue;
      }
      try {
        listener(event);
      } catch (error) {
        onListenerError(error);
      }
    }
  }

  get size(): number {
    return this.listeners.size;
  }

  /** Everyone leaves at once (the owner is closing); `onLast` is not told. */
  clear(): void {
    this.listeners.clear();
  }
}
