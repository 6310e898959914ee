/**
 * Streams an order report to disk. Rows are formatted into ~1 MiB chunks; each chunk is handed to
 * the file while the next one is formatted (one write in flight at a time, which is the
 * backpressure). Everything goes to a temporary file in the destination folder that is renamed
 * into place only once complete, so a failed or cancelled export never leaves a partial report
 * under the chosen name. A killed process does leave that hidden file (`.<name>.<12 hex>.partial`):
 * it is named to `partial` before it exists and until it is gone, so the next start removes it
 * (leftovers.ts).
 *
 * Encoding: UTF-8 without a byte-order mark by default, the form RFC 4180 tools and most programs
 * expect. Older Excel versions need a BOM to detect UTF-8 (accents, CJK names): pass `bom: true`.
 *
 * No fsync before the rename: a report can be exported again, and flushing hundreds of megabytes
 * to disk would make every export wait on the disk for no gain in correctness.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { OrderReportFileError, type OrderReportRow } from './columns';
import { ORDER_REPORT_HEADER, formatOrderReportRow } from './format';

export interface WriteOrderReportOptions {
  /** Called with the number of rows on disk so far, at most once per PROGRESS_EVERY_ROWS rows and once at the end. */
  onProgress?: (rowsWritten: number) => void;
  /** Cancels the export; the temporary file is removed and the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Starts the file with a UTF-8 byte-order mark, for Excel users. Off by default. */
  bom?: boolean;
  /** The file's first line(s), CRLF included: the order report's header unless given. */
  header?: string;
  /** Told of the temporary file before it is created, and once it is gone (renamed or removed). */
  partial?: PartialFiles;
}

/** Where the app keeps the temporary files of exports under way (the desk: its database). */
export interface PartialFiles {
  begin(path: string): void;
  end(path: string): void;
}

/** The name of an export's temporary file: `.<final name>.<12 hex digits>.partial`. */
export const PARTIAL_EXPORT_NAME = /^\..+\.[0-9a-f]{12}\.partial$/;

export interface OrderReportWritten {
  rows: number;
  bytes: number;
  path: string;
}

/** Bytes per chunk handed to the file. */
export const CHUNK_BYTES = 1 << 20;
/** Room past a chunk's end so that a line of up to ~20,000 characters fits without an early flush. */
const HEADROOM_BYTES = 1 << 16;
export const PROGRESS_EVERY_ROWS = 10_000;

const UTF8_BOM = '\uFEFF';

export function writeOrderReport(
  rows: Iterable<OrderReportRow> | AsyncIterable<OrderReportRow>,
  path: string,
  options: WriteOrderReportOptions = {},
): Promise<OrderReportWritten> {
  return writeReport({ kind: 'rows', rows }, path, options);
}

/**
 * Writes lines prepared by OrderReportLines (the store's fast path): a line starting with a
 * NUL is a formatted CSV line after that NUL; any other is an order's joined cells, written as is
 * with each NUL turned into a comma.
 */
export function writeOrderReportLines(
  lines: Iterable<string>,
  path: string,
  options: WriteOrderReportOptions = {},
): Promise<OrderReportWritten> {
  return writeReport({ kind: 'lines', lines }, path, options);
}

type ReportSource =
  | { kind: 'rows'; rows: Iterable<OrderReportRow> | AsyncIterable<OrderReportRow> }
  | { kind: 'lines'; lines: Iterable<string> };

const NUL = 0;
const COMMA = 0x2c;

async function writeReport(
  source: ReportSource,
  path: string,
  options: WriteOrderReportOptions,
): Promise<OrderReportWritten> {
  const { signal, header = ORDER_REPORT_HEADER, partial } = options;
  signal?.throwIfAborted();
  const finalPath = resolve(path);
  const tempPath = join(
    dirname(finalPath),
    `.${basename(finalPath)}.${randomBytes(6).toString('hex')}.partial`,
  );

  partial?.begin(tempPath);
  try {
    return await writeThrough(source, tempPath, finalPath, options, header);
  } finally {
    // Forgotten only once it is gone: one that could not be removed is left for the next start.
    if (!existsSync(tempPath)) partial?.end(tempPath);
  }
}

async function writeThrough(
  source: ReportSource,
  tempPath: string,
  finalPath: string,
  { onProgress, signal, bom = false }: WriteOrderReportOptions,
  header: string,
): Promise<OrderReportWritten> {
  let handle: FileHandle;
  try {
    // Orders are the manager's business: readable by their account only, wherever saved.
    handle = await open(tempPath, 'wx', 0o600);
  } catch (error) {
    throw fileError(error, finalPath, 'create');
  }

  // Two buffers: one being written to the file while the other is filled.
  let filling = Buffer.allocUnsafe(CHUNK_BYTES + HEADROOM_BYTES);
  let spare = Buffer.allocUnsafe(CHUNK_BYTES + HEADROOM_BYTES);
  let used = filling.write((bom ? UTF8_BOM : '') + header, 0);
  let formatted = 0; // rows formatted so far
  let queued = 0; // rows in chunks handed to the file
  let written = 0; // rows whose chunk the file has accepted
  let reported = 0;
  let bytes = 0;
  let inFlight: Promise<void> | undefined;

  const settle = async (): Promise<void> => {
    if (!inFlight) return;
    await inFlight;
    inFlight = undefined;
    written = queued;
    if (onProgress && written - reported >= PROGRESS_EVERY_ROWS) {
      reported = written;
      onProgress(written);
    }
  };

  // Hands the filled buffer to the file once the previous write is done, then fills the other.
  const flush = async (): Promise<void> => {
    await settle();
    signal?.throwIfAborted();
    if (used === 0) return;
    const chunk = filling.subarray(0, used);
    [filling, spare] = [spare, filling];
    used = 0;
    bytes += chunk.length;
    queued = formatted;
    inFlight = writeAll(handle, chunk);
    inFlight.catch(() => undefined); // awaited by the next settle; no unhandled rejection meanwhile
  };

  // Encodes each line straight into the buffer: short-lived strings keep the garbage collector
  // idle, and lines without CJK text take V8's fast one-byte path (a whole chunk joined as one
  // string would not). A line can take up to 3 bytes per UTF-16 unit.
  const add = async (line: string): Promise<void> => {
    formatted++;
    if (used + line.length * 3 > filling.length) {
      await flush();
      if (line.length * 3 > filling.length) filling = Buffer.allocUnsafe(line.length * 3);
    }
    used += filling.write(line, used);
    if (used >= CHUNK_BYTES) await flush();
  };

  try {
    if (source.kind === 'lines') {
      for (const line of source.lines) {
        if (line.charCodeAt(0) === NUL) {
          await add(line.slice(1));
          continue;
        }
        if (used + line.length * 3 > CHUNK_BYTES) {
          await flush();
          if (line.length * 3 > filling.length) filling = Buffer.allocUnsafe(line.length * 3);
        }
        const start = used;
        used += filling.write(line, used);
        formatted++;
        // The joined cells' separators become commas; a plain line holds no other NUL.
        for (let i = start; i < used; i++) if (filling[i] === NUL) filling[i] = COMMA;
      }
    } else if (isSyncIterable(source.rows)) {
      for (const row of source.rows) {
        const line = formatOrderReportRow(row);
        // Awaiting only when the buffer is full keeps the per-row cost a plain function call.
        if (used + line.length * 3 <= CHUNK_BYTES) {
          used += filling.write(line, used);
          formatted++;
        } else await add(line);
      }
    } else {
      for await (const row of source.rows) await add(formatOrderReportRow(row));
    }
    await flush();
    await settle();
    await handle.close();
    signal?.throwIfAborted();
  } catch (error) {
    await inFlight?.catch(() => undefined);
    await handle.close().catch(() => undefined); // already closed on the last step: harmless
    await rm(tempPath, { force: true }).catch(() => undefined);
    throw isFsError(error) ? fileError(error, finalPath, 'write') : error;
  }

  try {
    await rename(tempPath, finalPath);
  } catch (error) {
    await rm(tempPath, { force: true }).catch(() => undefined);
    throw fileError(error, finalPath, 'replace');
  }
  if (onProgress && written !== reported) onProgress(written);
  return { rows: formatted, bytes, path: finalPath };
}

async function writeAll(handle: FileHandle, buffer: Buffer): Promise<void> {
  let offset = 0;
  while (offset < buffer.length) {
    const { bytesWritten } = await handle.write(buffer, offset, buffer.length - offset);
    offset += bytesWritten;
  }
}

function isSyncIterable<T>(rows: Iterable<T> | AsyncIterable<T>): rows is Iterable<T> {
  return typeof (rows as Iterable<T>)[Symbol.iterator] === 'function';
}

function isFsError(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).syscall === 'string';
}

function fileError(error: unknown, path: string, step: 'create' | 'write' | 'replace'): Error {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const folder = dirname(path);
  let message: string;
  switch (code) {
    case 'ENOENT':
    case 'ENOTDIR':
      message = `The folder ${folder} does not exist; choose another place for the report.`;
      break;
    case 'EACCES':
    case 'EPERM':
    case 'EBUSY':
      message =
        step === 'replace'
          ? `Could not replace ${path}: it may be open in another program (close it and try again), or you may not be allowed to change it.`
          : `You are not allowed to save files in ${folder}; choose another folder.`;
      break;
    case 'EROFS':
      message = `The folder ${folder} is read-only; choose another folder.`;
      break;
    case 'ENOSPC':
    case 'EDQUOT':
      message = `The disk holding ${folder} is full; the report was not saved.`;
      break;
    case 'EISDIR':
      message = `${path} is a folder; choose a file name for the report.`;
      break;
    default:
      message = `Could not save the report to ${path}: ${(error as Error)?.message ?? String(error)}`;
  }
  return new OrderReportFileError(message, path, code, { cause: error });
}
