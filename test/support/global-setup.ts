import { ensureRendererBuilt } from '../../electron/host/build-renderer';

/**
 * Builds the renderer once before any test file runs: suites in parallel workers
 * (and the host processes some of them start) then find it fresh, and never
 * rebuild dist/renderer underneath each other.
 */
export default async function setup(): Promise<void> {
  await ensureRendererBuilt();
}
