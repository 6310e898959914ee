/**
 * The desk's one way to tell the manager something while they look elsewhere (a batch ended, a
 * submission decided on another desk): the browser's Notification API, behind the permission the
 * manager gave (Electron shows it as a system notification). Stores take a `Notify` so their tests
 * can hear what would be told.
 */
export type Notify = (title: string, body: string) => void;

/** The system notification, when the manager allowed it (asked by `askToNotify`). */
export const systemNotify: Notify = (title, body) => {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  new Notification(title, { body });
};

/**
 * Asks once for the permission to notify, as the manager does something whose end comes later
 * (executing a batch, submitting for approval).
 */
export function askToNotify(): void {
  if (typeof Notification === 'undefined' || Notification.permission !== 'default') return;
  void Notification.requestPermission().catch(() => undefined);
}
