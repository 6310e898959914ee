import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import pino, { type Logger } from 'pino';
import pinoRoll from 'pino-roll';
import { makePrivate } from '../files/permissions';
import { redactDeep } from './redact';

/** Where the log lives in the data folder, and how much of it is kept. */
export const LOG_FOLDER = 'logs';
export const LOG_BASE_NAME = 'strategy-desk';
export const LOG_FILE_SIZE = '5m';
/** Rotated files kept besides the current one. */
export const LOG_FILES_KEPT = 4;

export type LogFields = Record<string, unknown>;

/**
 * The app's own log: what went wrong inside it, for whoever helps the manager afterwards.
 * Lines are written in the order they were logged; every secret the desk knows is redacted first.
 */
export interface DeskLog {
  /** The folder holding the log files (`<data folder>/logs`). */
  readonly folder: string;
  error(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  /** Resolves once every line logged so far is on disk. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

export interface OpenLogOptions {
  /** The secrets to redact (every profile's client secret, every live token). */
  knownSecrets: () => Promise<readonly string[]>;
  /** Rotate at this size (pino-roll syntax: '5m', '1k'). */
  size?: string;
  filesKept?: number;
}

/** Fields that hold a secret by their very name: censored whatever their value. */
const SECRET_FIELDS = ['secret', 'clientSecret', 'client_secret', 'token', 'authorization'];

export async function openLog(dataDir: string, options: OpenLogOptions): Promise<DeskLog> {
  const folder = join(dataDir, LOG_FOLDER);
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const stream = await pinoRoll({
    file: join(folder, LOG_BASE_NAME),
    extension: '.log',
    size: options.size ?? LOG_FILE_SIZE,
    limit: { count: options.filesKept ?? LOG_FILES_KEPT },
    mode: 0o600,
    // A line logged just before a crash must be on disk: errors are rare, so write them at once.
    sync: true,
  });
  const logger: Logger = pino(
    {
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: {
        paths: SECRET_FIELDS.flatMap((f) => [f, `*.${f}`]),
        censor: '[redacted]',
      },
    },
    stream,
  );
  // sonic-boom keeps the path it writes to; its types do not name it.
  const currentFile = () => (stream as unknown as { file: string }).file;
  // Rotation made a new file: it is made private like the rest of the data folder.
  stream.on('ready', () => makePrivate(currentFile()));
  makePrivate(currentFile());

  // Secrets are read asynchronously (the keychain); a queue keeps the lines in logging order.
  let queue: Promise<void> = Promise.resolve();
  let closed = false;
  const write = (level: 'error' | 'warn' | 'info', message: string, fields: LogFields = {}) => {
    if (closed) return;
    queue = queue
      .then(async () => {
        const secrets = await options.knownSecrets().catch(() => []);
        const entry = redactDeep({ message, fields }, secrets);
        logger[level](entry.fields, entry.message);
      })
      .catch(() => undefined);
  };
  return {
    folder,
    error: (message, fields) => write('error', message, fields),
    warn: (message, fields) => write('warn', message, fields),
    info: (message, fields) => write('info', message, fields),
    flush: () => queue,
    async close() {
      if (closed) return;
      await queue;
      closed = true;
      await new Promise<void>((resolve) => {
        stream.once('close', () => resolve());
        stream.end();
      });
    },
  };
}

/** An error as log fields: its name, message and stack (never the input of the call). */
export function errorFields(error: unknown): LogFields {
  if (error instanceof Error) {
    return { error: { name: error.name, message: error.message, stack: error.stack ?? null } };
  }
  return { error: { message: String(error) } };
}
