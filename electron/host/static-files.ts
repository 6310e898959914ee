import { createReadStream } from 'node:fs';
import { readFile, realpath, stat } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { contentTypeFor } from '../transport/assets';
import { withHints } from './first-screen';

/**
 * Resolves a URL path to a file inside root, or null: no traversal (also through symlinks), no
 * hidden files, no directory listing; `/` is index.html.
 */
export async function resolveStaticFile(root: string, urlPath: string): Promise<string | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const parts = decoded.split('/').filter((p) => p !== '');
  if (parts.some((p) => p === '..' || p.startsWith('.'))) return null;
  const relative = parts.length === 0 ? 'index.html' : parts.join('/');
  const candidate = resolve(root, relative);
  if (!candidate.startsWith(root + sep)) return null;
  try {
    const real = await realpath(candidate);
    if (!real.startsWith(root + sep)) return null;
    const info = await stat(real);
    return info.isFile() ? real : null;
  } catch {
    return null;
  }
}

/**
 * `hints`, asked each time index.html is served: `<link>`s for what the first screen will need
 * (the book's chunk when the data folder has a profile), put into its head.
 */
export async function registerStaticFiles(
  app: FastifyInstance,
  staticDir: string,
  hints: () => Promise<string> = async () => '',
): Promise<void> {
  const root = await realpath(resolve(staticDir));
  app.get('/*', { config: { access: 'public-asset' } }, async (request, reply) => {
    const urlPath = request.url.split('?')[0] ?? '/';
    const file = await resolveStaticFile(root, urlPath);
    if (!file) return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
    const type = contentTypeFor(file);
    // Hashed assets never change; index.html must always be fresh after a rebuild.
    if (file === join(root, 'index.html')) {
      const tags = await hints();
      const html = withHints(await readFile(file, 'utf8'), tags);
      return reply.type(type).header('Cache-Control', 'no-cache').send(html);
    }
    const cache = file.endsWith(`${sep}index.html`)
      ? 'no-cache'
      : 'public, max-age=31536000, immutable';
    return reply.type(type).header('Cache-Control', cache).send(createReadStream(file));
  });
}
