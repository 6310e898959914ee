import { z } from 'zod';
import { draftRef, method, ok, profileRef, strategyRef, versionRef } from '../contract-parts';
import { uuid, versionStatus } from '../domain/resources';
import {
  appStatus,
  executePreview,
  journalEntryView,
  predictionOutcomeView,
  strategyListItem,
  strategyView,
  trackingProblem,
  versionDetail,
  versionSummary,
} from '../views';
import { restrictionOverride } from '../restrictions/contract';
import { deleteConfirmation, deletePreview } from './unexecuted';

const journalRef = z.object({ journalId: uuid }).strict();

/** The status bar's figures an event moves, as `app.status` gives them. */
const statusFigures = appStatus.pick({
  runningVersions: true,
  lastSyncAt: true,
  needsAttention: true,
  failedUnacknowledged: true,
});

/** A strategy's versions: executing a draft as one, following it, the journal of executions. */
export const versionsContract = {
  list: method(strategyRef, z.array(versionSummary)),
  get: method(versionRef, versionDetail),
  import: method(versionRef, versionDetail),
  /** The confirmation: re-reads the strategy and its known target, predicts the request. */
  prepareExecute: method(draftRef, executePreview),
  execute: method(
    z
      .object({
        draftId: uuid,
        /** What the manager confirmed: the request must still be that one. */
        confirmation: z
          .object({
            planKey: z.string().min(1).max(200),
            /** Holdings that did not fit the known target were acknowledged. */
            acknowledgedStale: z.boolean(),
            /** "Execute again": the version this draft became before. */
            againAfter: uuid.nullable(),
            restrictionOverride: restrictionOverride.optional(),
          })
          .strict()
          .optional(),
      })
      .strict(),
    z.object({ journalId: uuid, version: versionDetail }),
  ),
  /** What the app predicted for a version it executed, and where the service differed. */
  prediction: method(versionRef, predictionOutcomeView.nullable()),
  retryExecution: method(journalRef, z.object({ journalId: uuid, version: versionDetail })),
  dismissExecution: method(journalRef, ok),
  journal: method(profileRef, z.array(journalEntryView)),
  /**
   * Reads an unexecuted version from the service now, to show before deleting it: its content,
   * how it differs from the draft (when given) that would replace it, and the key to delete it.
   */
  prepareDelete: method(versionRef.extend({ draftId: uuid.optional() }).strict(), deletePreview),
  /**
   * Deletes an unexecuted version the manager was shown (`prepareDelete`'s key), or could not be
   * shown and acknowledged. Without either it is refused (kind delete-not-confirmed); if the
   * version changed since it was shown, it is refused too (kind confirmation-outdated).
   */
  delete: method(versionRef.extend({ confirmation: deleteConfirmation.optional() }).strict(), ok),
  /** The manager saw a failed or partly failed rebalance: it no longer needs attention. */
  acknowledgeFailure: method(versionRef, versionDetail),
  /** Polls a followed version now instead of at its next turn (follows it again if it stopped). */
  checkNow: method(versionRef, versionDetail),
};

export const versionsEvents = [
  z.object({
    type: z.literal('version-status-changed'),
    profileId: uuid,
    strategyId: uuid,
    versionId: uuid,
    previousStatus: versionStatus.nullable(),
    status: versionStatus.nullable(),
    ended: z.boolean(),
    // What the screens show of the change, so they update in place instead of asking again.
    /** The version's line in its strategy's history, as `versions.list` gives it now. */
    version: versionSummary,
    /** The strategy's line in the sidebar, as `strategies.list` gives it (null: no longer added). */
    strategy: strategyListItem.nullable(),
    /** The status bar's figures the change moves, as `app.status` gives them now. */
    appStatus: statusFigures,
    /**
     * At the end only: the strategy with the holdings the rebalance left, as `strategies.get`
     * gives it (null too when it has too many lines to carry: read it then).
     */
    settledStrategy: strategyView.nullable(),
  }),
  /** An execution was journaled, settled or dismissed: the profile's unsettled ones now. */
  z.object({
    type: z.literal('journal-changed'),
    profileId: uuid,
    inFlight: z.array(journalEntryView),
    /**
     * The status bar's figures it moves (a version accepted runs; an outcome unknown needs
     * attention), of every profile, as `app.status` gives them now: no read follows.
     */
    appStatus: statusFigures,
  }),
  /** Following a version went wrong, waits for something, or recovered (then the problem is null). */
  z.object({
    type: z.literal('version-tracking-changed'),
    profileId: uuid,
    strategyId: uuid,
    versionId: uuid,
    trackingProblem: trackingProblem.nullable(),
  }),
] as const;
