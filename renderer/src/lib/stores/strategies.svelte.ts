import type { DeskApi } from '../../../../shared/contract';
import type { DeskError, JournalEntryView, StrategyListItem } from '../../../../shared/views';
import { asDeskError } from '../errors';

const STRATEGY_KEY = 'strategy-desk.strategy';

/** The selected profile's strategies (the sidebar) and the one open in the main area. */
export class Strategies {
  /**
   * Replaced whole, never changed in place: raw, so a journal event checking thousands of lines
   * reads plain objects, and a list nothing changed in is not assigned (no screen redraws).
   */
  list = $state.raw<StrategyListItem[]>([]);
  loading = $state(false);
  error = $state<DeskError | null>(null);
  selectedId = $state<string | null>(null);
  /** The profile the list belongs to. */
  profileId = $state<string | null>(null);

  /**
   * Lines heard from status changes while a read was under way may be newer than its answer:
   * they are laid over it unless the answer comes from a later sync of that strategy.
   */
  private heard = 0;
  private heardLines: Record<string, { line: StrategyListItem; heard: number }> = {};
  /** The strategies with an execution of unknown outcome, as the journal last said. */
  private heardJournal: { unknown: readonly string[]; heard: number } | null = null;

  constructor(private readonly api: DeskApi) {}

  /**
   * Lists a profile's strategies and opens the one last open with it. `first`: what the main
   * area draws first (the book's first rows) when no strategy was open, the list drawn after it.
   */
  async show(profileId: string | null, first?: Promise<unknown>): Promise<void> {
    this.profileId = profileId;
    this.selectedId = null;
    this.list = [];
    this.heardLines = {};
    this.heardJournal = null;
    if (!profileId) return;
    // Read, and drawn, after `first` (the book's first rows drawn), when given.
    await this.load(localStorage.getItem(`${STRATEGY_KEY}.${profileId}`) ? undefined : first);
    // Back where the manager was: the strategy last open with this profile.
    const last = localStorage.getItem(`${STRATEGY_KEY}.${profileId}`);
    if (this.profileId === profileId && this.selectedId === null) {
      if (this.list.some((s) => s.id === last)) this.selectedId = last;
    }
  }

  /** Shows the book instead of a strategy; a reload comes back to the book too. */
  close(): void {
    this.selectedId = null;
    if (this.profileId) localStorage.removeItem(`${STRATEGY_KEY}.${this.profileId}`);
  }

  /** Shows a strategy in the main area. */
  open(strategyId: string): void {
    this.selectedId = strategyId;
    if (this.profileId) localStorage.setItem(`${STRATEGY_KEY}.${this.profileId}`, strategyId);
  }

  /** Reads the list again; `drawnAfter`: what is drawn before it (the read waits for it). */
  async load(drawnAfter?: Promise<unknown>): Promise<void> {
    const profileId = this.profileId;
    if (!profileId) return;
    this.loading = true;
    try {
      // Asked for once what comes first is drawn: reading and checking thousands of lines would
      // hold the page's one thread just as that is painted. (Read anyway once it was drawn or
      // failed: a profile chosen meanwhile draws its own list.)
      if (drawnAfter) {
        await drawnAfter.catch(() => 0);
        if (this.profileId !== profileId) return;
      }
      const since = this.heard;
      const list = await this.api.strategies.list({ profileId });
      if (this.profileId !== profileId) return;
      this.list = this.withHeardLines(list, since);
      this.error = null;
    } catch (error) {
      if (this.profileId === profileId) this.error = asDeskError(error);
    } finally {
      if (this.profileId === profileId) this.loading = false;
    }
  }

  async add(strategyId: string): Promise<void> {
    const profileId = this.profileId;
    if (!profileId) return;
    const added = await this.api.strategies.add({ profileId, strategyId });
    await this.load();
    this.open(added.id);
  }

  async remove(strategyId: string): Promise<void> {
    const profileId = this.profileId;
    if (!profileId) return;
    await this.api.strategies.remove({ profileId, strategyId });
    if (this.selectedId === strategyId) this.selectedId = null;
    await this.load();
  }

  /** A status change carries the strategy's sidebar line (null: no longer added): no read. */
  applyLine(profileId: string, line: StrategyListItem | null): void {
    const heard = ++this.heard;
    if (profileId !== this.profileId) return;
    if (line) this.heardLines[line.id] = { line, heard };
    if (line && this.list.some((s) => s.id === line.id)) {
      this.list = this.list.map((s) => (s.id === line.id ? line : s));
    } else {
      void this.load();
    }
  }

  /**
   * The journal changed: a line needs attention while an execution of its strategy has an
   * unknown outcome (or a failed rebalance is not acknowledged, which its line carries): no read.
   */
  applyJournal(profileId: string, inFlight: readonly JournalEntryView[]): void {
    const heard = ++this.heard;
    if (profileId !== this.profileId) return;
    const unknown = inFlight.filter((e) => e.state === 'unknown').map((e) => e.strategyId);
    this.heardJournal = { unknown, heard };
    // A batch sends a journal event per strategy: the list is replaced only when a line changed.
    const list = this.list.map((s) => withAttention(s, unknown));
    if (list.some((line, i) => line !== this.list[i])) this.list = list;
  }

  private withHeardLines(list: StrategyListItem[], since: number): StrategyListItem[] {
    const journal = this.heardJournal && this.heardJournal.heard > since ? this.heardJournal : null;
    return list.map((s) => {
      const heard = this.heardLines[s.id];
      const told = heard && heard.heard > since && heard.line.syncedAt >= s.syncedAt;
      const line = told ? heard.line : s;
      // The newer of the two says whether the line needs attention.
      return journal && (!told || journal.heard > heard.heard)
        ? withAttention(line, journal.unknown)
        : line;
    });
  }
}

/** A line needs attention while an execution has an unknown outcome or a failure is not seen. */
function withAttention(line: StrategyListItem, unknown: readonly string[]): StrategyListItem {
  const needsAttention = unknown.includes(line.id) || (line.failedVersionIds?.length ?? 0) > 0;
  return needsAttention === line.needsAttention ? line : { ...line, needsAttention };
}
