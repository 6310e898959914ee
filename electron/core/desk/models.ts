import type { DeskHandlers } from '../../../shared/contract';
import { ModelFollowing } from '../models/following';
import { ModelLibrary } from '../models/library';
import { modelCsvFile, readModelCsv } from '../models/csv';
import { TeamModelLibrary } from '../models/team-library';
import type { TeamModelCache } from '../models/team-sync';
import type { Exports } from '../exports';
import type { AnnounceModelChange } from '../models/views';
import type { Store } from '../store';
import type { TeamConnections } from '../team/connection';

export interface ModelServices {
  store: Store;
  exports: Exports;
  /** The desk's events: saves and assignments are announced (`model-changed`). */
  emit: AnnounceModelChange;
  teams: TeamConnections;
  /** The team's library as cached here (read on the team store's notices, desk/index.ts). */
  teamCache: TeamModelCache;
}

/**
 * The `models` area: each handler passes the call to the desk's own library or following, or to
 * the team's library for a profile in a team (a team's model is written only there).
 */
export function modelHandlers(services: ModelServices): DeskHandlers['models'] {
  const { store, exports, emit, teams } = services;
  const library = new ModelLibrary(store, emit);
  const following = new ModelFollowing(store, library, emit);
  const team = new TeamModelLibrary(store, teams, library, services.teamCache);
  const isTeams = (modelId: string) => library.model(modelId).team !== null;
  return {
    list: async ({ profileId }) => {
      const key = team.teamOf(profileId);
      return key === null ? library.list(profileId) : team.list(profileId!, key);
    },
    get: async ({ modelId }) => library.get(modelId),
    create: async ({ profileId, ...input }) => {
      const model = { ...input, description: input.description ?? '' };
      return team.teamOf(profileId) === null
        ? library.create(model)
        : team.create(profileId!, model);
    },
    update: async (input) => (isTeams(input.modelId) ? team.update(input) : library.update(input)),
    copyToTeam: ({ profileId, modelId }) => team.copy(profileId, modelId),
    saveRevision: async (input) => {
      const rows = { ...input, note: input.note ?? '' };
      return isTeams(input.modelId) ? team.saveRevision(rows) : library.saveRevision(rows);
    },
    revision: async ({ revisionId }) => library.revision(revisionId),
    compare: async ({ from, to }) => library.compare(from, to),
    importCsv: async ({ text }) => readModelCsv(text),
    async exportCsv({ revisionId, exportId }) {
      const revision = library.revisionOf(revisionId);
      const model = library.model(revision.modelId);
      return exports.write(
        modelCsvFile(model.name, revision.number, store.models.rows(revision.id)),
        exportId,
      );
    },
    // A team's model for a team's profile; a desk's own model for a profile on its own.
    assign: async (input) =>
      team.teamOf(input.profileId) !== null || isTeams(input.modelId)
        ? team.assign(input)
        : following.assign(input),
    async unassign(input) {
      // Those following a team's model leave it in the team store; the others here.
      await team.unassign(input.profileId, input.strategyIds);
      following.unassign(input);
      return { ok: true as const };
    },
    followers: async ({ modelId, profileId }) => following.followers(modelId, profileId),
    ofStrategy: async ({ profileId, strategyId }) => following.ofStrategy(profileId, strategyId),
  };
}
