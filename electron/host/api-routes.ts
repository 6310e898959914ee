import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { listChannels, type DeskHandlers } from '../../shared/contract';
import { DeskError, type DeskErrorData } from '../../shared/views';
import { refuse } from './security';

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

/** Anything but a DeskError is a fault of ours: the renderer gets a plain sentence, the log the rest. */
export function toErrorData(error: unknown, channel: string): DeskErrorData {
  if (error instanceof DeskError) return error.toData();
  const name = error instanceof Error ? error.name : typeof error;
  const message = error instanceof Error ? error.message : String(error);
  // Channel, error name and message only: never the call's input, which may hold a secret.
  console.error(`[host] ${channel} failed: ${name}: ${message}`);
  return { kind: 'internal', message: 'Something went wrong inside the app. Please try again.' };
}

/** `POST /api/<area>.<method>`: the contract's channels, parsed both ways with its zod schemas. */
export function registerApiRoutes(app: FastifyInstance, handlers: DeskHandlers): void {
  const channels = new Map(listChannels().map((c) => [c.channel as string, c]));

  app.post<{ Params: { channel: string } }>('/api/:channel', async (request, reply) => {
    const entry = channels.get(request.params.channel);
    reply.header('Cache-Control', 'no-store');
    if (!entry) {
      return refuse(reply, 404, {
        kind: 'not-found',
        message: `There is no call named ${JSON.stringify(request.params.channel)}.`,
      });
    }
    const input = entry.input.safeParse(request.body ?? {});
    if (!input.success) {
      return refuse(reply, 400, {
        kind: 'invalid-input',
        message: `${entry.channel}: ${describeIssues(input.error)}`,
        details: {
          issues: input.error.issues.map((i) => ({ path: i.path.map(String), message: i.message })),
        },
      });
    }
    const area = handlers[entry.area] as unknown as Record<string, Method>;
    let result: unknown;
    try {
      result = await area[entry.method]!.call(area, input.data);
    } catch (error) {
      const data = toErrorData(error, entry.channel);
      return reply.code(data.kind === 'internal' ? 500 : 200).send({ ok: false, error: data });
    }
    const output = entry.output.safeParse(result);
    if (!output.success) {
      console.error(
        `[host] ${entry.channel} answered outside its schema: ${describeIssues(output.error)}`,
      );
      return refuse(reply, 500, {
        kind: 'internal',
        message: 'The app produced an answer in an unexpected form. Please try again.',
      });
    }
    return reply.send({ ok: true, value: output.data });
  });
}
