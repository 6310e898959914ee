const STORAGE_KEY = 'strategy-desk.token';

/**
 * The browser host puts its per-launch token in the URL fragment (never sent to a server). Take
 * it, wipe it from the address bar and history, and keep it for this tab so a reload works.
 */
export function takeToken(): string | null {
  const match = /(?:^#|&)token=([A-Za-z0-9_-]+)/.exec(location.hash);
  if (match?.[1]) {
    sessionStorage.setItem(STORAGE_KEY, match[1]);
    history.replaceState(history.state, '', location.pathname + location.search);
    return match[1];
  }
  return sessionStorage.getItem(STORAGE_KEY);
}
