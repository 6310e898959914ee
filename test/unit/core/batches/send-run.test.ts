import { describe, expect, it } from 'vitest';
import { SendTurns } from '../../../../electron/core/batches/send-turns';

/** Lets every pending promise callback run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('a batch’s turns to send', () => {
  it('lets at most the limit through at once, first sends in the items’ order', async () => {
    const turns = new SendTurns(2);
    const order: number[] = [];
    const releases = new Map<number, () => void>();
    // Asked for out of order: 3 and 1 wait for the ones before them.
    for (const index of [3, 1, 0, 2])
      void turns.take(index).then((release) => {
        order.push(index);
        releases.set(index, release);
      });
    await settle();
    expect(order).toEqual([0, 1]);
    releases.get(1)!();
    await settle();
    expect(order).toEqual([0, 1, 2]);
    releases.get(1)!(); // a second release changes nothing
    await settle();
    expect(order).toEqual([0, 1, 2]);
    releases.get(0)!();
    await settle();
    expect(order).toEqual([0, 1, 2, 3]);
  });

  it('an item that passes lets the next one go; a second take only waits for a slot', async () => {
    const turns = new SendTurns(1);
    const order: string[] = [];
    const first = await turns.take(0);
    void turns.take(2).then(() => order.push('2'));
    turns.pass(1);
    await settle();
    expect(order).toEqual([]);
    first();
    await settle();
    expect(order).toEqual(['2']);
    // Index 0 sends again (after a 429's wait): it waits for the slot 2 holds, not for its turn.
    void turns.take(0).then(() => order.push('0 again'));
    await settle();
    expect(order).toEqual(['2']);
  });

  it('once stopped, every waiting take resolves at once', async () => {
    const turns = new SendTurns(1);
    await turns.take(0);
    const waiting = [turns.take(1), turns.take(2)];
    turns.stop();
    await expect(Promise.all(waiting)).resolves.toHaveLength(2);
  });
});
