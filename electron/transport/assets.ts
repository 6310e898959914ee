import { readFile, realpath, stat } from 'node:fs/promises';
import { extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { APP_HOST, APP_SCHEME } from './app-identity';
import { CONTENT_SECURITY_POLICY } from './content-policy';

/** What the custom protocol answers for one request. */
export interface AssetAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer | string;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

export const ASSET_HEADERS = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cache-Control': 'no-cache',
} as const;

export type AssetPath = { ok: true; path: string } | { ok: false; status: 400 | 403 | 404 };

/**
 * Maps `app://desk/<path>` to a file under rootDir, refusing anything that could leave it:
 * another host, encoded or literal `..`, backslashes, NUL bytes, absolute paths.
 */
export function resolveAssetPath(rootDir: string, rawUrl: string): AssetPath {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return { ok: false, status: 400 };
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return { ok: false, status: 403 };
  let pathname: string;
  try {
    pathname = decodeURIComponent(url.pathname);
  } catch {
    return { ok: false, status: 400 };
  }
  if (pathname.includes('\0') || pathname.includes('\\')) return { ok: false, status: 400 };
  const segments = pathname.split('/').filter((s) => s !== '');
  if (segments.some((s) => s === '..' || s === '.')) return { ok: false, status: 403 };
  const relativePath = segments.length === 0 ? 'index.html' : segments.join('/');
  const root = resolve(rootDir);
  const full = resolve(join(root, relativePath));
  if (!isInside(root, full)) return { ok: false, status: 403 };
  return { ok: true, path: full };
}

export function contentTypeFor(path: string): string {
  return CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

/** Reads the asset for a GET of the custom protocol; symlinks out of rootDir are refused too. */
export async function answerAssetRequest(
  rootDir: string,
  method: string,
  rawUrl: string,
): Promise<AssetAnswer> {
  const plain = (status: number, text: string): AssetAnswer => ({
    status,
    headers: { ...ASSET_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' },
    body: text,
  });
  if (method !== 'GET' && method !== 'HEAD') return plain(405, 'Method not allowed');
  const resolved = resolveAssetPath(rootDir, rawUrl);
  if (!resolved.ok)
    return plain(resolved.status, resolved.status === 404 ? 'Not found' : 'Refused');
  try {
    const [root, real] = await Promise.all([realpath(rootDir), realpath(resolved.path)]);
    if (!isInside(root, real) || !(await stat(real)).isFile()) return plain(404, 'Not found');
    const body = await readFile(real);
    return {
      status: 200,
      headers: { ...ASSET_HEADERS, 'Content-Type': contentTypeFor(real) },
      body: method === 'HEAD' ? '' : body,
    };
  } catch {
    return plain(404, 'Not found');
  }
}

function isInside(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}
