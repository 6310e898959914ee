/**
 * Long work on the main process, run a slice at a time: the work is a generator that yields
 * where a slice ends, and the event loop takes a turn there, so every other call of the desk (an
 * execute's answer, a batch in flight) waits one slice at most. The one way the core slices work.
 */
export async function runInSlices<T>(work: Generator<void, T>): Promise<T> {
  for (;;) {
    const step = work.next();
    if (step.done) return step.value;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}
