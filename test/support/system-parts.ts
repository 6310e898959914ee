import { it } from 'vitest';

/** Under CI=true every system part must be present: a missing one fails instead of skipping. */
export const inCI = process.env.CI === 'true' || process.env.CI === '1';

/**
 * A test that needs a system part (Secret Service, Chromium).
 * Missing on a laptop: skipped with a message. Missing under CI=true: fails with the reason.
 */
export function itNeeds(part: { name: string; available: boolean; why?: string }) {
  if (part.available) return it;
  const reason = `${part.name} is not available${part.why ? `: ${part.why}` : ''}`;
  if (inCI) {
    return (name: string, _fn?: unknown, _timeout?: number) =>
      it(name, () => {
        throw new Error(`CI=true requires ${reason}`);
      });
  }
  console.warn(`skipping tests that need ${reason}`);
  return it.skip;
}
