import { SvelteMap } from 'svelte/reactivity';
import type { DeskApi, DeskEventOf } from '../../../shared/contract';
import type {
  ModelDetail,
  ModelFollower,
  ModelStart,
  ModelSummary,
  RevisionComparison,
} from '../../../shared/models/views';
import type { BookRow } from '../../../shared/book/views';
import { BOOK_SYNC } from '../../../shared/models/sync';
import type { DraftSummary } from '../../../shared/views';
import type { ExportRun } from '../lib/stores/export-run.svelte';
type ModelChanged = DeskEventOf<'model-changed'>;
/** The strategies a model change moved, each as it follows now. */
export type ModelMoves = ModelChanged['strategies'];
type ModelRowInput = { symbol: string; weight: string };
/** A tag of the book and its strategies, in the book's order. */
export type TagMembers = { tag: string; strategyIds: string[] };

/**
 * The model library as the screens hold it: the list (followers counted in the profile shown),
 * the model open, its followers in that profile, and what each strategy open in an Overview
 * follows. The screens render it and call it; the desk's `model-changed` events (a save, an
 * assign, an unassign, from here or another window) update it in place, without reading again.
 */
export class ModelsStore {
  /** Every model, by name; `followersInProfile` counts `profileId`'s followers. */
  list = $state.raw<ModelSummary[]>([]);
  profileId = $state<string | null>(null);
  /** The profile shown is in a team: its models are the team's, and the desk's own are copied. */
  inTeam = $state(false);
  selected = $state.raw<ModelDetail | null>(null);
  /** The open model's followers in `followersHeld.profileId`, by strategy name. */
  followers = $state.raw<ModelFollower[]>([]);
  private followersHeld: { modelId: string; profileId: string } | null = null;
  /** The book's tags of a profile, read once per model opened (a save redraws its parts). */
  private tagsHeld: { profileId: string; tags: TagMembers[] } | null = null;
  /** What a strategy follows (null: none), by `profileId/strategyId`, once an Overview asked. */
  private readonly follows = new SvelteMap<string, ModelFollower | null>();

  constructor(private readonly api: DeskApi) {}

  /** The list, its followers counted in `profileId` (the profile shown). */
  async load(profileId: string | null): Promise<void> {
    const [list, team] = await Promise.all([
      this.api.models.list(profileId ? { profileId } : {}),
      profileId ? this.api.team.get({ profileId }) : null,
    ]);
    this.profileId = profileId;
    this.inTeam = team?.team != null;
    this.list = list;
  }

  /** Opens a model: its followers and the book's tags are read anew when its parts show them. */
  async open(modelId: string): Promise<void> {
    const model = await this.api.models.get({ modelId });
    this.followersHeld = null;
    this.tagsHeld = null;
    this.selected = model;
  }

  /** A new model, put in the list; the caller decides whether it opens now. */
  async create(input: {
    name: string;
    start: ModelStart;
    /** Read this strategy from the service first: its known target is judged on fresh holdings. */
    readFirst?: { profileId: string; strategyId: string };
  }): Promise<ModelDetail> {
    if (input.readFirst) await this.api.strategies.refresh(input.readFirst);
    const model = await this.api.models.create({
      name: input.name,
      start: input.start,
      ...(this.profileId && { profileId: this.profileId }),
    });
    this.putNew(model);
    return model;
  }

  /** A model of the desk's own library copied into the team's: put in the list and shown. */
  async copyToTeam(modelId: string): Promise<ModelDetail> {
    const profileId = this.profileId;
    if (!profileId) throw new Error('No profile is shown');
    const model = await this.api.models.copyToTeam({ modelId, profileId });
    this.putNew(model);
    this.show(model);
    return model;
  }

  private putNew(model: ModelDetail): void {
    const { revisions: _revisions, rows: _rows, ...summary } = model;
    this.putLines([{ ...summary, followersInProfile: this.profileId ? 0 : null }], true);
  }

  /** Shows a model made or saved here (its answer), keeping the followers held. */
  show(model: ModelDetail): void {
    if (this.selected?.id !== model.id) {
      this.followersHeld = null;
      this.tagsHeld = null;
    }
    this.selected = model;
  }

  /**
   * The rows as a new revision; the model is shown as saved. The list and the followers change
   * with the desk's `model-changed`.
   */
  async saveRevision(input: {
    modelId: string;
    rows: readonly ModelRowInput[];
    note: string;
    basedOn: string | null;
    profileId: string | null;
  }): Promise<ModelDetail> {
    const saved = await this.api.models.saveRevision({
      modelId: input.modelId,
      rows: input.rows.map((r) => ({ symbol: r.symbol, weight: r.weight })),
      note: input.note,
      basedOn: input.basedOn,
      ...(input.profileId && { profileId: input.profileId }),
    });
    this.show(saved);
    return saved;
  }

  importCsv(text: string) {
    return this.api.models.importCsv({ text });
  }

  compare(from: string, to: string): Promise<RevisionComparison> {
    return this.api.models.compare({ from, to });
  }

  exportCsv(run: ExportRun, revisionId: string): Promise<void> {
    return run.start((exportId) => this.api.models.exportCsv({ revisionId, exportId }));
  }

  /** A strategy's drafts, to start a model from one. */
  draftsOf(profileId: string, strategyId: string): Promise<DraftSummary[]> {
    return this.api.drafts.list({ profileId, strategyId });
  }

  /**
   * The book's tags and the strategies each holds (assigning a whole tag, and counting how many
   * of them are left to assign).
   */
  async tagsOf(profileId: string): Promise<TagMembers[]> {
    if (this.tagsHeld?.profileId === profileId) return this.tagsHeld.tags;
    const { tags: counted } = (await this.api.book.summary({ profileId })).counts;
    const tags = await Promise.all(
      counted.map(async ({ tag }) => ({ tag, strategyIds: await this.tagged(profileId, tag) })),
    );
    this.tagsHeld = { profileId, tags };
    return tags;
  }

  /** The strategies of a tag of the book. */
  private async tagged(profileId: string, tag: string): Promise<string[]> {
    const found = await this.api.book.selectionModels({
      profileId,
      selection: { kind: 'tag', tag },
    });
    return found.strategyIds;
  }

  /** The open model's followers in the profile: read once per model opened (events keep them). */
  async readFollowers(modelId: string, profileId: string): Promise<void> {
    const held = this.followersHeld;
    if (held?.modelId === modelId && held.profileId === profileId) return;
    const followers = await this.api.models.followers({ modelId, profileId });
    this.followersHeld = { modelId, profileId };
    this.followers = followers;
  }

  /**
   * Rows of the book the desk announced (a read, a rebalance that ended): when a follower of the
   * open model moved to another sync state, the followers are read again (the rows carry the
   * state, not what differs).
   */
  applyBookRows(profileId: string, rows: readonly BookRow[]): void {
    const held = this.followersHeld;
    if (held?.profileId !== profileId) return;
    const shown: Record<string, string> = Object.fromEntries(
      this.followers.map((f) => [f.strategyId, BOOK_SYNC[f.sync.state]]),
    );
    const moved = rows.some(
      (r) =>
        r.model?.id === held.modelId &&
        shown[r.strategyId] !== undefined &&
        shown[r.strategyId] !== r.model.sync,
    );
    if (!moved) return;
    this.followersHeld = null;
    // Not read: the followers shown stay, and the next time they show they are read.
    this.readFollowers(held.modelId, profileId).catch(() => (this.followersHeld = null));
  }

  async assign(input: {
    profileId: string;
    modelId: string;
    strategyIds: string[];
    revisionId: string | null;
  }): Promise<void> {
    const followers = await this.api.models.assign({
      profileId: input.profileId,
      modelId: input.modelId,
      strategyIds: input.strategyIds,
      ...(input.revisionId && { revisionId: input.revisionId }),
    });
    // The answer and the event say the same: whichever comes first shows it.
    this.putFollows(followers.map((f) => ({ ...f, follows: f })));
  }

  async unassign(profileId: string, strategyIds: string[]): Promise<void> {
    await this.api.models.unassign({ profileId, strategyIds });
    this.putFollows(strategyIds.map((strategyId) => ({ profileId, strategyId, follows: null })));
  }

  /** What the strategy follows, as held (undefined: not read yet). */
  followsOf(profileId: string, strategyId: string): ModelFollower | null | undefined {
    return this.follows.get(`${profileId}/${strategyId}`);
  }

  /** Reads what the strategy follows (an Overview shows it; read again when the strategy changed). */
  async readFollows(profileId: string, strategyId: string): Promise<void> {
    const found = await this.api.models.ofStrategy({ profileId, strategyId });
    this.follows.set(`${profileId}/${strategyId}`, found);
  }

  /** A save, an assign or an unassign: the lines, the followers and the Overviews it moved. */
  apply(event: ModelChanged): void {
    // A team's model made on another desk joins the list of the profile in that team.
    const shownTeam =
      event.profileId !== null &&
      event.profileId === this.profileId &&
      event.change === 'revision-saved';
    this.putLines(
      event.models,
      shownTeam,
      // Counted in another profile (or not at all, for a save): this profile's count stays.
      event.profileId !== null && event.profileId === this.profileId,
    );
    this.putFollows(event.strategies);
  }

  /**
   * These lines in place of those held (`add`: lines not held join), in the desk's order (the
   * team's first, then by name, case aside, then id). `countsInProfile`: false when the lines
   * counted another profile's followers, or none: the held count stays.
   */
  private putLines(lines: readonly ModelSummary[], add: boolean, countsInProfile = true): void {
    const list = this.list.map((held) => {
      const line = lines.find((l) => l.id === held.id);
      if (!line) return held;
      return countsInProfile ? line : { ...line, followersInProfile: held.followersInProfile };
    });
    if (add) list.push(...lines.filter((l) => !this.list.some((held) => held.id === l.id)));
    // The team's models first (a team's profile), then the desk's own, each by name.
    this.list = list.sort((a, b) => {
      if (a.library !== b.library) return a.library === 'team' ? -1 : 1;
      const x = a.name.toLowerCase();
      const y = b.name.toLowerCase();
      return x < y ? -1 : x > y ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
    });
  }

  /**
   * Each Overview's line, and the open model's followers: those moved leave, and join again when
   * they follow it now, by strategy name, then id (as the desk gives them).
   */
  private putFollows(moves: ModelMoves): void {
    for (const m of moves) {
      const key = `${m.profileId}/${m.strategyId}`;
      if (this.follows.has(key)) this.follows.set(key, m.follows);
    }
    const held = this.followersHeld;
    const moved = moves.filter((m) => m.profileId === held?.profileId);
    if (!held || moved.length === 0) return;
    const gone: Record<string, true> = {};
    for (const m of moved) gone[m.strategyId] = true;
    const joined = moved.flatMap((m) => (m.follows?.modelId === held.modelId ? [m.follows] : []));
    this.followers = [...this.followers.filter((f) => !gone[f.strategyId]), ...joined].sort(
      (a, b) =>
        a.strategyName !== b.strategyName
          ? a.strategyName < b.strategyName
            ? -1
            : 1
          : a.strategyId < b.strategyId
            ? -1
            : a.strategyId > b.strategyId
              ? 1
              : 0,
    );
  }
}

/** The session's models store, made the first time a screen shows a model. */
export function modelsOf(session: { readonly api: DeskApi; models: ModelsStore | null }) {
  return (session.models ??= new ModelsStore(session.api));
}
