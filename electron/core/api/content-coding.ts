import {
  brotliDecompress,
  constants,
  gunzip,
  inflate,
  inflateRaw,
  type BrotliOptions,
  type ZlibOptions,
} from 'node:zlib';

/**
 * Content codings of the service's answers (RFC 9110 §8.4). The client asks for the ones it
 * reads (`Accept-Encoding: gzip, deflate, br`), since a proxy in between may compress whatever
 * it is allowed to; an answer in any other coding is refused in plain words rather than read as
 * garbage. Decoding runs on libuv's thread pool, capped like the body itself (a small compressed
 * body can unpack to gigabytes).
 */

/** What the client sends as Accept-Encoding, and says it reads. */
export const ACCEPT_ENCODING = 'gzip, deflate, br';
export const READABLE_CODINGS = 'gzip, deflate and br';

/** At most this many codings stacked on one body (curl and urllib3 stop at 5). */
const MAX_CODINGS = 3;

/** The codings of a Content-Encoding header, in the order they were applied; identity dropped. */
export function contentCodings(header: string | string[] | undefined): string[] {
  if (header === undefined) return [];
  const joined = Array.isArray(header) ? header.join(',') : header;
  return joined
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
}

/** Why a body could not be decoded, in words for the manager's "details". */
export class UnreadableCoding extends Error {
  constructor(
    message: string,
    readonly reason: 'unknown' | 'corrupt' | 'too-large',
  ) {
    super(message);
    this.name = 'UnreadableCoding';
  }
}

type Decoder = (bytes: Buffer, options: ZlibOptions & BrotliOptions) => Promise<Buffer>;

const promised =
  (
    fn: (
      bytes: Buffer,
      options: ZlibOptions & BrotliOptions,
      done: (error: Error | null, out: Buffer) => void,
    ) => void,
  ): Decoder =>
  (bytes, options) =>
    new Promise((resolve, reject) =>
      fn(bytes, options, (e, out) => (e ? reject(e) : resolve(out))),
    );

const gunzipAsync = promised(gunzip);
const inflateAsync = promised(inflate);
const inflateRawAsync = promised(inflateRaw);
const brotliAsync = promised(brotliDecompress);

/** `deflate` is a zlib stream by the RFC; some servers send a bare deflate stream under its name. */
const inflateEither: Decoder = (bytes, options) =>
  inflateAsync(bytes, options).catch((e: unknown) => {
    if ((e as { code?: string }).code === 'Z_DATA_ERROR') return inflateRawAsync(bytes, options);
    throw e;
  });

const DECODERS: Record<string, Decoder> = {
  gzip: gunzipAsync,
  'x-gzip': gunzipAsync,
  deflate: inflateEither,
  br: brotliAsync,
};

/**
 * The body with its codings undone, last applied first. `partial`: an error page cut at its cap
 * is decoded as far as it goes. Rejects with UnreadableCoding.
 */
export async function decodeContent(
  bytes: Buffer,
  codings: readonly string[],
  options: { maxBytes: number; partial: boolean },
): Promise<Buffer> {
  const unknown = codings.filter((c) => !DECODERS[c]);
  if (unknown.length > 0)
    throw new UnreadableCoding(
      `an answer in a coding the app does not read (${unknown.join(', ').slice(0, 60)}); it reads ${READABLE_CODINGS}`,
      'unknown',
    );
  if (codings.length > MAX_CODINGS)
    throw new UnreadableCoding(
      `an answer coded ${codings.length} times over (the app undoes at most ${MAX_CODINGS})`,
      'unknown',
    );
  const zlibOptions: ZlibOptions & BrotliOptions = {
    maxOutputLength: options.maxBytes,
    ...(options.partial && {
      finishFlush: constants.Z_SYNC_FLUSH,
    }),
  };
  let out = bytes;
  for (const coding of [...codings].reverse()) {
    try {
      out = await DECODERS[coding]!(
        out,
        coding === 'br' && options.partial
          ? { maxOutputLength: options.maxBytes, finishFlush: constants.BROTLI_OPERATION_FLUSH }
          : zlibOptions,
      );
    } catch (e) {
      const code = (e as { code?: string }).code;
      if (code === 'ERR_BUFFER_TOO_LARGE')
        throw new UnreadableCoding(
          `an answer larger than ${options.maxBytes} bytes once unpacked`,
          'too-large',
        );
      throw new UnreadableCoding(
        `an answer said to be ${coding}-coded that does not unpack`,
        'corrupt',
      );
    }
  }
  return out;
}
