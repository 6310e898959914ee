import type * as Screen from './screen';

/** The batches screen is its own chunk, loaded the first time a batch is reviewed or opened. */
let screen: Promise<typeof Screen> | undefined;

export const loadBatchesScreen = (): Promise<typeof Screen> => (screen ??= import('./screen'));
