import { z } from 'zod';
import { draftRef, method, ok, strategyRef } from '../contract-parts';
import { uuid } from '../domain/resources';
import { draftRow, draftStart, draftSummary, draftView } from '../views';

/** A strategy's drafts: target portfolios being written (their rules in shared/draft/). */
export const draftsContract = {
  list: method(strategyRef, z.array(draftSummary)),
  create: method(
    z
      .object({
        profileId: uuid,
        strategyId: uuid,
        name: z.string().trim().min(1).max(100),
        start: draftStart,
      })
      .strict(),
    draftView,
  ),
  get: method(draftRef, draftView),
  saveRows: method(
    z.object({ draftId: uuid, rows: z.array(draftRow).max(5000) }).strict(),
    draftSummary,
  ),
  rename: method(
    z.object({ draftId: uuid, name: z.string().trim().min(1).max(100) }).strict(),
    draftSummary,
  ),
  remove: method(draftRef, ok),
};
