import type { DeskEvent } from '../../../shared/contract';

export type DeskListener = (event: DeskEvent) => void;

/**
 * Where the desk's events (the contract's DeskEvent) go: every subscriber hears each one, in the
 * order they happened. The hosts subscribe through the desk; the flows are handed `emit`.
 * An event emitted by a listener (a batch ending when it hears its last version end) waits until
 * the event under way has reached every listener: a later subscriber never hears the consequence
 * before its cause.
 */
export class EventHub {
  private readonly listeners = new Set<DeskListener>();
  private readonly queued: DeskEvent[] = [];
  private delivering = false;

  /** Bound, so the flows are handed `hub.emit` itself. */
  readonly emit = (event: DeskEvent): void => {
    this.queued.push(event);
    if (this.delivering) return;
    this.delivering = true;
    try {
      for (let next = this.queued.shift(); next !== undefined; next = this.queued.shift())
        this.deliver(next);
    } finally {
      this.delivering = false;
    }
  };

  private deliver(event: DeskEvent): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch {
        // One broken listener must not stop the others from hearing about a version.
      }
    }
  }

  subscribe(listener: DeskListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** False once the desk is closing: nobody listens then (its store may be closed already). */
  get listening(): boolean {
    return this.listeners.size > 0;
  }

  clear(): void {
    this.listeners.clear();
    this.queued.length = 0;
  }
}

/** What an area needs to announce something. */
export type Emit = (event: DeskEvent) => void;
