/** A small seeded generator (mulberry32): random moments that a failure's seed replays. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The seed of a run: BATCH_SEED when set (to replay), else from the clock; always printed. */
export function runSeed(): number {
  const given = process.env.BATCH_SEED;
  const seed = given !== undefined ? Number(given) : Date.now() % 2 ** 31;
  return seed;
}
