import { z } from 'zod';
import { uuid, versionStatus } from './domain/resources';
import { serviceAddressProblem } from './service-address';
import {
  appStatus,
  draftRow,
  draftStart,
  draftSummary,
  draftView,
  executePreview,
  exportIdField,
  exportResult,
  journalEntryView,
  trackingProblem,
  predictionOutcomeView,
  profileView,
  reportSelection,
  strategyListItem,
  strategyView,
  versionDetail,
  versionSummary,
} from './views';
import {
  activityCheck,
  activityEntryDetail,
  activityFilter,
  activityEntrySummary,
  activityPage,
  removedProfileLog,
} from './activity/views';
import { batchesContract } from './batches/contract';
import { bookContract } from './book/contract';
import { method, none, ok, profileRef, strategyRef } from './contract-parts';
import { bookCounts, bookJob, bookPage, bookRow, bookSummary } from './book/views';
import { deleteConfirmation, deletePreview } from './unexecuted';
import { modelsContract } from './models/contract';
import { teamChangedEvent, teamContract } from './team/contract';
import { modelFollower, modelSummary, revisionSummary } from './models/views';
import { batchItemView, batchSummary } from './batches/views';

/**
 * The one contract between the renderer and the main process. Each method is
 * a channel `area.method` with a zod schema for its input and its output; the
 * preload, the IPC handlers, the browser host and its bridge are all derived
 * from this table, so they cannot drift apart.
 */

const versionRef = z.object({ profileId: uuid, strategyId: uuid, versionId: uuid }).strict();
const draftRef = z.object({ draftId: uuid }).strict();
const journalRef = z.object({ journalId: uuid }).strict();

const profileName = z.string().trim().min(1, 'Give the profile a name').max(100);
const baseUrl = z
  .string()
  .trim()
  .min(1, 'Enter the service address')
  .max(2000)
  .superRefine((value, check) => {
    const problem = serviceAddressProblem(value);
    if (problem !== null) check.addIssue({ code: 'custom', message: problem });
  });
const clientId = z.string().trim().min(1, 'Enter the client id').max(200);
const secret = z.string().min(1, 'Enter the client secret').max(4096);

export const contract = {
  profiles: {
    list: method(none, z.array(profileView)),
    create: method(
      z.object({ name: profileName, baseUrl, clientId, secret }).strict(),
      profileView,
    ),
    update: method(
      z
        .object({
          profileId: uuid,
          name: profileName.optional(),
          baseUrl: baseUrl.optional(),
          clientId: clientId.optional(),
          secret: secret.optional(),
          /** A new address with no new secret: the manager confirmed the stored secret goes there. */
          sendSecretToNewAddress: z.literal(true).optional(),
        })
        .strict(),
      profileView,
    ),
    remove: method(profileRef, ok),
    testConnection: method(profileRef, z.object({ grantedScopes: z.array(z.string()).nullable() })),
    /**
     * Asks the service for a token with these details before they are saved (nothing is stored).
     * Without a secret, the stored one of `profileId` is used, under the same rule as update.
     */
    check: method(
      z
        .object({
          profileId: uuid.optional(),
          baseUrl,
          clientId,
          secret: secret.optional(),
          sendSecretToNewAddress: z.literal(true).optional(),
        })
        .strict(),
      z.object({ grantedScopes: z.array(z.string()).nullable() }),
    ),
    /** "Try the built-in sandbox": starts it in-process, creates its profile, adds the demo strategies. */
    useSandbox: method(none, profileView),
  },
  strategies: {
    list: method(profileRef, z.array(strategyListItem)),
    add: method(strategyRef, strategyView),
    get: method(strategyRef, strategyView),
    refresh: method(strategyRef, strategyView),
    /** Stops a refresh still waiting on the service; that refresh fails with kind `cancelled`. */
    cancelRefresh: method(strategyRef, ok),
    remove: method(strategyRef, ok),
  },
  drafts: {
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
  },
  versions: {
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
  },
  reports: {
    /** Writes a CSV of orders; the host chooses where (a save dialog in the desktop app). */
    exportOrders: method(
      z.object({ profileId: uuid, selection: reportSelection, ...exportIdField }).strict(),
      exportResult.nullable(),
    ),
  },
  /** The append-only, hash-chained record of every action that reached the service. */
  activity: {
    /** A window of the filtered log, newest first (the view asks for the rows it shows). */
    list: method(
      activityFilter
        .extend({
          offset: z.number().int().nonnegative(),
          limit: z.number().int().positive().max(500),
        })
        .strict(),
      activityPage,
    ),
    get: method(z.object({ seq: z.number().int().positive() }).strict(), activityEntryDetail),
    /** Walks every chain again now (the app also does at start). */
    verify: method(none, activityCheck),
    /** The last check's result, without walking again. */
    lastCheck: method(none, activityCheck.nullable()),
    /** The logs of profiles removed from the app, most recently written first (read by profileId). */
    removedProfiles: method(none, z.array(removedProfileLog)),
    /** Writes the filtered log as CSV or as JSON Lines with the hashes; the host chooses where. */
    export: method(
      z
        .object({ filter: activityFilter, format: z.enum(['csv', 'jsonl']), ...exportIdField })
        .strict(),
      exportResult.nullable(),
    ),
  },
  /** Every strategy of a profile at a glance (docs/book.md). */
  book: bookContract,
  /**
   * The model library, app-wide (docs/models.md): a model's rows are saved as immutable revisions;
   * a strategy of a profile follows at most one model, with a sync state.
   */
  models: modelsContract,
  /**
   * Batches (docs/batches.md): one model revision reviewed once for many strategies of a profile,
   * each included strategy executed through the one execution flow, followed together.
   */
  batches: batchesContract,
  team: teamContract,
  app: {
    status: method(none, appStatus),
    /**
     * What the app opens on, in one call (its first screen waits for one answer, not two in a
     * row): the profiles as `profiles.list` gives them, and the book of the profile it opens
     * with, its summary and first page as `book.summary` and `book.rows` give them (the whole
     * book from the top, BOOK_PAGE rows); null without a profile. It opens with the profile
     * the page remembers (`profileId`, as the page kept it: ignored unless it is a profile's),
     * else the first.
     */
    firstScreen: method(
      z.object({ profileId: z.string().max(100).nullable() }).strict(),
      z.object({
        profiles: z.array(profileView),
        book: z.object({ profileId: uuid, summary: bookSummary, page: bookPage }).nullable(),
      }),
    ),
  },
} as const;

export type Contract = typeof contract;
export type Area = keyof Contract;
export type MethodName<A extends Area> = keyof Contract[A] & string;
export type Channel = { [A in Area]: `${A}.${MethodName<A>}` }[Area];

type MethodInput<A extends Area, M extends MethodName<A>> = Contract[A][M] extends {
  input: infer I extends z.ZodType;
}
  ? z.input<I>
  : never;
type MethodOutput<A extends Area, M extends MethodName<A>> = Contract[A][M] extends {
  output: infer O extends z.ZodType;
}
  ? z.output<O>
  : never;

/** The API the renderer is written against; both bridges implement exactly this. */
export type DeskApi = {
  [A in Area]: {
    [M in MethodName<A>]: (input: MethodInput<A, M>) => Promise<MethodOutput<A, M>>;
  };
} & { events: DeskEvents };

/** What the main process implements: the same methods, without the event bridge. */
export type DeskHandlers = Omit<DeskApi, 'events'>;

export const deskEvent = z.discriminatedUnion('type', [
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
    appStatus: appStatus.pick({
      runningVersions: true,
      lastSyncAt: true,
      needsAttention: true,
      failedUnacknowledged: true,
    }),
    /**
     * At the end only: the strategy with the holdings the rebalance left, as `strategies.get`
     * gives it (null too when it has too many lines to carry: read it then).
     */
    settledStrategy: strategyView.nullable(),
  }),
  z.object({
    type: z.literal('connectivity-changed'),
    profileId: uuid,
    online: z.boolean(),
    message: z.string().nullable(),
  }),
  z.object({
    type: z.literal('export-progress'),
    exportId: z.string(),
    rows: z.number().int().nonnegative(),
    done: z.boolean(),
  }),
  /** An execution was journaled, settled or dismissed: the profile's unsettled ones now. */
  z.object({
    type: z.literal('journal-changed'),
    profileId: uuid,
    inFlight: z.array(journalEntryView),
  }),
  /** An entry was appended to a profile's activity log (the view shows it without asking twice). */
  z.object({
    type: z.literal('activity-appended'),
    profileId: uuid,
    entry: activityEntrySummary,
  }),
  /** Following a version went wrong, waits for something, or recovered (then the problem is null). */
  z.object({
    type: z.literal('version-tracking-changed'),
    profileId: uuid,
    strategyId: uuid,
    versionId: uuid,
    trackingProblem: trackingProblem.nullable(),
  }),
  /** A batch moved: its summary now, and the item that moved (null: the batch itself). */
  z.object({
    type: z.literal('batch-progress'),
    profileId: uuid,
    batchId: uuid,
    summary: batchSummary,
    item: batchItemView.nullable(),
  }),
  /** The book's reads stored strategies: their rows as the book shows them now, and its counts. */
  z.object({
    type: z.literal('book-rows-changed'),
    profileId: uuid,
    rows: z.array(bookRow),
    counts: bookCounts,
  }),
  /** A refresh or an add of the book moved on (progress, a pause for a 429, its end). */
  z.object({ type: z.literal('book-job-changed'), profileId: uuid, job: bookJob }),
  /**
   * A model's revision was saved, or strategies were assigned to a model or unassigned: the
   * models whose line in the list changed, and every strategy whose model or sync state changed,
   * each as it follows now, so the book's column, the Overview and the Models screen update
   * without reading again.
   */
  z.object({
    type: z.literal('model-changed'),
    change: z.enum(['revision-saved', 'assigned', 'unassigned']),
    /** Whose strategies were assigned or unassigned; null for a save (models are app-wide). */
    profileId: uuid.nullable(),
    /** The revision saved or assigned (its number and hash); null for an unassign. */
    revision: revisionSummary.nullable(),
    /**
     * Each model whose line changed, as `models.list` gives it (with `profileId`'s followers
     * counted when it is given).
     */
    models: z.array(modelSummary),
    strategies: z.array(
      z.object({
        profileId: uuid,
        strategyId: uuid,
        /** As `models.ofStrategy` gives it now (null: it follows no model any more). */
        follows: modelFollower.nullable(),
      }),
    ),
  }),
  /** A command chosen in the desktop app's native menu (File › Export CSV…). */
  z.object({ type: z.literal('menu-command'), command: z.enum(['export-csv']) }),
  teamChangedEvent,
]);
export type DeskEvent = z.infer<typeof deskEvent>;

export type DeskEventType = DeskEvent['type'];
/** The event of one type, with its data typed. */
export type DeskEventOf<T extends DeskEventType> = Extract<DeskEvent, { type: T }>;

export interface DeskEvents {
  /** Calls the listener for every event; returns the unsubscribe function. */
  subscribe(listener: (event: DeskEvent) => void): () => void;
  /** Calls the handler for every event of one type, typed; returns the unsubscribe function. */
  on<T extends DeskEventType>(type: T, handler: (event: DeskEventOf<T>) => void): () => void;
}

/** Every channel with its schemas, for the generic IPC and HTTP layers. */
export function listChannels(): {
  channel: Channel;
  area: Area;
  method: string;
  input: z.ZodType;
  output: z.ZodType;
}[] {
  return (Object.keys(contract) as Area[]).flatMap((area) =>
    Object.entries(contract[area]).map(([name, m]) => ({
      channel: `${area}.${name}` as Channel,
      area,
      method: name,
      input: (m as { input: z.ZodType }).input,
      output: (m as { output: z.ZodType }).output,
    })),
  );
}
