import { SvelteMap } from 'svelte/reactivity';
import type { DeskApi } from '../../../shared/contract';
import type { AttentionQueue, AttentionSignal } from '../../../shared/attention/contract';
import type { AttentionKind } from '../../../shared/attention/kinds';
import type { DeskError } from '../../../shared/views';
import { asDeskError } from '../lib/errors';

/**
 * How many signals the screen draws at first; "Show more" draws the next as many. Five screens'
 * worth at 1400×900 (a signal is about 70 px): a long queue is read and drawn in the time of a
 * short one, and the counts above it tell how many there are.
 */
export const SIGNALS_SHOWN = 50;

/**
 * A profile's attention queue as the screen holds it (docs/attention.md): read from the desk
 * (computed there from what the app stored), read again when the desk says a rebalance ended or
 * the book's rows moved, and the manager's actions on a signal. A failed call says why in
 * `error`; the queue shown stays.
 */
export class AttentionStore {
  queue = $state.raw<AttentionQueue | null>(null);
  error = $state.raw<DeskError | null>(null);
  loading = $state(false);
  /** Only this kind shown (null: every kind). */
  kind = $state<AttentionKind | null>(null);
  shown = $state(SIGNALS_SHOWN);
  /** The signal whose action is under way, so its buttons wait. */
  busyKey = $state<string | null>(null);
  private again = false;
  private stopListening: (() => void) | null = null;

  constructor(
    private readonly api: DeskApi,
    readonly profileId: string,
  ) {}

  /** The signals carried: the first `shown` of the kind chosen (the desk orders them). */
  readonly signals = $derived(this.queue?.signals ?? []);

  /** Signals per kind in the whole queue, for the filter. */
  readonly counts = $derived(
    new SvelteMap<AttentionKind, number>((this.queue?.counts ?? []).map((c) => [c.kind, c.count])),
  );

  /** Shows only `kind` (null: every kind), from the first signals again. */
  choose(kind: AttentionKind | null): void {
    this.kind = kind;
    this.shown = SIGNALS_SHOWN;
    void this.load();
  }

  /** Shows the next signals. */
  showMore(): void {
    this.shown += SIGNALS_SHOWN;
    void this.load();
  }

  /** Reads the queue, and again when the desk says what it rests on moved. */
  start(): void {
    void this.load();
    const unsubscribe = [
      this.api.events.on('version-status-changed', (e) => {
        if (e.profileId === this.profileId && e.ended) void this.load();
      }),
      this.api.events.on('book-rows-changed', (e) => {
        if (e.profileId === this.profileId) void this.load();
      }),
    ];
    this.stopListening = () => unsubscribe.forEach((stop) => stop());
  }

  stop(): void {
    this.stopListening?.();
    this.stopListening = null;
  }

  /** One read at a time; asked again meanwhile, one more read follows it. */
  async load(): Promise<void> {
    if (this.loading) {
      this.again = true;
      return;
    }
    this.loading = true;
    try {
      do {
        this.again = false;
        this.queue = await this.api.attention.queue({
          profileId: this.profileId,
          limit: this.shown,
          ...(this.kind !== null && { kind: this.kind }),
        });
        this.error = null;
      } while (this.again);
    } catch (error) {
      this.error = asDeskError(error);
    } finally {
      this.loading = false;
    }
  }

  /** Acknowledges or snoozes the signal with the manager's reason, then reads the queue again. */
  async setAside(
    signal: AttentionSignal,
    action: 'acknowledge' | 'snooze',
    reason: string,
    days?: number,
  ): Promise<void> {
    await this.acting(signal, async () => {
      await this.api.attention.dismiss({
        profileId: this.profileId,
        key: signal.key,
        evidenceKey: signal.evidenceKey,
        action,
        reason,
        ...(action === 'snooze' && { days: days ?? 7 }),
      });
      await this.load();
    });
  }

  /** A draft of the strategy from its known target, named after the signal; its id. */
  async startDraft(signal: AttentionSignal, name: string): Promise<string> {
    return this.acting(signal, async () => {
      const draft = await this.api.drafts.create({
        profileId: this.profileId,
        strategyId: signal.strategyId,
        name,
        start: 'target',
      });
      return draft.id;
    });
  }

  /** A batch review of the strategy with the model revision it follows. */
  async reviewWithModel(signal: AttentionSignal) {
    return this.acting(signal, async () => {
      const follows = await this.api.models.ofStrategy({
        profileId: this.profileId,
        strategyId: signal.strategyId,
      });
      if (!follows) throw new Error('This strategy follows no model any more.');
      return this.api.batches.review({
        profileId: this.profileId,
        revisionId: follows.revision.id,
        strategyIds: [signal.strategyId],
      });
    });
  }

  private async acting<T>(signal: AttentionSignal, work: () => Promise<T>): Promise<T> {
    this.busyKey = signal.key;
    try {
      const result = await work();
      this.error = null;
      return result;
    } catch (error) {
      this.error = asDeskError(error);
      throw this.error;
    } finally {
      this.busyKey = null;
    }
  }
}
