import type * as Screen from './screen';

/**
 * The Restrictions screen is its own chunk, loaded the first time it is opened: the first screen
 * does not carry its code.
 */
let screen: Promise<typeof Screen> | undefined;

export const loadRestrictionsScreen = (): Promise<typeof Screen> => (screen ??= import('./screen'));
