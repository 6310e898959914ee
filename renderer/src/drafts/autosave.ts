/**
 * Autosave of a draft's rows: soon after each edit (a short debounce so a burst of keys is one
 * write), one save at a time, the latest rows always win, and flush() on blur, tab switch,
 * close and before execute. A failed save keeps the rows dirty and says why.
 */

export type SaveState =
  { kind: 'saved' } | { kind: 'pending' } | { kind: 'saving' } | { kind: 'error'; message: string };

export interface AutosaveOptions<R> {
  save: (rows: R) => Promise<unknown>;
  onState: (state: SaveState) => void;
  /** Error to words (a DeskError's message). */
  describe: (error: unknown) => string;
  delayMs?: number;
}

export class Autosave<R> {
  private snapshot: (() => R) | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private running: Promise<void> | null = null;
  private readonly delayMs: number;

  constructor(private readonly options: AutosaveOptions<R>) {
    this.delayMs = options.delayMs ?? 300;
  }

  /** Something changed: save `snapshot()` soon (it is read when the save starts). */
  schedule(snapshot: () => R): void {
    this.snapshot = snapshot;
    this.options.onState({ kind: 'pending' });
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.flush().catch(() => undefined), this.delayMs);
  }

  get dirty(): boolean {
    return this.snapshot !== null;
  }

  /** Saves now what is pending and resolves once every edit so far is stored; rejects if not. */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    while (this.running) await this.running.catch(() => undefined);
    const snapshot = this.snapshot;
    if (!snapshot) return;
    this.snapshot = null;
    this.options.onState({ kind: 'saving' });
    const rows = snapshot();
    this.running = this.options.save(rows).then(
      () => {
        this.running = null;
        this.options.onState(this.snapshot ? { kind: 'pending' } : { kind: 'saved' });
      },
      (error: unknown) => {
        this.running = null;
        // Keep the edit: the next flush (or the next keystroke) tries again.
        this.snapshot ??= snapshot;
        this.options.onState({ kind: 'error', message: this.options.describe(error) });
        throw error;
      },
    );
    await this.running;
    if (this.snapshot) await this.flush();
  }

  dispose(): void {
    clearTimeout(this.timer);
  }
}
