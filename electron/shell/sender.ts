import { isAppUrl } from './security';

/** What ipc.ts learns about the frame that sent an IPC message. */
export interface SenderFacts {
  /** webContents id of the sender. */
  senderId: number;
  /** The webContents ids of our windows. */
  trustedWebContentsIds: readonly number[];
  /** event.senderFrame is null once the frame navigated away or was destroyed. */
  hasFrame: boolean;
  /** event.senderFrame === event.sender.mainFrame: no iframe may call the contract. */
  isMainFrame: boolean;
  /** event.senderFrame.url */
  frameUrl: string;
}

/** Null when the message may be handled; otherwise why it is refused (for the log). */
export function senderProblem(facts: SenderFacts): string | null {
  if (!facts.trustedWebContentsIds.includes(facts.senderId)) return 'not one of our windows';
  if (!facts.hasFrame) return 'the sending frame is gone';
  if (!facts.isMainFrame) return 'not the main frame';
  if (!isAppUrl(facts.frameUrl)) return `foreign origin (${safeOrigin(facts.frameUrl)})`;
  return null;
}

function safeOrigin(raw: string): string {
  try {
    const url = new URL(raw);
    return `${url.protocol}//${url.host}`;
  } catch {
    return 'unparsable URL';
  }
}
