import { APP_HOST, APP_SCHEME } from '../transport/app-identity';

/**
 * The hardening the shell applies, as plain values so tests can assert each one (Electron's
 * security checklist). main.ts spreads these first into its window's webPreferences and overrides
 * none (test/unit/shell/shell-source.test.ts reads it so); Electronegativity, which cannot follow
 * the spread, is told so in place there.
 */
export const HARDENED_WEB_PREFERENCES = {
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  nodeIntegrationInSubFrames: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  experimentalFeatures: false,
  webviewTag: false,
  spellcheck: false,
  navigateOnDragDrop: false,
  safeDialogs: true,
} as const;

/** True for a URL of the app's own origin (`app://desk/...`). */
export function isAppUrl(raw: string): boolean {
  const url = parseUrl(raw);
  // Compared by protocol and host: Node gives non-special schemes the opaque origin "null".
  return url !== null && url.protocol === `${APP_SCHEME}:` && url.host === APP_HOST;
}

/**
 * The address to hand to the system browser for a link the renderer tried to follow, or null to
 * drop it. Only plain http(s) links without credentials: never javascript:, file:, data:, or a
 * custom scheme that another program on the machine might handle.
 */
export function externalLinkTarget(raw: string): string | null {
  const url = parseUrl(raw);
  if (!url) return null;
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  // "https://bank.example@evil.example" reads as one host and goes to another.
  if (url.username !== '' || url.password !== '') return null;
  if (url.hostname === '') return null;
  return url.href;
}

export interface LinkDecision {
  /** The renderer never navigates away from the app nor opens a window of its own. */
  allow: false;
  /** Set when the link is opened in the system browser instead. */
  openExternally: string | null;
}

/** will-navigate and setWindowOpenHandler both decide with this. */
export function decideLink(raw: string): LinkDecision {
  return { allow: false, openExternally: externalLinkTarget(raw) };
}

/**
 * Requests the renderer's session may make: its own files and devtools only. Everything else
 * (the service, the sandbox) is the main process's job; the renderer has no network.
 */
export function isAllowedRequest(raw: string): boolean {
  if (isAppUrl(raw)) return true;
  const url = parseUrl(raw);
  return url !== null && url.protocol === 'devtools:';
}

/** The app asks for no permission: no camera, microphone, geolocation, notifications from pages. */
export const permissionPolicy = {
  request: (_permission: string): boolean => false,
  check: (_permission: string): boolean => false,
} as const;

function parseUrl(raw: string): URL | null {
  try {
    return new URL(raw);
  } catch {
    return null;
  }
}
