import type * as Screen from './screen';

/**
 * The Models screen is its own chunk, loaded the first time it is opened: neither the first
 * screen nor the strategy screens carry its code.
 */
let screen: Promise<typeof Screen> | undefined;

export const loadModelsScreen = (): Promise<typeof Screen> => (screen ??= import('./screen'));
