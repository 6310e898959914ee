import { z } from 'zod';
import { activityContract, activityEvents } from './activity/contract';
import { appContract, appEvents } from './app/contract';
import { attentionContract } from './attention/contract';
import { batchesContract, batchesEvents } from './batches/contract';
import { bookContract, bookEvents } from './book/contract';
import { draftsContract } from './drafts/contract';
import { modelsContract, modelsEvents } from './models/contract';
import { profilesContract, profilesEvents } from './profiles/contract';
import { reportsContract, reportsEvents } from './reports/contract';
import { restrictionsContract } from './restrictions/contract';
import { strategiesContract } from './strategies/contract';
import { teamContract, teamEvents } from './team/contract';
import { versionsContract, versionsEvents } from './versions/contract';

/**
 * The one contract between the renderer and the main process, joined from its areas: each area
 * (`shared/<area>/contract.ts`) gives its methods, a channel `area.method` each with a zod schema
 * for its input and its output, and the events it sends. The preload, the IPC handlers, the
 * browser host and its bridge are all derived from this table, so they cannot drift apart.
 * A new area: one import above and one line in each list below.
 */
export const contract = {
  profiles: profilesContract,
  strategies: strategiesContract,
  drafts: draftsContract,
  versions: versionsContract,
  reports: reportsContract,
  activity: activityContract,
  book: bookContract,
  models: modelsContract,
  batches: batchesContract,
  attention: attentionContract,
  restrictions: restrictionsContract,
  team: teamContract,
  app: appContract,
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

/** Every event the main process sends the renderer, each carrying what moved. */
export const deskEvent = z.discriminatedUnion('type', [
  ...profilesEvents,
  ...versionsEvents,
  ...reportsEvents,
  ...activityEvents,
  ...bookEvents,
  ...modelsEvents,
  ...batchesEvents,
  ...teamEvents,
  ...appEvents,
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
