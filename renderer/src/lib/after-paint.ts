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
