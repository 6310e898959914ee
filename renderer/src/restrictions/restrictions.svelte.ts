import type { DeskApi, DeskEventOf } from '../../../shared/contract';
import type { Listeners } from '../../../shared/listeners';
import type { RestrictionView } from '../../../shared/restrictions/contract';
import type { DeskError } from '../../../shared/views';
import { asDeskError } from '../lib/errors';
import { ExportRun } from '../lib/stores/export-run.svelte';

export type NewRestrictionInput = Omit<Parameters<DeskApi['restrictions']['add']>[0], 'profileId'>;

/** The profile's restrictions as CSV, followed as every export is. */
export class RestrictionsExport extends ExportRun {
  constructor(
    private readonly desk: DeskApi,
    private readonly profileId: string,
    progress: Listeners<DeskEventOf<'export-progress'>>,
  ) {
    super(progress);
  }

  async run(): Promise<void> {
    await this.start((exportId) =>
      this.desk.restrictions.exportCsv({ profileId: this.profileId, exportId }),
    );
  }
}

/**
 * A profile's restrictions as the screen holds them (docs/restrictions.md): every rule ever set,
 * the ended ones too (a rule is never deleted, only ended). A failed call says why in `error`;
 * the list shown stays.
 */
export class RestrictionsStore {
  list = $state.raw<RestrictionView[] | null>(null);
  error = $state.raw<DeskError | null>(null);
  /** What the last import or end did, in words. */
  notice = $state<string | null>(null);
  busy = $state(false);

  constructor(
    private readonly api: DeskApi,
    readonly profileId: string,
  ) {}

  async load(): Promise<void> {
    try {
      this.list = await this.api.restrictions.list({ profileId: this.profileId });
      this.error = null;
    } catch (error) {
      this.error = asDeskError(error);
    }
  }

  /** Adds a rule; the desk's refusal is thrown for the form to show beside its fields. */
  async add(input: NewRestrictionInput): Promise<RestrictionView> {
    const added = await this.api.restrictions.add({ ...input, profileId: this.profileId });
    this.notice = `Added: ${describe(added)}.`;
    await this.load();
    return added;
  }

  /** Ends a rule now: it stays listed, no longer in force. */
  async end(rule: RestrictionView): Promise<void> {
    await this.act(async () => {
      await this.api.restrictions.end({ profileId: this.profileId, restrictionId: rule.id });
      this.notice = `Ended: ${describe(rule)}.`;
    });
  }

  /** Adds every row of a CSV file, or none (the desk names the line and column it refused). */
  async importCsv(text: string, setBy: string): Promise<void> {
    await this.act(async () => {
      const { added } = await this.api.restrictions.importCsv({
        profileId: this.profileId,
        text,
        setBy,
      });
      this.notice = `Imported ${added} ${added === 1 ? 'restriction' : 'restrictions'}.`;
    });
  }

  private async act(run: () => Promise<void>): Promise<void> {
    this.busy = true;
    this.notice = null;
    try {
      await run();
      this.error = null;
      await this.load();
    } catch (error) {
      this.error = asDeskError(error);
    } finally {
      this.busy = false;
    }
  }
}

export const KIND_TEXT: Record<RestrictionView['kind'], string> = {
  'do-not-buy': 'Do not buy',
  'do-not-sell': 'Do not sell',
  hold: 'Hold (do not trade)',
};

export const STATE_TEXT: Record<RestrictionView['state'], string> = {
  'in-force': 'In force',
  upcoming: 'Not yet',
  over: 'Over',
};

function describe(rule: RestrictionView): string {
  return `${KIND_TEXT[rule.kind].toLowerCase()} ${rule.symbol}`;
}
