import { ipcMain, type BrowserWindow, type IpcMainInvokeEvent } from 'electron';
import { listChannels, type DeskEvent, type DeskHandlers } from '../shared/contract';
import { IPC_EVENT_CHANNEL, ipcChannelFor } from './transport/app-identity';
import { dispatchCall, validEvent, type CallResult } from './transport/dispatch';
import { isAppUrl } from './shell/security';
import { senderProblem } from './shell/sender';

export interface DeskIpcOptions {
  handlers: DeskHandlers;
  subscribe(listener: (event: DeskEvent) => void): () => void;
  /** The app's windows: only their main frames, on our origin, may call. */
  windows(): BrowserWindow[];
  log?: (line: string) => void;
}

export interface DeskIpc {
  /** Pushes one event to every window after checking it against the contract. */
  push(event: unknown): void;
  dispose(): void;
}

/**
 * One ipcMain.handle per contract channel (`desk:<area>.<method>`). Each message is checked for
 * its sender, parsed with the channel's zod schema, answered as `{ok, value}` or `{ok, error}`.
 */
export function registerDeskIpc(options: DeskIpcOptions): DeskIpc {
  const log = options.log ?? ((line: string) => console.error(line));
  const channels = listChannels();

  for (const entry of channels) {
    ipcMain.handle(
      ipcChannelFor(entry.channel),
      async (event: IpcMainInvokeEvent, payload: unknown): Promise<CallResult> => {
        const problem = senderProblem({
          senderId: event.sender.id,
          trustedWebContentsIds: options
            .windows()
            .filter((w) => !w.isDestroyed())
            .map((w) => w.webContents.id),
          hasFrame: event.senderFrame !== null,
          isMainFrame: event.senderFrame !== null && event.senderFrame === event.sender.mainFrame,
          frameUrl: event.senderFrame?.url ?? '',
        });
        if (problem) {
          log(`[ipc] refused ${entry.channel}: ${problem}`);
          return {
            ok: false,
            error: { kind: 'forbidden', message: 'This call did not come from the app window.' },
          };
        }
        return dispatchCall(options.handlers, entry, payload, (line) => log(`[ipc] ${line}`));
      },
    );
  }

  const push = (event: unknown): void => {
    const valid = validEvent(event);
    if (!valid) {
      log(`[ipc] dropped an event outside the contract`);
      return;
    }
    for (const window of options.windows()) {
      if (window.isDestroyed()) continue;
      // Only to a page of ours: never to whatever a frame may have navigated to.
      if (!isAppUrl(window.webContents.getURL())) continue;
      window.webContents.send(IPC_EVENT_CHANNEL, valid);
    }
  };
  const unsubscribe = options.subscribe(push);

  return {
    push,
    dispose() {
      unsubscribe();
      for (const entry of channels) ipcMain.removeHandler(ipcChannelFor(entry.channel));
    },
  };
}
