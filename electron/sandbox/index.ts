import type { AddressInfo } from 'node:net';
import { nowIso } from './clock';
import { SandboxContext } from './context';
import { loadStateFile, StateSaver, toStateFile, writeStateFile } from './persistence';
import { buildServer } from './server';

/** The built-in sandbox service: the whole service interface on 127.0.0.1. */

export interface SandboxOptions {
  /** 0 = a free port (the default). */
  port?: number;
  /** Time per rebalance step in ms (default 1000; 0 still walks every status). */
  stepMs?: number;
  logger?: boolean;
  /**
   * A JSON file that keeps the sandbox's state across restarts (the embedded
   * sandbox of the app). Loaded when present; saved after each change
   * (debounced) and on close. Without it the sandbox starts from the demo data.
   */
  statePath?: string;
  /** Told when the state file is unreadable (it is set aside) or cannot be saved. Default: a warning. */
  onStateProblem?: (message: string) => void;
}

export interface RunningSandbox {
  /** e.g. http://127.0.0.1:41234 */
  baseUrl: string;
  port: number;
  close(): Promise<void>;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const ctx = new SandboxContext(options.stepMs ?? 1000);
  const saver = options.statePath ? persist(ctx, options.statePath, options) : null;
  const app = buildServer(ctx, { logger: options.logger ?? false });
  try {
    await app.listen({ host: '127.0.0.1', port: options.port ?? 0 });
  } catch (error) {
    ctx.stopTimers();
    await app.close();
    saver?.flush();
    throw error;
  }
  const { port } = app.server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    port,
    close() {
      closing ??= (async () => {
        ctx.stopTimers();
        await app.close();
        ctx.stopTimers();
        // The last word: what the requests that just finished changed.
        saver?.flush();
      })();
      return closing;
    },
  };
}

/** Restores the saved state (or sets a corrupt file aside) and saves after every change. */
function persist(ctx: SandboxContext, path: string, options: SandboxOptions): StateSaver {
  const report =
    options.onStateProblem ?? ((message: string) => process.emitWarning(message, 'SandboxState'));
  const loaded = loadStateFile(path);
  if (loaded.kind === 'loaded') ctx.restore(loaded.snapshot);
  if (loaded.kind === 'corrupt') {
    report(
      `The sandbox state file ${path} could not be read (${loaded.reason}); ` +
        (loaded.setAsidePath
          ? `it was set aside as ${loaded.setAsidePath}`
          : 'it could not be set aside') +
        ' and the sandbox starts from the demo data.',
    );
  }
  const saver = new StateSaver(
    () => writeStateFile(path, toStateFile(ctx.snapshot(), nowIso())),
    (error) => report(`The sandbox state could not be saved to ${path}: ${error.message}`),
  );
  ctx.onChange = () => saver.changed();
  return saver;
}

export { DEMO_CLIENTS, DEMO_ORGANIZATIONS, DEMO_STRATEGY_IDS, DEMO_VERSION_IDS } from './demo-data';
export { HALTED_SYMBOL, PRICES } from './prices';
export { DEMO_BOOK_STRATEGY_IDS, DEMO_BOOK_THEMES, DEMO_BOOK_VERSION_IDS } from './demo-book';
export { DEMO_MODEL, HALTED_INCOME } from './demo-model';
export { MAX_BULK_STRATEGIES } from './bulk-strategies';
