import type { DeskApi } from '../../../shared/contract';
import type { DeskError, DraftStart, DraftSummary, DraftView } from '../../../shared/views';
import { asDeskError } from '../lib/errors';

/** One strategy's drafts and the one open in the editor; a failed call says why in `failure`. */
export class DraftList {
  list = $state<DraftSummary[]>([]);
  open = $state<DraftView | null>(null);
  failure = $state<DeskError | null>(null);
  loading = $state(true);

  constructor(
    private readonly api: DeskApi,
    private readonly ref: { profileId: string; strategyId: string },
  ) {}

  /** Reads the list; opens `select`, else keeps the open draft, else opens the newest. */
  async load(select?: string): Promise<void> {
    try {
      this.list = await this.api.drafts.list(this.ref);
      const id = select ?? this.open?.id ?? newest(this.list)?.id;
      if (id && id !== this.open?.id) this.open = await this.api.drafts.get({ draftId: id });
      if (!id) this.open = null;
    } catch (error) {
      this.failure = asDeskError(error);
    } finally {
      this.loading = false;
    }
  }

  async create(name: string, start: DraftStart): Promise<void> {
    const made = await this.api.drafts.create({ ...this.ref, name, start });
    this.open = made;
    await this.load(made.id);
  }

  async select(draftId: string): Promise<void> {
    this.open = await this.api.drafts.get({ draftId });
  }

  async rename(draft: DraftView, name: string): Promise<void> {
    const summary = await this.api.drafts.rename({ draftId: draft.id, name });
    this.open = { ...draft, name: summary.name };
    this.saved(summary);
  }

  async remove(draft: DraftView): Promise<void> {
    await this.api.drafts.remove({ draftId: draft.id });
    this.open = null;
    await this.load();
  }

  /** Saves the open draft's rows (the editor's autosave); its line in the list says so. */
  async saveRows(draftId: string, rows: DraftView['rows']): Promise<void> {
    this.saved(await this.api.drafts.saveRows({ draftId, rows }));
  }

  /** A draft was saved: its line in the list says so. */
  saved(summary: DraftSummary): void {
    this.list = this.list.map((d) => (d.id === summary.id ? summary : d));
  }

  /** Runs a call that reports its failure here rather than throwing. */
  async act(fn: () => Promise<void>): Promise<void> {
    this.failure = null;
    try {
      await fn();
    } catch (error) {
      this.failure = asDeskError(error);
    }
  }
}

function newest(list: DraftSummary[]): DraftSummary | undefined {
  return [...list].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))[0];
}
