import { randomUUID } from 'node:crypto';
import { DeskError } from '../../../shared/errors';
import { canonicalText } from '../../../shared/models/canonical';
import type {
  ModelDetail,
  ModelFollower,
  ModelStart,
  ModelSummary,
} from '../../../shared/models/views';
import type { Store, StoredModel } from '../store';
import { teamKey, type TeamConnections } from '../team/connection';
import { inTeamTransaction } from '../team/transaction';
import type { ModelLibrary, RowsToSave } from './library';
import { assignable } from './following';
import type { TeamModelCache } from './team-sync';
import { followerOf, modelSummaryView } from './views';

const TO_SAVE = 'to save a model in the team’s library';
const TO_ASSIGN = 'to assign strategies to the team’s models';

/**
 * The team's model library written (docs/team.md): a profile in a team creates, names, saves and
 * assigns the team's models in its team store, as its member (the store checks the model admin
 * role and that a revision is saved on the one it was edited from); the rows pass the desk's own
 * rules first (ModelLibrary). What is written reaches this desk's cache by the same read as
 * another desk's save (team-sync.ts), so every desk shows the same ids, numbers and hashes.
 */
export class TeamModelLibrary {
  constructor(
    private readonly store: Store,
    private readonly teams: TeamConnections,
    private readonly library: ModelLibrary,
    private readonly cache: TeamModelCache,
  ) {}

  /** The profile's team's key, or null for a profile on its own. */
  teamOf(profileId: string | undefined): string | null {
    const team = profileId === undefined ? null : this.teams.teamOf(profileId);
    return team ? teamKey(team) : null;
  }

  /** A team profile's list: the team's models, then this desk's own (to be copied), each by name. */
  list(profileId: string, team: string): ModelSummary[] {
    return [...this.library.list(profileId, team), ...this.library.list(profileId, null)];
  }

  /** A model of the profile's team, empty or with a first revision (as `ModelLibrary.create`). */
  create(
    profileId: string,
    input: { name: string; description: string; start: ModelStart; note?: string | undefined },
  ): Promise<ModelDetail> {
    const first = this.library.startOf(input.start);
    return this.make(profileId, {
      name: input.name,
      description: input.description,
      first: first && { rows: first.rows, note: input.note ?? first.note },
      copiedFrom: null,
    });
  }

  /**
   * A model of this desk's own library into the team's: its latest revision's rows as the team
   * model's first revision (the same canonical hash), the copy recorded in the team's log.
   */
  async copy(profileId: string, modelId: string): Promise<ModelDetail> {
    const team = this.teamOf(profileId);
    if (team === null)
      throw new DeskError({
        kind: 'invalid-input',
        message: 'This profile is not in a team: join one to copy a model into its library.',
      });
    const model = this.library.model(modelId);
    if (model.team !== null)
      throw new DeskError({
        kind: 'invalid-input',
        message: `“${model.name}” is in a team's library already.`,
      });
    const latest = this.store.models.latest(model.id);
    const twin = this.store.models
      .list(team)
      .find((m) => m.name === model.name && this.store.models.latest(m.id)?.hash === latest?.hash);
    if (twin)
      throw new DeskError({
        kind: 'invalid-input',
        message: `The team's library has “${model.name}” with the same weights already: nothing was copied.`,
      });
    return this.make(profileId, {
      name: model.name,
      description: model.description,
      first: latest && {
        rows: this.store.models.rows(latest.id),
        note: `Copied from this desk's “${model.name}”, revision ${latest.number}`,
      },
      copiedFrom: `${this.teams.deskName()}: model ${model.id}, revision ${latest?.number ?? 'none'}`,
    });
  }

  private async make(
    profileId: string,
    input: {
      name: string;
      description: string;
      first: { rows: RowsToSave['rows']; note: string } | null;
      copiedFrom: string | null;
    },
  ): Promise<ModelDetail> {
    const rows = input.first && this.library.checkedRows(input.first.rows).rows;
    const id = randomUUID();
    const desk = this.teams.deskName();
    await this.teams.withTeam(profileId, TO_SAVE, (client) =>
      inTeamTransaction(client, async () => {
        await client.query('SELECT team.save_model($1, $2, $3, $4)', [
          id,
          input.name,
          input.description,
          desk,
        ]);
        if (rows)
          await client.query('SELECT team.save_model_revision($1, NULL, $2, $3, $4, $5)', [
            id,
            canonicalText(rows),
            input.first!.note.trim(),
            input.copiedFrom,
            desk,
          ]);
      }),
    );
    await this.cache.readModels(profileId, id);
    return this.library.get(id);
  }

  /** Name and description, in the team store. */
  async update(input: {
    modelId: string;
    name?: string | undefined;
    description?: string | undefined;
    profileId?: string | undefined;
  }): Promise<ModelSummary> {
    const model = this.library.model(input.modelId);
    const profileId = this.actingProfile(model, input.profileId);
    await this.teams.withTeam(profileId, TO_SAVE, (client) =>
      client.query('SELECT team.save_model($1, $2, $3, $4)', [
        model.id,
        input.name ?? model.name,
        input.description ?? model.description,
        this.teams.deskName(),
      ]),
    );
    await this.cache.readModels(profileId, model.id);
    return modelSummaryView(this.store, this.library.model(model.id));
  }

  /**
   * A new revision in the team store, saved on the revision the editor opened with (`basedOn`;
   * not given: the latest this desk has), so a save made meanwhile on another desk refuses it.
   */
  async saveRevision(input: RowsToSave): Promise<ModelDetail> {
    const model = this.library.model(input.modelId);
    const profileId = this.actingProfile(model, input.profileId);
    const { rows } = this.library.checkedRows(input.rows);
    const basedOn =
      input.basedOn !== undefined
        ? input.basedOn
        : (this.store.models.latest(model.id)?.id ?? null);
    await this.teams.withTeam(profileId, TO_SAVE, (client) =>
      client.query('SELECT team.save_model_revision($1, $2, $3, $4, NULL, $5)', [
        model.id,
        basedOn,
        canonicalText(rows),
        input.note.trim(),
        this.teams.deskName(),
      ]),
    );
    await this.cache.readModels(profileId, model.id);
    return this.library.get(model.id);
  }

  /** The strategies follow the team's model, for every desk of the team. */
  async assign(input: {
    profileId: string;
    modelId: string;
    strategyIds: readonly string[];
    revisionId?: string | undefined;
  }): Promise<ModelFollower[]> {
    const { profileId } = input;
    const model = this.library.model(input.modelId);
    const team = this.teamOf(profileId);
    if (model.team !== team)
      throw new DeskError({
        kind: 'invalid-input',
        message:
          team === null
            ? `“${model.name}” is in a team's library; this profile is not in that team.`
            : `“${model.name}” is this desk's own model: copy it into the team's library first, so every desk of the team follows the same one.`,
      });
    const { strategyIds, pinned } = assignable(this.store, this.library, input);
    await this.teams.withTeam(profileId, TO_ASSIGN, (client) =>
      client.query('SELECT team.assign($1, $2, $3, $4)', [
        strategyIds,
        model.id,
        pinned,
        this.teams.deskName(),
      ]),
    );
    await this.cache.readAssignments(profileId);
    return strategyIds.map((id) => followerOf(this.store, profileId, id)!);
  }

  /** The strategies that follow one of the team's models follow none, for every desk of the team. */
  async unassign(profileId: string, strategyIds: readonly string[]): Promise<void> {
    const team = this.teamOf(profileId);
    if (team === null) return;
    const following = [...new Set(strategyIds)].filter((id) => {
      const assignment = this.store.models.assignmentOf(profileId, id);
      return assignment && this.store.models.get(assignment.modelId)?.team === team;
    });
    if (following.length === 0) return;
    await this.teams.withTeam(profileId, TO_ASSIGN, (client) =>
      client.query('SELECT team.assign($1, NULL, NULL, $2)', [following, this.teams.deskName()]),
    );
    await this.cache.readAssignments(profileId);
  }

  /** Who writes a team's model: the profile asked when it is in that team, else the first that is. */
  private actingProfile(model: StoredModel, asked: string | undefined): string {
    if (model.team === null) throw new Error('a model of the desk’s own library');
    if (asked !== undefined && this.teamOf(asked) === model.team) return asked;
    const first = this.teams.profilesIn(model.team)[0];
    if (first === undefined)
      throw new DeskError({
        kind: 'invalid-input',
        message: `“${model.name}” is in the team's library at ${model.team}, and no profile of this desk is in that team now: it can be read here, not changed.`,
      });
    return first;
  }
}
