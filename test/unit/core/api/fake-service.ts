import Fastify, { type FastifyInstance } from 'fastify';
import { createServiceClient, type ServiceClientOptions } from '../../../../electron/core/api';

/**
 * A tiny stand-in service on 127.0.0.1:0 for the client's unit tests: a working token endpoint
 * (counted) plus whatever routes a test adds.
 */
export interface FakeService {
  app: FastifyInstance;
  baseUrl: string;
  tokenRequests: () => number;
  close: () => Promise<void>;
}

export const STRATEGY_ID = 'c3633e1d-f6c8-49fb-97e5-80b6e09e9a21';
export const VERSION_ID = '0f8fad5b-d9cb-469f-a165-70867728950e';
export const SECRET = 'top-secret-value-42';
const TS = '2025-01-02T03:04:05.123456Z';

export const strategyBody = {
  data: {
    id: STRATEGY_ID,
    name: 'Core Equity',
    description: 'Large caps',
    fee_percent: '0.5',
    is_liquidate_only: false,
    liquidate_only_reason: null,
    inserted_at: TS,
    updated_at: TS,
    positions: [
      { id: VERSION_ID, symbol: 'AAPL', quantity: '10.5', inserted_at: TS, updated_at: TS },
    ],
  },
};

export const versionBody = {
  data: {
    id: VERSION_ID,
    strategy_id: STRATEGY_ID,
    cash_weight: '10',
    old_cash_weight: '100',
    scheduled_for: null,
    status: 'PENDING',
    executed_at: TS,
    inserted_at: TS,
    orders: [],
    positions: [{ id: VERSION_ID, symbol: 'AAPL', old_weight: '0', weight: '90', action: 'ADD' }],
  },
};

export async function startFake(
  setup: (app: FastifyInstance) => void,
  token: { expiresIn?: number; scope?: string; delayMs?: number } = {},
): Promise<FakeService> {
  const app = Fastify({ logger: false });
  let tokens = 0;
  app.post('/api/auth/token', async (req, reply) => {
    tokens++;
    const body = req.body as { client_id?: string; client_secret?: string };
    if (token.delayMs) await new Promise((r) => setTimeout(r, token.delayMs));
    if (body.client_secret !== SECRET)
      return reply.code(401).send({ error: 'invalid_client', error_description: 'Bad client' });
    return {
      access_token: `tok-${tokens}-abcdef`,
      token_type: 'Bearer',
      expires_in: token.expiresIn ?? 3600,
      scope:
        token.scope ??
        'strategies:read strategy_versions:create strategy_versions:read strategy_versions:execute strategy_versions:delete',
    };
  });
  setup(app);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const port = (app.server.address() as { port: number }).port;
  return {
    app,
    baseUrl: `http://127.0.0.1:${port}`,
    tokenRequests: () => tokens,
    close: () => app.close(),
  };
}

/** A client with fast retries (no real waiting unless a test asks for it). */
export function clientFor(fake: { baseUrl: string }, extra: Partial<ServiceClientOptions> = {}) {
  return createServiceClient({
    baseUrl: fake.baseUrl,
    clientId: 'demo-manager',
    getSecret: async () => SECRET,
    retry: { baseMs: 5, maxDelayMs: 20 },
    ...extra,
  });
}
