import { isKind } from '../../../shared/errors';
import { toDeskError } from '../errors';
import type { ExecutionOutcome } from '../execution/execute';
import { SendTurns } from './send-turns';

/**
 * One run of a batch's send (send.ts): its turns to send (send-turns.ts), the pause a 429 asks
 * for, and what stops it (cancel, the first failure, a fault of the app's own), in the words its
 * unsent items keep.
 */

/**
 * What stops a run, in the words its unsent items keep; a fault of the app's own also says why
 * at batch level (`why`, kept on the batch: its words and its end's entry say it).
 */
export type Stop =
  | { state: 'cancelled' | 'halted'; reason: string }
  | { state: 'stopped'; reason: string; why: string };

/** An item whose turn came after the batch stopped: nothing was sent (its entry is withdrawn). */
export class StoppedBeforeSending extends Error {}

export class Run {
  stop: Stop | null = null;
  /** The app's own failure that stopped sending (the first), if one did. */
  fault: { error: unknown } | null = null;
  /** The versions accepted so far, followed once sending is over. */
  readonly accepted: ExecutionOutcome['follow'][] = [];
  pausedUntil = 0;
  done!: Promise<void>;
  private readonly turns: SendTurns;
  /** Turns taken and not given back yet, by item index. */
  private readonly held = new Map<number, () => void>();
  private readonly wakers = new Set<() => void>();
  private timer: NodeJS.Timeout | null = null;

  constructor(concurrency: number) {
    this.turns = new SendTurns(concurrency);
  }

  /** Waits for an item's turn to send (not while paused); throws when the batch stopped. */
  async takeTurn(index: number): Promise<void> {
    const turnOver = await this.turns.take(index);
    await this.waitWhilePaused();
    if (this.stop !== null) {
      turnOver();
      throw new StoppedBeforeSending(this.stop.reason);
    }
    this.held.set(index, turnOver);
  }

  /** The item's turn is over (its answer came, or it failed and the run decided what next). */
  giveBack(index: number): void {
    this.held.get(index)?.();
    this.held.delete(index);
  }

  /** The item is done: its turn, taken or not, goes to the next. */
  itemDone(index: number): void {
    this.giveBack(index);
    this.turns.pass(index);
  }

  /** Waits while paused (or until stopped). */
  async waitWhilePaused(): Promise<void> {
    while (this.stop === null && Date.now() < this.pausedUntil) {
      await new Promise<void>((resolve) => {
        this.wakers.add(resolve);
        this.timer ??= setTimeout(() => this.wakeAll(), this.pausedUntil - Date.now());
      });
    }
  }

  halt(stop: Stop): void {
    this.stop ??= stop;
    this.turns.stop();
    this.wakeAll();
  }

  /** The app failed while sending (a write refused): nothing more is sent, in these words. */
  failed(error: unknown): void {
    this.fault ??= { error };
    const why = faultWords(error);
    this.halt({
      state: 'stopped',
      reason: `Not sent: sending stopped, ${why.item}. Review it again.`,
      why: why.batch,
    });
  }

  /** Why the batch stopped, kept on it: only a fault's (a cancel or a failure says itself). */
  get stopReason(): string | null {
    return this.stop?.state === 'stopped' ? this.stop.why : null;
  }

  private wakeAll(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const wake of this.wakers) wake();
    this.wakers.clear();
  }
}

/** Why the app's own failure stopped sending: as an unsent item says it, and as the batch does. */
function faultWords(error: unknown): { item: string; batch: string } {
  const desk = toDeskError(error);
  if (!isKind(desk, 'internal')) {
    const why = desk.message.replace(/\.$/, '');
    return { item: why, batch: why };
  }
  return {
    item: 'the app failed to record it (the log says how)',
    batch: 'the app failed to record what it sent (the log says how)',
  };
}
