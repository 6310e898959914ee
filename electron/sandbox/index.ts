import type { AddressInfo } from 'node:net';
import { SandboxContext } from './context';
import { buildServer } from './server';

/** The built-in sandbox service: the whole service interface on 127.0.0.1. */

export interface SandboxOptions {
  /** 0 = a free port (the default). */
  port?: number;
  /** Time per rebalance step in ms (default 1000; 0 still walks every status). */
  stepMs?: number;
  logger?: boolean;
}

export interface RunningSandbox {
  /** e.g. http://127.0.0.1:41234 */
  baseUrl: string;
  port: number;
  close(): Promise<void>;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const ctx = new SandboxContext(options.stepMs ?? 1000);
  const app = buildServer(ctx, { logger: options.logger ?? false });
  try {
    await app.listen({ host: '127.0.0.1', port: options.port ?? 0 });
  } catch (error) {
    ctx.stopTimers();
    await app.close();
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
      })();
      return closing;
    },
  };
}

export { DEMO_CLIENTS, DEMO_ORGANIZATIONS, DEMO_STRATEGY_IDS, DEMO_VERSION_IDS } from './demo-data';
export { HALTED_SYMBOL, PRICES } from './prices';
