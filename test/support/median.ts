/** The middle of the figures (the upper one of the two middles when there is an even count). */
export const median = (xs: readonly number[]): number =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
