import { Autosave, type SaveState } from './autosave';
import type { DraftModel } from './draft-model';

type Rows = ReturnType<DraftModel['snapshot']>;

/**
 * A draft's autosave as the editor shows it: the save state in words, every edit saved soon after
 * it, and whatever is pending saved when the page hides or closes and when the editor goes.
 */
export class DraftSaving {
  state = $state<SaveState>({ kind: 'saved' });
  private readonly autosave: Autosave<Rows>;

  constructor(
    private readonly model: DraftModel,
    save: (rows: Rows) => Promise<unknown>,
    describe: (error: unknown) => string,
  ) {
    this.autosave = new Autosave<Rows>({
      save,
      onState: (state) => (this.state = state),
      describe,
    });
  }

  /** An edit was made: saved soon. */
  schedule(): void {
    this.autosave.schedule(() => this.model.snapshot());
  }

  /** Saves now; rejects when the rows could not be saved (executing waits for this). */
  flush(): Promise<void> {
    return this.autosave.flush();
  }

  /** Saves now; a failure shows in the state (and the next edit tries again). */
  flushQuietly(): void {
    void this.autosave.flush().catch(() => undefined);
  }

  /** The page closes: save, and ask the browser to wait while anything is unsaved. */
  beforeUnload(event: BeforeUnloadEvent): void {
    if (!this.autosave.dirty && this.state.kind !== 'saving') return;
    this.flushQuietly();
    event.preventDefault();
  }

  /** Mounted with the editor: saves on hide and close; returns what undoes it, saving what is left. */
  attach(): () => void {
    const onBeforeUnload = (event: BeforeUnloadEvent) => this.beforeUnload(event);
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') this.flushQuietly();
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload);
      document.removeEventListener('visibilitychange', onVisibility);
      // Leaving the tab or the draft: whatever is pending is saved now.
      this.flushQuietly();
      this.autosave.dispose();
    };
  }
}
