import type { Client, ClientConfig } from 'pg';

/** What the `desk_team` channel announced (001-team.ts, team.announce). */
export interface TeamNotice {
  topic: 'submission' | 'model' | 'assignment' | 'entry';
  key: string | null;
}

export interface ListenBackoff {
  firstMs: number;
  maxMs: number;
}

export const LISTEN_BACKOFF: ListenBackoff = { firstMs: 250, maxMs: 15_000 };

/**
 * LISTEN `desk_team` on a client of its own (a pooled client is handed to other work between
 * queries, and a LISTEN lives as long as its session). Lost (the server restarted, the network
 * dropped), it connects again by itself after a wait that doubles up to `maxMs`, and says so
 * (`onState`), so what was announced meanwhile is read again by whoever shows it. No polling:
 * between notices nothing is asked.
 */
export class TeamListener {
  private client: Client | null = null;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private failures = 0;

  constructor(
    private readonly config: () => Promise<ClientConfig>,
    private readonly onNotice: (notice: TeamNotice) => void,
    private readonly onState: (connected: boolean, problem: unknown) => void,
    private readonly backoff: ListenBackoff = LISTEN_BACKOFF,
  ) {}

  start(): void {
    void this.connect();
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const { Client } = await import('pg');
    let client: Client | null = null;
    try {
      client = new Client(await this.config());
      // A lost session ends here once: the next attempt is scheduled by `lost`.
      client.on('error', (error) => this.lost(client!, error));
      client.on('end', () =>
        this.lost(client!, new Error('The connection to the team store ended.')),
      );
      client.on('notification', (message) => {
        if (message.channel !== 'desk_team') return;
        const notice = parseNotice(message.payload);
        if (notice) this.onNotice(notice);
      });
      await client.connect();
      await client.query('LISTEN desk_team');
      if (this.stopped) {
        await client.end().catch(() => undefined);
        return;
      }
      this.client = client;
      this.failures = 0;
      this.onState(true, null);
    } catch (error) {
      if (client) this.lost(client, error);
      else this.retry(error);
    }
  }

  private lost(client: Client, error: unknown): void {
    if (client === this.client) this.client = null;
    else if (this.client !== null) return;
    client.removeAllListeners();
    // A client that failed is closed; its end event no longer counts.
    client.on('error', () => undefined);
    void client.end().catch(() => undefined);
    this.retry(error);
  }

  private retry(error: unknown): void {
    if (this.stopped || this.timer !== null) return;
    this.onState(false, error);
    const wait = Math.min(this.backoff.maxMs, this.backoff.firstMs * 2 ** this.failures);
    this.failures += 1;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.connect();
    }, wait);
    this.timer.unref?.();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const client = this.client;
    this.client = null;
    if (client) {
      client.removeAllListeners();
      client.on('error', () => undefined);
      await client.end().catch(() => undefined);
    }
  }
}

const TOPICS = new Set(['submission', 'model', 'assignment', 'entry']);

function parseNotice(payload: string | undefined): TeamNotice | null {
  try {
    const parsed = JSON.parse(payload ?? '') as { topic?: unknown; key?: unknown };
    if (typeof parsed.topic !== 'string' || !TOPICS.has(parsed.topic)) return null;
    return {
      topic: parsed.topic as TeamNotice['topic'],
      key: typeof parsed.key === 'string' ? parsed.key : null,
    };
  } catch {
    return null;
  }
}
