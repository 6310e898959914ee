/**
 * The screens past the first are loaded the first time one is shown, each in a chunk of its own:
 * the welcome screen, a new manager's first sight of the app, comes up without their code, and a
 * book comes up without the code of a strategy's tabs. Each loads once; later uses get the same
 * module.
 */
function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () =>
    (loaded ??= load().catch((error: unknown) => {
      // A failed load (the app was updated under the page) may be tried again.
      loaded = undefined;
      throw error;
    }));
}

export const loadStrategyPane = once(async () => ({
  StrategyPane: (await import('../components/StrategyPane.svelte')).default,
}));
export const loadProfileActivity = once(async () => ({
  ProfileActivity: (await import('../activity/ProfileActivity.svelte')).default,
}));
export const loadBook = once(async () => ({
  BookView: (await import('../book/BookView.svelte')).default,
}));

/**
 * Whether the first screen is a profile's book, known before the profiles are read: a profile
 * was open when the app last closed, or the page's head says so (the browser host tells a page
 * served from a data folder with a profile, electron/host/first-screen.ts).
 */
export function bookComesFirst(): boolean {
  return (
    localStorage.getItem('strategy-desk.profile') !== null ||
    document.querySelector('meta[name="strategy-desk-first-screen"][content="book"]') !== null
  );
}
export const loadProfilePanel = once(async () => ({
  ProfilePanel: (await import('../components/ProfilePanel.svelte')).default,
}));
