import { afterEach, describe, expect, it, vi } from 'vitest';
import { bookComesFirst } from '../../../../renderer/src/lib/screens';
import { memoryStorage } from '../fake-api';

/** A page's head as the browser host serves it: with the first screen's `<meta>`, or without. */
function pageHead(firstScreen: string | null) {
  return {
    querySelector: (selector: string) =>
      firstScreen !== null &&
      selector === `meta[name="strategy-desk-first-screen"][content="${firstScreen}"]`
        ? {}
        : null,
  };
}

afterEach(() => vi.unstubAllGlobals());

describe('whether the first screen is a book, before the profiles are read', () => {
  it("is when the page's head says so (a data folder with a profile)", () => {
    vi.stubGlobal('localStorage', memoryStorage());
    vi.stubGlobal('document', pageHead('book'));
    expect(bookComesFirst()).toBe(true);
  });

  it('is when a profile was open when the app last closed', () => {
    const storage = memoryStorage();
    storage.setItem('strategy-desk.profile', '3f1e8a56-0a8e-4c3c-9a57-6d0b7f1f4a10');
    vi.stubGlobal('localStorage', storage);
    vi.stubGlobal('document', pageHead(null));
    expect(bookComesFirst()).toBe(true);
  });

  it('is not otherwise (the welcome screen loads no book)', () => {
    vi.stubGlobal('localStorage', memoryStorage());
    vi.stubGlobal('document', pageHead(null));
    expect(bookComesFirst()).toBe(false);
  });
});
