import type { DeskHandlers } from '../../../shared/contract';
import { ModelFollowing } from '../models/following';
import { ModelLibrary } from '../models/library';
import { modelCsvFile, readModelCsv } from '../models/csv';
import type { Exports } from '../exports';
import type { AnnounceModelChange } from '../models/views';
import type { Store } from '../store';

export interface ModelServices {
  store: Store;
  exports: Exports;
  /** The desk's events: saves and assignments are announced (`model-changed`). */
  emit: AnnounceModelChange;
}

/** The `models` area: each handler passes the call to the library or the following. */
export function modelHandlers({ store, exports, emit }: ModelServices): DeskHandlers['models'] {
  const library = new ModelLibrary(store, emit);
  const following = new ModelFollowing(store, library, emit);
  return {
    list: async ({ profileId }) => library.list(profileId),
    get: async ({ modelId }) => library.get(modelId),
    create: async (input) => library.create({ ...input, description: input.description ?? '' }),
    update: async (input) => library.update(input),
    saveRevision: async (input) => library.saveRevision({ ...input, note: input.note ?? '' }),
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
    assign: async (input) => following.assign(input),
    async unassign(input) {
      following.unassign(input);
      return { ok: true as const };
    },
    followers: async ({ modelId, profileId }) => following.followers(modelId, profileId),
    ofStrategy: async ({ profileId, strategyId }) => following.ofStrategy(profileId, strategyId),
  };
}
