import type * as Screen from './screen';

/** The Team screen is its own chunk, loaded the first time it is opened. */
let screen: Promise<typeof Screen> | undefined;

export const loadTeamScreen = (): Promise<typeof Screen> => (screen ??= import('./screen'));
