import { contextBridge, ipcRenderer } from 'electron';
import { listChannels, type Area, type DeskApi, type DeskEvent } from '../shared/contract';
import { deskEventsOf } from '../shared/event-listeners';
import { Listeners } from '../shared/listeners';
import { IPC_EVENT_CHANNEL, ipcChannelFor } from './transport/app-identity';
import { toBridgeError, unwrapCallResult, validEvent } from './transport/dispatch';

/**
 * The renderer's only door to the main process: exactly the contract, as `window.desk`. Built
 * from listChannels(), so a channel added to the contract appears here without an edit, and
 * checked with `satisfies DeskApi`, so an area missing here fails to compile. A failure rejects
 * with the DeskError's data (toBridgeError): contextBridge would strip a DeskError to its message,
 * and the renderer's asDeskError rebuilds it. Bundled into one CommonJS file: a sandboxed preload
 * can require only electron and a few built-ins.
 */

type AnyMethod = (input: unknown) => Promise<unknown>;

const channels = listChannels();

function area<A extends Area>(name: A): DeskApi[A] {
  const methods: Record<string, AnyMethod> = {};
  for (const entry of channels) {
    if (entry.area !== name) continue;
    // Only the input crosses; the renderer never gets ipcRenderer nor an IPC event object.
    methods[entry.method] = async (input: unknown) => {
      try {
        const result: unknown = await ipcRenderer.invoke(ipcChannelFor(entry.channel), input);
        return unwrapCallResult(entry.channel, result);
      } catch (error) {
        // A DeskError's fields would not survive contextBridge: reject with its data instead.
        throw toBridgeError(error);
      }
    };
  }
  return methods as unknown as DeskApi[A];
}

const listeners = new Listeners<DeskEvent>({
  onListenerError: (error) => console.error('A desk event listener failed', error),
});
ipcRenderer.on(IPC_EVENT_CHANNEL, (_event, payload: unknown) => {
  const event = validEvent(payload);
  if (event) listeners.emit(event);
});

const desk = {
  profiles: area('profiles'),
  strategies: area('strategies'),
  drafts: area('drafts'),
  versions: area('versions'),
  reports: area('reports'),
  activity: area('activity'),
  book: area('book'),
  models: area('models'),
  batches: area('batches'),
  attention: area('attention'),
  restrictions: area('restrictions'),
  team: area('team'),
  app: area('app'),
  // Plain functions: contextBridge would not carry a class's methods.
  events: deskEventsOf(listeners),
} satisfies DeskApi;

contextBridge.exposeInMainWorld('desk', desk);
