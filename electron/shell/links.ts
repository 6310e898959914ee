import { decideLink } from './security';

/**
 * Links the renderer tries to follow go to the system browser (the window never navigates away):
 * at once when they point where the app itself links (a profile's service, whose documentation
 * lives at its address), after the manager's yes in a native dialog naming the full address
 * otherwise, and never when they are not plain http(s) (security.ts). Electron's API is injected,
 * so this runs and is tested under plain Node.
 */

/** The options of Electron's dialog.showMessageBox this uses (the shell imports no Electron). */
export interface LinkQuestion {
  type: 'question';
  title: string;
  message: string;
  detail: string;
  buttons: string[];
  defaultId: number;
  cancelId: number;
  noLink: boolean;
}

/** The parts of Electron this uses, looked up when used (the smoke test records them). */
export interface LinkShell {
  shell: { openExternal(url: string): Promise<void> };
  /** dialog.showMessageBox, modal to the app's window when there is one: the button chosen. */
  ask(question: LinkQuestion): Promise<{ response: number }>;
  /** The service addresses of the profiles, now. */
  serviceAddresses(): Promise<readonly string[]>;
  log(line: string): void;
}

export type LinkAction =
  { kind: 'open'; url: string } | { kind: 'ask'; url: string } | { kind: 'drop' };

export type LinkOutcome = 'opened' | 'declined' | 'dropped' | 'busy' | 'failed';

/** The origins the app links to: each profile's service address. */
export function trustedLinkOrigins(serviceAddresses: readonly string[]): Set<string> {
  const origins = new Set<string>();
  for (const address of serviceAddresses) {
    try {
      const url = new URL(address);
      if (url.protocol === 'https:' || url.protocol === 'http:') origins.add(url.origin);
    } catch {
      // An address the app never accepted opens nothing without asking.
    }
  }
  return origins;
}

/** What to do with a link: compared by origin (scheme, host, port), after security.ts's parse. */
export function linkAction(raw: string, trusted: ReadonlySet<string>): LinkAction {
  const target = decideLink(raw).openExternally;
  if (target === null) return { kind: 'drop' };
  return trusted.has(new URL(target).origin)
    ? { kind: 'open', url: target }
    : { kind: 'ask', url: target };
}

export const OPEN_BUTTON = 1;

/**
 * The question for any other address. The address is given whole, as the browser will open it
 * (a host in another script shows as xn--…, so a look-alike name cannot pass for a known one);
 * Cancel is the default, for Enter and Escape alike.
 */
export function linkQuestion(url: string): LinkQuestion {
  return {
    type: 'question',
    title: 'Open a link',
    message: 'Open this address in your browser?',
    detail: `${url}\n\nIt is not the address of a service of your profiles. Open it only if you expected this link.`,
    buttons: ['Cancel', 'Open in browser'],
    defaultId: 0,
    cancelId: 0,
    noLink: true,
  };
}

/**
 * `open(url)` for every link the window tries to follow. One question at a time: a link asked
 * for while a question is open is dropped, so a page cannot stack dialogs.
 */
export function externalLinks(electron: LinkShell) {
  let asking = false;
  return {
    async open(raw: string): Promise<LinkOutcome> {
      let addresses: readonly string[] = [];
      try {
        addresses = await electron.serviceAddresses();
      } catch (error) {
        // Without the list every address is asked for: nothing opens unasked.
        electron.log(`links: the profiles could not be read: ${(error as Error).message}`);
      }
      const action = linkAction(raw, trustedLinkOrigins(addresses));
      if (action.kind === 'drop') return 'dropped';
      if (action.kind === 'ask') {
        // Checked and taken with no await between: two links at once cannot both ask.
        if (asking) return 'busy';
        asking = true;
        try {
          const { response } = await electron.ask(linkQuestion(action.url));
          if (response !== OPEN_BUTTON) return 'declined';
        } finally {
          asking = false;
        }
      }
      try {
        await electron.shell.openExternal(action.url); // eng-disable OPEN_EXTERNAL_JS_CHECK: http(s) only, its origin a profile's service or confirmed by the manager
      } catch (error) {
        electron.log(`links: the browser did not open ${action.url}: ${(error as Error).message}`);
        return 'failed';
      }
      return 'opened';
    },
  };
}
