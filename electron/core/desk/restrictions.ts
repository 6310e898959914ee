import type { DeskHandlers } from '../../../shared/contract';
import { DeskError } from '../../../shared/errors';
import type { Exports } from '../exports';
import {
  csvWhere,
  readRestrictionsCsv,
  restrictionsCsvFile,
  type Restrictions,
} from '../restrictions';
import type { Store } from '../store';

export interface RestrictionServices {
  store: Store;
  restrictions: Restrictions;
  exports: Exports;
}

/** The `restrictions` area: each handler passes the call to core/restrictions. */
export function restrictionHandlers({
  store,
  restrictions,
  exports,
}: RestrictionServices): DeskHandlers['restrictions'] {
  return {
    list: async ({ profileId }) => restrictions.list(profileId),
    add: async ({ profileId, ...input }) => restrictions.add(profileId, [input])[0]!,
    end: async ({ profileId, restrictionId }) => restrictions.end(profileId, restrictionId),
    async inForce({ profileId, strategyId }) {
      if (!store.strategies.get(profileId, strategyId))
        throw new DeskError({ kind: 'not-found', message: 'This strategy is not in this app.' });
      const { rules, held, listHash } = restrictions.inForce(profileId, strategyId);
      const ids = new Set(rules.map((r) => r.id));
      const views = restrictions.list(profileId).filter((v) => ids.has(v.id));
      return { rules: views, held: [...held].sort(), listHash };
    },
    checkDraft: async ({ draftId }) => restrictions.checkDraft(draftId),
    async exportCsv({ profileId, exportId }) {
      const profile = store.profiles.get(profileId);
      if (!profile)
        throw new DeskError({ kind: 'not-found', message: 'This profile is not in this app.' });
      return exports.write(
        restrictionsCsvFile(profile.name, store.restrictions.list(profileId)),
        exportId,
      );
    },
    async importCsv({ profileId, text, setBy }) {
      const read = readRestrictionsCsv(text, setBy);
      const added = restrictions.add(
        profileId,
        read.map((r) => r.rule),
        (i) => csvWhere(read[i]!.line),
      );
      return { added: added.length };
    },
    findings: async ({ profileId, versionId }) => restrictions.findings(profileId, versionId),
  };
}
