import type { Store } from '../store';

/** A claim written and on disk, or written and refused by the disk (nothing may be sent then). */
export interface DurableClaim<Claim> {
  claim: Claim;
  durable: { error: unknown } | null;
}

interface Waiting<Claim> {
  write(): Claim;
  resolve(result: DurableClaim<Claim>): void;
  reject(error: unknown): void;
}

/**
 * Claims made durable in groups (step 2 of execute.ts): nothing leaves before its journal entry
 * survives a power cut, so each claim waits for an fsync of the WAL, done off the event loop.
 * Claims made while an fsync is under way (a batch arms its next items while others are at the
 * service) wait for it, then are written together in one transaction and made durable by one
 * fsync: one commit and one fsync for the group, each claim still checked on its own.
 */
export class DurableClaims<Claim> {
  /** Claims waiting for the fsync under way, written together after it. */
  private waiting: Waiting<Claim>[] = [];
  private writing = false;

  constructor(private readonly store: Pick<Store, 'transaction' | 'durable'>) {}

  /** Writes a claim; resolves once it is on disk (`durable`: null) or the disk refused it. */
  write(write: () => Claim): Promise<DurableClaim<Claim>> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ write, resolve, reject });
      this.writeGroup();
    });
  }

  private writeGroup(): void {
    if (this.writing || this.waiting.length === 0) return;
    const group = this.waiting.splice(0);
    let claims: Claim[];
    try {
      claims = this.store.transaction(() => group.map((c) => c.write()));
    } catch (error) {
      for (const c of group) c.reject(error);
      this.writeGroup();
      return;
    }
    this.writing = true;
    void this.store
      .durable()
      .then(
        () => null,
        (error: unknown) => ({ error }),
      )
      .then((durable) => {
        this.writing = false;
        group.forEach((c, i) => c.resolve({ claim: claims[i]!, durable }));
        this.writeGroup();
      });
  }
}
