import type { DeskApi } from '../../../../shared/contract';
import type { DeskError, JournalEntryView, VersionDetail } from '../../../../shared/views';
import { asDeskError } from '../errors';

/**
 * The journal's unsettled executions, per profile: read once when a screen first needs a
 * profile's, then kept as each `journal-changed` event says (it carries the whole list, so no
 * event makes it read again). Retrying and dismissing change the journal: their event updates it.
 */
export class Journal {
  private inFlight = $state.raw<Record<string, readonly JournalEntryView[]>>({});
  /** The last call that failed: a read (of the whole profile) or a strategy's retry or dismissal. */
  private failure = $state<{ strategyId: string | null; error: DeskError } | null>(null);
  /** Which entry a retry or a dismissal is working on. */
  busy = $state<string | null>(null);
  /** Events heard per profile: a read that started before one is older than what it said. */
  private heard: Record<string, number> = {};

  constructor(private readonly api: DeskApi) {}

  /** A strategy's executions whose outcome nobody knows, oldest first as the desk lists them. */
  unknownFor(profileId: string, strategyId: string): JournalEntryView[] {
    return (this.inFlight[profileId] ?? []).filter(
      (e) => e.strategyId === strategyId && e.state === 'unknown',
    );
  }

  /** What a strategy's screen says went wrong, if anything. */
  failureFor(strategyId: string): DeskError | null {
    const f = this.failure;
    return f && (f.strategyId === null || f.strategyId === strategyId) ? f.error : null;
  }

  /** Reads a profile's journal (a screen opens that shows it). */
  async load(profileId: string): Promise<void> {
    const since = this.heard[profileId] ?? 0;
    try {
      const entries = await this.api.versions.journal({ profileId });
      if ((this.heard[profileId] ?? 0) === since) this.set(profileId, entries);
    } catch (error) {
      this.failure = { strategyId: null, error: asDeskError(error) };
    }
  }

  /** From the router: the profile's unsettled executions now. */
  apply(profileId: string, inFlight: readonly JournalEntryView[]): void {
    this.heard[profileId] = (this.heard[profileId] ?? 0) + 1;
    this.set(profileId, inFlight);
  }

  /** Sends an unknown execution again with its own key; the version it became, if it did. */
  async retry(entry: JournalEntryView): Promise<VersionDetail | null> {
    this.busy = entry.id;
    this.failure = null;
    try {
      return (await this.api.versions.retryExecution({ journalId: entry.id })).version;
    } catch (error) {
      this.failure = { strategyId: entry.strategyId, error: asDeskError(error) };
      return null;
    } finally {
      this.busy = null;
    }
  }

  async dismiss(entry: JournalEntryView): Promise<void> {
    this.busy = entry.id;
    this.failure = null;
    try {
      await this.api.versions.dismissExecution({ journalId: entry.id });
    } catch (error) {
      this.failure = { strategyId: entry.strategyId, error: asDeskError(error) };
    } finally {
      this.busy = null;
    }
  }

  private set(profileId: string, entries: readonly JournalEntryView[]): void {
    this.inFlight = { ...this.inFlight, [profileId]: entries };
  }
}
