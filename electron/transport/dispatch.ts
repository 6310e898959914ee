import type { z } from 'zod';
import type { listChannels } from '../../shared/contract';
import { deskEvent, type DeskEvent, type DeskHandlers } from '../../shared/contract';
import { DeskError, deskErrorWire, type DeskErrorWire } from '../../shared/views';

/** What crosses IPC for every call: errors are data, never thrown across the boundary. */
export type CallResult = { ok: true; value: unknown } | { ok: false; error: DeskErrorWire };

export type ChannelEntry = ReturnType<typeof listChannels>[number];
type Method = (input: unknown) => Promise<unknown>;

/** Names each problem by its field, in words: "secret: Enter the client secret". */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const field = issue.path.map(String).join('.');
      return field ? `${field}: ${issue.message}` : issue.message;
    })
    .join('; ');
}

/**
 * A DeskError keeps its words; anything else is our fault and says so without details. The data
 * is checked against the wire schema: details not of their kind's shape are a bug of the app,
 * logged here and left out, so the renderer never meets a detail it would have to re-check.
 */
export function toErrorData(error: unknown, channel: string, log = console.error): DeskErrorWire {
  if (error instanceof DeskError) {
    const data = error.toData();
    const checked = deskErrorWire.safeParse(data);
    if (checked.success) return checked.data;
    log(
      `${channel} failed with ${data.kind} details outside their shape: ${describeIssues(checked.error)}`,
    );
    const { details: _details, ...words } = data;
    return words as DeskErrorWire;
  }
  const name = error instanceof Error ? error.name : typeof error;
  const message = error instanceof Error ? error.message : String(error);
  // Channel, error name and message only: never the call's input, which may hold a secret.
  log(`${channel} failed: ${name}: ${message}`);
  return { kind: 'internal', message: 'Something went wrong inside the app. Please try again.' };
}

/**
 * One call of the contract: the payload parsed with the channel's input schema, the handler
 * called, its answer parsed with the output schema (which also strips any field the contract
 * does not name, so nothing extra reaches the renderer). The answer crosses as the handler gave
 * it: a secret a service echoed was taken out of its words where they entered the app (the
 * service client), so nothing here rewrites the app's own data.
 */
export async function dispatchCall(
  handlers: DeskHandlers,
  entry: ChannelEntry,
  payload: unknown,
  log: (line: string) => void = console.error,
): Promise<CallResult> {
  const input = entry.input.safeParse(payload ?? {});
  if (!input.success) {
    return {
      ok: false,
      error: {
        kind: 'invalid-input',
        message: `${entry.channel}: ${describeIssues(input.error)}`,
        details: {
          issues: input.error.issues.map((i) => ({ path: i.path.map(String), message: i.message })),
        },
      },
    };
  }
  const area = handlers[entry.area] as unknown as Record<string, Method>;
  let result: unknown;
  try {
    result = await area[entry.method]!.call(area, input.data);
  } catch (error) {
    return { ok: false, error: toErrorData(error, entry.channel, log) };
  }
  const output = entry.output.safeParse(result);
  if (!output.success) {
    log(`${entry.channel} answered outside its schema: ${describeIssues(output.error)}`);
    return {
      ok: false,
      error: {
        kind: 'internal',
        message: 'The app produced an answer in an unexpected form. Please try again.',
      },
    };
  }
  return { ok: true, value: output.data };
}

/** The preload's side: the value, or the error rethrown as a DeskError. */
export function unwrapCallResult(channel: string, result: unknown): unknown {
  if (typeof result === 'object' && result !== null && 'ok' in result) {
    const r = result as { ok: unknown; value?: unknown; error?: unknown };
    if (r.ok === true) return r.value;
    const error = deskErrorWire.safeParse(r.error);
    if (r.ok === false && error.success) throw DeskError.fromWire(error.data);
  }
  throw new DeskError({
    kind: 'internal',
    message: `The app answered ${channel} in an unexpected form. Please try again.`,
  });
}

/**
 * What the preload rejects with. contextBridge copies an Error into the page as a bare Error with
 * its message only (custom fields and class are lost), but copies a plain object whole; so the
 * page receives the DeskError's data and the renderer rebuilds the DeskError (asDeskError).
 */
export type BridgeError = DeskErrorWire & { name: 'DeskError' };

export function toBridgeError(error: unknown): BridgeError {
  const data =
    error instanceof DeskError
      ? error.toData()
      : {
          kind: 'internal' as const,
          message: 'Something went wrong inside the app. Please try again.',
        };
  return { name: 'DeskError', ...data };
}

/** An event is pushed to the renderer only when it matches the contract's event schema. */
export function validEvent(event: unknown): DeskEvent | null {
  const parsed = deskEvent.safeParse(event);
  return parsed.success ? parsed.data : null;
}
