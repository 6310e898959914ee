/**
 * Names the shell, the start script and the packager agree on. The origin is a custom, privileged
 * scheme: the renderer never runs from file://, where every local file would share its origin.
 */
export const APP_ID = 'com.strategydesk.app';
export const PRODUCT_NAME = 'Strategy desk';
/** The folder under the platform's app-data directory; the browser host uses the same one. */
export const DATA_DIR_NAME = 'strategy-desk';

export const APP_SCHEME = 'app';
export const APP_HOST = 'desk';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

/** IPC channel names: `desk:<area>.<method>` for calls, one channel for pushed events. */
export const IPC_CALL_PREFIX = 'desk:';
export const IPC_EVENT_CHANNEL = 'desk:event';
export const ipcChannelFor = (channel: string): string => `${IPC_CALL_PREFIX}${channel}`;
