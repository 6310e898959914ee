import { ensureRendererBuilt } from '../../electron/host/build-renderer';
import { findChromium, realSystem } from './chromium-finder';

/**
 * Builds the renderer once before any test file runs: suites in parallel workers
 * (and the host processes some of them start) then find it fresh, and never
 * rebuild dist/renderer underneath each other.
 */
export default async function setup(): Promise<void> {
  await ensureRendererBuilt();
  // Said once per run: which Chromium the e2e tests drive, and how it was found.
  const chromium = findChromium(realSystem());
  console.info(
    chromium.found
      ? `e2e: Chromium ${chromium.path} (from ${chromium.source})`
      : `e2e: ${chromium.why}`,
  );
}
