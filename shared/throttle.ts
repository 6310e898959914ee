// The timers of the host it runs in (Node, the renderer's window): shared/ is checked with no
// host's types.
declare function setTimeout(run: () => void, ms: number): unknown;
declare function clearTimeout(timer: unknown): void;

/**
 * The one throttle of the app: many changes in a burst become one run at most every `everyMs`.
 * `soon()` runs it within `everyMs` (once, however often it is asked meanwhile); `now()` runs it
 * at once, dropping the one pending; `cancel()` drops the pending one. What to run gathers what
 * moved itself (a set of ids, say): the throttle only decides when.
 */
export class Throttle {
  private timer: unknown;

  constructor(
    private readonly everyMs: number,
    private readonly run: () => void,
  ) {}

  soon(): void {
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.run();
    }, this.everyMs);
  }

  now(): void {
    this.cancel();
    this.run();
  }

  cancel(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  get pending(): boolean {
    return this.timer !== undefined;
  }
}
