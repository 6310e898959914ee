import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  contentCodings,
  decodeContent,
  UnreadableCoding,
} from '../../../../electron/core/api/content-coding';

const text = Buffer.from(JSON.stringify({ data: { id: 'x', note: 'é'.repeat(50) } }));
const opts = { maxBytes: 1 << 20, partial: false };

describe('content codings', () => {
  it('reads the header in the order the codings were applied, identity and case aside', () => {
    expect(contentCodings(undefined)).toEqual([]);
    expect(contentCodings('identity')).toEqual([]);
    expect(contentCodings('GZIP')).toEqual(['gzip']);
    expect(contentCodings(['deflate', ' br '])).toEqual(['deflate', 'br']);
    expect(contentCodings('gzip, identity, br')).toEqual(['gzip', 'br']);
  });

  it.each([
    ['gzip', gzipSync(text)],
    ['x-gzip', gzipSync(text)],
    ['br', brotliCompressSync(text)],
    ['deflate', deflateSync(text)],
    ['deflate', deflateRawSync(text)],
  ])('undoes %s', async (coding, bytes) => {
    expect(await decodeContent(bytes, [coding], opts)).toEqual(text);
  });

  it('undoes stacked codings, the last applied first', async () => {
    const bytes = brotliCompressSync(gzipSync(text));
    expect(await decodeContent(bytes, ['gzip', 'br'], opts)).toEqual(text);
  });

  it('refuses a coding it does not read, naming it and the ones it reads', async () => {
    const error = await decodeContent(text, ['zstd'], opts).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnreadableCoding);
    expect((error as Error).message).toMatch(/zstd.*gzip, deflate and br/);
  });

  it('stops a small body that unpacks past the cap (no bomb reaches memory)', async () => {
    const bomb = gzipSync(Buffer.alloc(8 << 20));
    expect(bomb.length).toBeLessThan(20_000);
    const error = await decodeContent(bomb, ['gzip'], { maxBytes: 1 << 20, partial: false }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ reason: 'too-large' });
  });

  it('says a body that is not what its coding claims does not unpack', async () => {
    const error = await decodeContent(text, ['gzip'], opts).catch((e: unknown) => e);
    expect(error).toMatchObject({ reason: 'corrupt' });
    expect((error as Error).message).toMatch(/gzip-coded/);
  });

  it('reads an error page cut at its cap as far as it goes', async () => {
    const page = Buffer.from(`<html><body>${'Unknown symbols: FOO. '.repeat(2000)}</body></html>`);
    const cut = gzipSync(page).subarray(0, 400);
    const out = await decodeContent(cut, ['gzip'], { maxBytes: 64 * 1024, partial: true });
    expect(out.length).toBeGreaterThan(0);
    expect(page.toString().startsWith(out.toString())).toBe(true);
  });
});
