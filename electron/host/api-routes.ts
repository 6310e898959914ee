import type { FastifyInstance } from 'fastify';
import { listChannels, type DeskHandlers } from '../../shared/contract';
import { isKind } from '../../shared/errors';
import { dispatchCall } from '../transport/dispatch';
import { refuse } from './security';

/**
 * `POST /api/<area>.<method>`: the contract's channels, dispatched exactly as the desktop
 * shell's IPC dispatches them; only the HTTP status is the host's own.
 */
export function registerApiRoutes(
  app: FastifyInstance,
  handlers: DeskHandlers,
  log: (line: string) => void,
): void {
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
    const result = await dispatchCall(handlers, entry, request.body, log);
    if (result.ok) return reply.send(result);
    const status = isKind(result.error, 'invalid-input')
      ? 400
      : isKind(result.error, 'internal')
        ? 500
        : 200;
    return reply.code(status).send(result);
  });
}
