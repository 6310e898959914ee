import type { FastifyInstance } from 'fastify';
import type { DeskEvent } from '../../shared/contract';
import { Throttle } from '../../shared/throttle';
import { validEvent } from '../transport/dispatch';

export type Subscribe = (listener: (event: DeskEvent) => void) => () => void;

const KEEP_ALIVE_MS = 15_000;
/**
 * Events told within one frame go out in one write, in their order: a big batch tells thousands
 * (each item's moves, its journal entry, its activity), and the page takes each network chunk as
 * a task of its own, which a frame's worth of them gathered spares.
 */
const GATHER_MS = 16;

/**
 * `GET /api/events`: the push channel as Server-Sent Events. The bridge reads it with fetch so
 * the token travels in the Authorization header, never in a URL.
 */
export function registerEventRoute(
  app: FastifyInstance,
  subscribe: Subscribe,
  streams: Set<() => void>,
  log: (line: string) => void,
): void {
  app.get('/api/events', (request, reply) => {
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      ...(reply.getHeaders() as Record<string, string>),
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    res.write(': connected\n\n');

    let gathered: string[] = [];
    const flush = new Throttle(GATHER_MS, () => {
      const text = gathered.join('');
      gathered = [];
      if (!res.writableEnded) res.write(text);
    });
    const unsubscribe = subscribe((event) => {
      // The same check as the desktop app's (ipc.ts): the contract's event schema.
      const valid = validEvent(event);
      if (!valid) {
        log(`dropped an event outside its schema (type ${String(event?.type)})`);
        return;
      }
      gathered.push(`event: desk\ndata: ${JSON.stringify(valid)}\n\n`);
      flush.soon();
    });
    const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
    keepAlive.unref();

    const end = () => {
      clearInterval(keepAlive);
      flush.cancel();
      unsubscribe();
      streams.delete(end);
      if (!res.writableEnded) res.end();
    };
    streams.add(end);
    request.raw.on('close', end);
    res.on('error', end);
  });
}
