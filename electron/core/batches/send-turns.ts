/**
 * A batch's turns to send (send.ts): at most `limit` executions between their claim and the
 * service's answer, their first sends taken in the items' order. An item checks itself against
 * its fresh read before its turn and settles the answer after giving it back, so those steps of
 * one item overlap the sends of others while the number at the service stays the batch's
 * concurrency.
 *
 * Every index either takes its turn or passes it (an item that will not send); a later index
 * waits for the ones before it. A second take by an index whose turn has come (sending again
 * after a 429's wait) only waits for a free slot. Once stopped, every waiting take resolves at
 * once: the caller sees the stop and sends nothing.
 */
export class SendTurns {
  /** The index whose first turn comes next. */
  private next = 0;
  private inFlight = 0;
  private stopped = false;
  private readonly passed = new Set<number>();
  private waiters: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  /** Resolves with the release of the turn, once it is `index`'s turn and a slot is free. */
  async take(index: number): Promise<() => void> {
    while (!this.stopped && !(this.inFlight < this.limit && index <= this.next))
      await new Promise<void>((wake) => this.waiters.push(wake));
    if (index === this.next) this.advance();
    this.inFlight++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.inFlight--;
      this.wakeAll();
    };
  }

  /** `index` will not take its first turn: the next one may. (Nothing once it has.) */
  pass(index: number): void {
    if (index < this.next) return;
    this.passed.add(index);
    if (index === this.next) this.advance();
  }

  /** Every waiting and later take resolves at once. */
  stop(): void {
    this.stopped = true;
    this.wakeAll();
  }

  private advance(): void {
    this.next++;
    while (this.passed.delete(this.next)) this.next++;
    this.wakeAll();
  }

  private wakeAll(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}
