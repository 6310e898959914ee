import { readFileSync } from 'node:fs';
import { uptime } from 'node:os';

/**
 * Whether the computer restarted since the app last ran on this data folder. A commit SQLite
 * made without its fsync (a batch's execution marked sent at its turn) survives a crash of the
 * app, which leaves it in the operating system's cache, but not a power cut or a crash of the
 * system, which always restart the computer: so a pending entry found at start-up was not sent
 * unless the computer restarted since (execute.ts, `reconcileAtStartup`).
 *
 * The start is Linux's boot id where there is one, else the time the computer started to the
 * second (now less uptime), compared loosely: a clock set since shifts it a little, and any
 * doubt reads as a restart, the answer that never says "not sent" of what may have left.
 */

const SETTING = 'computer-start';
/** How far two readings of the same start may drift apart (a clock set, rounding). */
const SAME_START_SECONDS = 5;

export interface StartSettings {
  get(key: string): string | null;
  set(key: string, value: string): void;
}

/** This computer's current start. */
export function computerStart(): string {
  const id = linuxBootId();
  return id !== null ? `id:${id}` : `at:${Math.round(Date.now() / 1000 - uptime())}`;
}

export function sameStart(before: string | null, now: string): boolean {
  if (before === null) return false;
  if (before.startsWith('at:') && now.startsWith('at:')) {
    const drift = Math.abs(Number(before.slice(3)) - Number(now.slice(3)));
    return Number.isFinite(drift) && drift <= SAME_START_SECONDS;
  }
  return before === now;
}

/**
 * Compares the start the last run wrote with this one, then writes this one (on disk with the
 * next fsync, so before any execution of this run is: a lost write reads as a restart).
 */
export function computerRestartedSince(settings: StartSettings, now = computerStart()): boolean {
  const restarted = !sameStart(settings.get(SETTING), now);
  settings.set(SETTING, now);
  return restarted;
}

function linuxBootId(): string | null {
  if (process.platform !== 'linux') return null;
  try {
    const id = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    return /^[0-9a-f-]{36}$/.test(id) ? id : null;
  } catch {
    // No procfs (a sandbox): the uptime reading serves.
    return null;
  }
}
