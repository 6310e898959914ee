import { describe, expect, it } from 'vitest';
import { RequestBudget } from '../../../../electron/core/api/budget';
import { Run, StoppedBeforeSending } from '../../../../electron/core/batches/send-run';

/** Lets every pending promise callback run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

/** A run over a budget of its own (the profile's, in the app). */
const runOf = (limit: number, budget = new RequestBudget()) => new Run(limit, budget);

describe('a batch’s run: its turns to send', () => {
  it('lets at most the limit through at once, first sends in the items’ order', async () => {
    const run = runOf(2);
    const order: number[] = [];
    // Asked for out of order: 3 and 1 wait for the ones before them.
    for (const index of [3, 1, 0, 2]) void run.takeTurn(index).then(() => order.push(index));
    await settle();
    expect(order).toEqual([0, 1]);
    run.giveBack(1);
    await settle();
    expect(order).toEqual([0, 1, 2]);
    run.giveBack(1); // a second give-back changes nothing
    await settle();
    expect(order).toEqual([0, 1, 2]);
    run.giveBack(0);
    await settle();
    expect(order).toEqual([0, 1, 2, 3]);
  });

  it('an item done without its turn lets the next one go; a second take only waits for a slot', async () => {
    const run = runOf(1);
    const order: string[] = [];
    await run.takeTurn(0);
    void run.takeTurn(2).then(() => order.push('2'));
    run.itemDone(1);
    await settle();
    expect(order).toEqual([]);
    run.giveBack(0);
    await settle();
    expect(order).toEqual(['2']);
    // Index 0 sends again (after a 429): it waits for the slot 2 holds, not for its turn.
    void run.takeTurn(0).then(() => order.push('0 again'));
    await settle();
    expect(order).toEqual(['2']);
    run.itemDone(2);
    await settle();
    expect(order).toEqual(['2', '0 again']);
  });

  it('once halted, every waiting take fails in the stop’s words, nothing sent', async () => {
    const run = runOf(1);
    await run.takeTurn(0);
    const waiting = [run.takeTurn(1), run.takeTurn(2)];
    run.halt({ state: 'cancelled', reason: 'Cancelled.' });
    for (const take of waiting) await expect(take).rejects.toThrow(StoppedBeforeSending);
  });

  it('takes no turn while the profile’s budget holds a 429’s pause; a halt ends the wait at once', async () => {
    const budget = new RequestBudget();
    const run = runOf(2, budget);
    budget.pause(60_000);
    expect(run.pausedUntil).toEqual(budget.waitingUntil);
    let taken = false;
    const take = run.takeTurn(0).then(() => (taken = true));
    await settle();
    expect(taken).toBe(false);
    run.halt({ state: 'cancelled', reason: 'Cancelled.' });
    await expect(take).rejects.toThrow('Cancelled.');
    // The turn it held while waiting went back: another run's limit is whole again.
    await settle();
    budget.close();
  });

  it('takes its turn once the pause is over', async () => {
    const budget = new RequestBudget();
    const run = runOf(1, budget);
    budget.pause(30);
    const started = Date.now();
    await run.takeTurn(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
    expect(run.pausedUntil).toBeNull();
  });
});
