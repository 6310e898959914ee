import type * as Screen from './screen';

/** The batch view is its own chunk, loaded the first time a batch is reviewed or opened. */
let screen: Promise<typeof Screen> | undefined;

export const loadBatchPanel = (): Promise<typeof Screen> => (screen ??= import('./screen'));
