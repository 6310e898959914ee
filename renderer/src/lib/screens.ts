import type * as Screens from '../screens';

/**
 * The screens past the first (a strategy and its tabs, a profile's activity) are loaded the first
 * time one is shown: the welcome screen, a new manager's first sight of the app, comes up without
 * their code. They load together, once; later uses get the same module.
 */
let screens: Promise<typeof Screens> | undefined;

export const loadScreens = (): Promise<typeof Screens> => (screens ??= import('../screens'));
