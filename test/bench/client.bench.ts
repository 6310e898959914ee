/**
 * Service client figures: GET throughput through the ServiceClient relative to a raw undici
 * `request` loop (its own keep-alive Agent) against the same sandbox in the same run, and the
 * number of token requests when 100 calls race an expired token (must be 1).
 */
import { Agent, request } from 'undici';
import { createServiceClient } from '../../electron/core/api';
import { startSandbox } from '../../electron/sandbox/index';

const CORE_EQUITY = 'c3633e1d-f6c8-49fb-97e5-80b6e09e9a21';
const N = 2000;
const ROUNDS = 5;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

export default async function clientBench(): Promise<Record<string, number>> {
  const sandbox = await startSandbox({ port: 0, stepMs: 0 });
  const adminAgent = new Agent();
  const admin = async (method: 'PUT' | 'GET', path: string, body?: unknown) => {
    const res = await request(`${sandbox.baseUrl}${path}`, {
      method,
      dispatcher: adminAgent,
      headers: { 'x-sandbox-admin': '1', 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return (await res.body.json()) as { data: Record<string, unknown> };
  };
  try {
    await admin('PUT', '/sandbox/faults', { latency_ms: 0 });
    const makeClient = (memoizeValidation: boolean) =>
      createServiceClient({
        baseUrl: sandbox.baseUrl,
        clientId: 'demo-manager',
        getSecret: async () => 'demo-secret',
        memoizeValidation,
      });
    const client = makeClient(true);
    // Every body through zod, as if each answer were different.
    const fullClient = makeClient(false);
    const tokenRes = await request(`${sandbox.baseUrl}/api/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: 'demo-manager', client_secret: 'demo-secret' }),
    });
    const { access_token } = (await tokenRes.body.json()) as { access_token: string };
    const rawAgent = new Agent();
    const url = `${sandbox.baseUrl}/api/v1/strategies/${CORE_EQUITY}?include=positions`;
    const rawHeaders = { authorization: `Bearer ${access_token}`, accept: 'application/json' };

    // The strictest raw baseline: the Agent's own request with the URL split once, body.json().
    const { origin, pathname, search } = new URL(url);
    const rawRequest = {
      origin,
      path: pathname + search,
      method: 'GET' as const,
      headers: rawHeaders,
    };
    const rawLoop = async (n: number) => {
      for (let i = 0; i < n; i++) {
        const res = await rawAgent.request(rawRequest);
        await res.body.json();
      }
    };
    const clientLoop = async (n: number) => {
      for (let i = 0; i < n; i++) await client.getStrategy(CORE_EQUITY, { includePositions: true });
    };
    const fullLoop = async (n: number) => {
      for (let i = 0; i < n; i++)
        await fullClient.getStrategy(CORE_EQUITY, { includePositions: true });
    };
    const loops = [rawLoop, clientLoop, fullLoop];
    for (const loop of loops) await loop(1000);
    const times = loops.map(() => [] as number[]);
    for (let r = 0; r < ROUNDS; r++) {
      // Rotate the order so drift favours no side.
      for (let k = 0; k < loops.length; k++) {
        const j = (k + r) % loops.length;
        const t = performance.now();
        await loops[j]!(N);
        times[j]!.push(performance.now() - t);
      }
    }
    const [raw, ours, full] = times.map(median) as [number, number, number];
    await rawAgent.close();
    await client.close();
    await fullClient.close();

    // 100 calls racing an expired token.
    await admin('PUT', '/sandbox/faults', { token_lifetime_s: 1 });
    const racer = createServiceClient({
      baseUrl: sandbox.baseUrl,
      clientId: 'demo-manager',
      getSecret: async () => 'demo-secret',
    });
    await racer.getStrategy(CORE_EQUITY);
    // The next token lives long, so only the race itself can cause token requests.
    await admin('PUT', '/sandbox/faults', { token_lifetime_s: 3600 });
    await new Promise((r) => setTimeout(r, 1100));
    const before = (await admin('GET', '/sandbox/counters')).data.token_requests as number;
    await Promise.all(Array.from({ length: 100 }, () => racer.getStrategy(CORE_EQUITY)));
    const after = (await admin('GET', '/sandbox/counters')).data.token_requests as number;
    await racer.close();

    return {
      // Throughput ratio = raw time / client time (1 = as fast as raw undici).
      client_vs_undici_ratio: Number((raw / ours).toFixed(3)),
      client_vs_undici_ratio_no_memo: Number((raw / full).toFixed(3)),
      token_requests_in_race: after - before,
    };
  } finally {
    await adminAgent.close();
    await sandbox.close();
  }
}
