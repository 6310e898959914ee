import type { DeskHandlers } from '../../../shared/contract';
import { ModelFollowing } from '../models/following';
import { ModelLibrary } from '../models/library';
import { modelCsvName, readModelCsv, writeModelCsv } from '../models/csv';
import type { Store } from '../store';
import type { ChooseExportPath } from './reports';
import { randomUUID } from 'node:crypto';

export interface ModelServices {
  store: Store;
  choosePath: ChooseExportPath;
}

/** The `models` area: each handler passes the call to the library or the following. */
export function modelHandlers({ store, choosePath }: ModelServices): DeskHandlers['models'] {
  const library = new ModelLibrary(store);
  const following = new ModelFollowing(store, library);
  return {
    list: async ({ profileId }) => library.list(profileId),
    get: async ({ modelId }) => library.get(modelId),
    create: async (input) => library.create({ ...input, description: input.description ?? '' }),
    update: async (input) => library.update(input),
    saveRevision: async (input) => library.saveRevision({ ...input, note: input.note ?? '' }),
    revision: async ({ revisionId }) => library.revision(revisionId),
    compare: async ({ from, to }) => library.compare(from, to),
    importCsv: async ({ text }) => readModelCsv(text),
    async exportCsv({ revisionId }) {
      const revision = library.revisionOf(revisionId);
      const model = library.model(revision.modelId);
      const path = await choosePath(modelCsvName(model.name, revision.number));
      if (path === null) return null;
      const written = await writeModelCsv(path, store.models.rows(revision.id));
      return { exportId: randomUUID(), path, ...written };
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
