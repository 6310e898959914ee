import { describe, expect, it } from 'vitest';
import { createLane } from '../../../../renderer/src/bridge/service-lane';

describe('the service lane', () => {
  it('runs at most its width at once, the rest in the order they came, failures included', async () => {
    const run = createLane(2);
    const release: (() => void)[] = [];
    const started: number[] = [];
    const task =
      (i: number, fail = false) =>
      () =>
        new Promise<number>((resolve, reject) => {
          started.push(i);
          release[i] = () => (fail ? reject(new Error(`task ${i}`)) : resolve(i));
        });
    const results = [
      run(task(0)),
      run(task(1, true)).catch((e: Error) => e.message),
      run(task(2)),
      run(task(3)),
    ];
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    release[1]!();
    await expect(results[1]).resolves.toBe('task 1');
    expect(started).toEqual([0, 1, 2]);
    release[0]!();
    await results[0];
    expect(started).toEqual([0, 1, 2, 3]);
    release[2]!();
    release[3]!();
    expect(await Promise.all(results)).toEqual([0, 'task 1', 2, 3]);
  });
});
