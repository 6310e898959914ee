import type { DeskApi } from '../../../shared/contract';
import { isKind } from '../../../shared/errors';
import type {
  RestrictionOverrideInput,
  ViolationView,
} from '../../../shared/restrictions/contract';
import type { DeskError, ExecutePreview, VersionDetail } from '../../../shared/views';
import { asDeskError } from '../lib/errors';
import { classifyExecuteError, parseVersionId, type ExecuteFailure } from './execute-plan';

/** What the manager confirmed: a follow-up (the blocking version deleted) sends the same. */
export type Confirmed = {
  planKey: string;
  acknowledgedStale: boolean;
  againAfter: string | null;
  /** The restricted symbols named, with the note (the desk refuses a violation not named). */
  restrictionOverride?: RestrictionOverrideInput;
};

export interface ExecuteFlowOptions {
  draftId: string;
  ref: () => { profileId: string; strategyId: string };
  /** Saves the draft's pending edits; rejects when they could not be saved. */
  flush: () => Promise<void>;
  /** The service refused these symbols: the grid marks their rows. */
  markUnknown: (symbols: string[]) => void;
  /** The strategy changed (a fresh read, a version in the way, an execution): its screens follow. */
  strategyChanged: () => void;
  /** Shows the version the draft became (or the one running) in the Versions tab. */
  openVersion: (versionId: string) => void;
}

/**
 * Executing a draft, step by step: the fresh read and the confirmation, the acknowledgement of a
 * target in doubt, sending, and each failure where it belongs (unknown symbols marked in the
 * grid, an unexecuted version in the way shown before it is deleted, then executing again, an
 * answer nobody knows listed for a retry with the same key). The desk sends an execution at most
 * once; a retry of an unclear one goes through the journal's notice, never from here.
 */
export class ExecuteFlow {
  /** The confirmation dialog is open, showing `preview`. */
  confirming = $state(false);
  preview = $state.raw<ExecutePreview | null>(null);
  /** The draft's rows against the restrictions in force, read with the preview: certain first. */
  violations = $state.raw<ViolationView[]>([]);
  /** What is under way, in words (null: nothing). */
  busy = $state<string | null>(null);
  failure = $state.raw<ExecuteFailure | null>(null);
  /** Why "Import the latest version by id first" failed, shown in the confirmation. */
  importFailure = $state<DeskError | null>(null);
  importNote = $state<string | null>(null);
  /** Why the id typed for the unnamed version in the way was not imported. */
  importProblem = $state<string | null>(null);
  /** The version in the way, shown before it is deleted; executing follows its deletion. */
  showing = $state<string | null>(null);

  private confirmed: Confirmed | null = null;
  readonly draftId: string;

  constructor(
    private readonly api: Pick<DeskApi, 'versions' | 'restrictions'>,
    private readonly options: ExecuteFlowOptions,
  ) {
    this.draftId = options.draftId;
  }

  /** Something outside the flow changed the strategy (a version in the way deleted or imported). */
  strategyChanged(): void {
    this.options.strategyChanged();
  }

  /** Saves the draft, then re-reads the strategy and its known target for the confirmation. */
  async openConfirmation(): Promise<void> {
    this.failure = null;
    this.importFailure = null;
    this.importNote = null;
    this.preview = null;
    this.busy = 'Reading the strategy and its current target…';
    try {
      await this.options.flush();
      const [preview, check] = await Promise.all([
        this.api.versions.prepareExecute({ draftId: this.draftId }),
        this.api.restrictions.checkDraft({ draftId: this.draftId }),
      ]);
      this.violations = check.violations;
      this.preview = preview;
    } catch (error) {
      this.failure = { kind: 'fresh-read', error: asDeskError(error) };
      return;
    } finally {
      this.busy = null;
    }
    // The fresh read may have changed the holdings or the target: the editor follows.
    this.options.strategyChanged();
    this.confirming = true;
  }

  cancel(): void {
    this.confirming = false;
  }

  /** "Execute rebalance" in the confirmation; `override` names the restricted symbols, if any. */
  confirm(acknowledgedStale: boolean, override: RestrictionOverrideInput | null = null): void {
    const shown = this.preview;
    this.confirming = false;
    if (!shown) return;
    this.confirmed = {
      planKey: shown.planKey,
      acknowledgedStale,
      againAfter: shown.earlierVersionId,
      ...(override && { restrictionOverride: override }),
    };
    void this.run(this.confirmed);
  }

  /** Sends the execution; every failure lands where it belongs. */
  async run(confirmation?: Confirmed): Promise<void> {
    this.busy = 'Executing…';
    this.failure = null;
    let version: VersionDetail;
    try {
      await this.options.flush();
      const input = { draftId: this.draftId, ...(confirmation && { confirmation }) };
      version = (await this.api.versions.execute(input)).version;
    } catch (error) {
      const f = classifyExecuteError(asDeskError(error));
      if (isKind(f.error, 'confirmation-outdated')) {
        // The strategy or the draft changed since the confirmation: show the new one instead.
        this.busy = null;
        void this.openConfirmation();
        return;
      }
      this.failure = f;
      if (f.kind === 'unknown-symbols') this.options.markUnknown(f.symbols);
      // The desk now remembers the version in the way: the Overview shows it too.
      if (f.kind === 'unexecuted-version') this.options.strategyChanged();
      // An unclear answer is in the journal now: its event brings it to the journal's notice.
      return;
    } finally {
      this.busy = null;
    }
    this.options.openVersion(version.id);
    this.options.strategyChanged();
  }

  /** "Import the latest version by id first", then the confirmation again from fresh reads. */
  async importFirst(versionId: string): Promise<void> {
    this.importFailure = null;
    this.busy = 'Importing that version…';
    let imported: VersionDetail;
    try {
      imported = await this.api.versions.import({ ...this.options.ref(), versionId });
    } catch (error) {
      // A mistyped or unknown id: the confirmation stays open, the error next to the id.
      this.importFailure = asDeskError(error);
      return;
    } finally {
      this.busy = null;
    }
    this.confirming = false;
    await this.openConfirmation();
    // An unexecuted version cannot be the current target: say so rather than look unchanged.
    if (imported.executedAt === null)
      this.importNote = `Version ${versionId} was imported, but it has not been executed, so it cannot be the current target: import the latest executed version.`;
  }

  /** The version in the way was deleted: the screens follow, and the execution goes again. */
  afterBlockingVersion(): void {
    this.showing = null;
    this.strategyChanged();
    void this.run(this.confirmed ?? undefined);
  }

  /** The version in the way was shown and left as it is. */
  closeBlockingVersion(): void {
    this.showing = null;
    this.options.strategyChanged();
  }

  /** No id in the refusal: the manager finds it, imports it, and sees it before deleting it. */
  async importThenShow(text: string): Promise<void> {
    const versionId = parseVersionId(text);
    this.importProblem = versionId
      ? null
      : 'A version id looks like 8-4-4-4-12 hexadecimal digits (a UUID).';
    if (!versionId) return;
    this.busy = 'Importing that version…';
    try {
      await this.api.versions.import({ ...this.options.ref(), versionId });
    } catch (error) {
      this.importProblem = asDeskError(error).message;
      return;
    } finally {
      this.busy = null;
    }
    this.options.strategyChanged();
    this.showing = versionId;
  }

  /** "Unknown symbols" stands only while a row still has one of them: corrected, it goes. */
  symbolsNow(symbols: Iterable<string>): void {
    const failure = this.failure;
    if (failure?.kind !== 'unknown-symbols') return;
    const present = [...symbols];
    if (!failure.symbols.some((symbol) => present.includes(symbol))) this.failure = null;
  }
}
