/**
 * Resolves once the page has drawn what it holds now: after the next frame (where there are
 * frames: not in a unit test's plain runtime, where it is the next turn).
 */
export function afterPaint(): Promise<void> {
  return new Promise((resolve) => {
    const later = () => setTimeout(resolve, 0);
    if (typeof requestAnimationFrame === 'function') requestAnimationFrame(later);
    else later();
  });
}

/**
 * Resolves once the page has nothing more urgent to do (input, a frame, a task already queued),
 * or after `atMostMs` in any case.
 */
export function whenIdle(atMostMs: number): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestIdleCallback === 'function')
      requestIdleCallback(() => resolve(), { timeout: atMostMs });
    else setTimeout(resolve, 0);
  });
}
