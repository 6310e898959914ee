/**
 * Service client figures against the built-in sandbox over loopback:
 * - client_vs_undici_ratio: GET throughput through the ServiceClient (every answer through its
 *   full validation and timestamp normalization, its deadline, size cap and retry policy)
 *   relative to plain undici: the keep-alive Agent's own request() and body.json(), fetching the
 *   same URLs in the same order. The bodies differ from one request to the next: versions of the
 *   strategy with their own ids, weights, numbers of positions (1 to 22) and of orders (executed
 *   ones, 4 to 11; never executed ones, none). Goal: at least 0.8.
 * - client_vs_undici_dispatch_ratio: the same against the barest undici read there is, the
 *   Agent's dispatch() gathering the body and JSON.parse (the transport the client itself uses):
 *   what the client's own layers cost. No goal; shown so the first figure is not read as a
 *   transport choice alone.
 * Each round runs every side on the same slice of the URLs, the order of the sides rotating; a
 * figure is the median over the rounds of the ratio of wall-clock times within a round, so the
 * load of a shared machine, which drifts between rounds, falls on both sides of each ratio alike.
 * - token_requests_in_race: token requests when 100 calls race an expired token (must be 1).
 */
import { Agent, request, type Dispatcher } from 'undici';
import { createServiceClient } from '../../electron/core/api';
import { startSandbox } from '../../electron/sandbox/index';

const CORE_EQUITY = 'c3633e1d-f6c8-49fb-97e5-80b6e09e9a21';
// Many short rounds: on a shared machine the load changes within seconds.
const PER_ROUND = 150;
const ROUNDS = 40;
const EXECUTED_VERSIONS = 24;
const UNEXECUTED_VERSIONS = 40;
const SYMBOLS = ['AAPL', 'MSFT', 'GOOGL', 'AMZN', 'META', 'NVDA', 'TSLA', 'JPM', 'JNJ', 'V', 'PG'];
const MORE_SYMBOLS = ['XOM', 'UNH', 'HD', 'KO', 'PEP', 'ABBV', 'MRK', 'COST', 'WMT', 'CVX', 'LLY'];

/** A target of `count` different symbols with uneven weights adding up to less than 90. */
function target(seed: number, count: number) {
  const symbols = [...SYMBOLS, ...MORE_SYMBOLS];
  const cap = Math.floor(90 / count) - 1; // whole percents per position
  return Array.from({ length: count }, (_, i) => ({
    symbol: symbols[(seed + i) % symbols.length]!,
    weight: `${1 + ((seed * 7 + i * 13) % cap)}.${String((seed * 31 + i * 17) % 1000).padStart(3, '0')}`,
  }));
}

/** The body of one GET as text, through the Agent's dispatch: no stream, no checks. */
function dispatchText(agent: Agent, options: Dispatcher.DispatchOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    agent.dispatch(options, {
      onConnect: () => undefined,
      onHeaders: () => true,
      onData: (chunk: Buffer) => chunks.push(chunk) > 0,
      onComplete: () => resolve(Buffer.concat(chunks).toString('utf8')),
      onError: reject,
    } as Dispatcher.DispatchHandler);
  });
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

export default async function clientBench(): Promise<Record<string, number | string>> {
  const sandbox = await startSandbox({ port: 0, stepMs: 0 });
  const adminAgent = new Agent();
  const admin = async (method: 'PUT' | 'GET' | 'POST', path: string, body?: unknown) => {
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
    const client = createServiceClient({
      baseUrl: sandbox.baseUrl,
      clientId: 'demo-manager',
      getSecret: async () => 'demo-secret',
    });
    const tokenRes = await request(`${sandbox.baseUrl}/api/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: 'demo-manager', client_secret: 'demo-secret' }),
    });
    const { access_token } = (await tokenRes.body.json()) as { access_token: string };
    const rawAgent = new Agent();
    const rawHeaders = { authorization: `Bearer ${access_token}`, accept: 'application/json' };

    // Versions that differ: executed ones (orders from each change of target), then ones never
    // executed, of 1 to 20 positions.
    const versionIds: string[] = [];
    for (let i = 0; i < EXECUTED_VERSIONS; i++) {
      const body = { data: { positions: target(i, 2 + (i % 9)) } };
      const { version } = await client.executeVersion(CORE_EQUITY, body, `bench-${i}`);
      let status = version.status;
      while (status !== 'COMPLETE' && status !== 'FAILED' && status !== 'CANCELLED')
        status = (await client.getVersion(CORE_EQUITY, version.id)).status;
      versionIds.push(version.id);
    }
    for (let i = 0; i < UNEXECUTED_VERSIONS; i++) {
      const created = await admin(
        'POST',
        `/sandbox/strategies/${CORE_EQUITY}/unexecuted-versions`,
        { positions: target(100 + i, 1 + (i % 20)) },
      );
      versionIds.push(created.data.id as string);
    }
    // Interleaved, so consecutive answers differ in shape as well as in values.
    const order = versionIds.map((_, i) =>
      i % 2 ? versionIds[i >> 1]! : versionIds[versionIds.length - 1 - (i >> 1)]!,
    );
    const path = (id: string) =>
      `/api/v1/strategies/${CORE_EQUITY}/versions/${id}?include=orders,positions`;

    // The strictest raw baseline: the Agent's own request with the URL split once, body.json().
    const { origin } = new URL(sandbox.baseUrl);
    const rawRequests = order.map((id) => ({
      origin,
      path: path(id),
      method: 'GET' as const,
      headers: rawHeaders,
    }));
    const rawLoop = async (from: number, n: number) => {
      for (let i = from; i < from + n; i++) {
        const res = await rawAgent.request(rawRequests[i % rawRequests.length]!);
        await res.body.json();
      }
    };
    const dispatchAgent = new Agent();
    const dispatchLoop = async (from: number, n: number) => {
      for (let i = from; i < from + n; i++)
        JSON.parse(await dispatchText(dispatchAgent, rawRequests[i % rawRequests.length]!));
    };
    const clientLoop = async (from: number, n: number) => {
      for (let i = from; i < from + n; i++)
        await client.getVersion(CORE_EQUITY, order[i % order.length]!, {
          orders: true,
          positions: true,
        });
    };
    const sides = { raw: rawLoop, dispatch: dispatchLoop, client: clientLoop };
    const loops = Object.values(sides);
    for (const loop of loops) await loop(0, 1000);
    const times = loops.map(() => [] as number[]);
    const cpuTimes = loops.map(() => [] as number[]);
    for (let r = 0; r < ROUNDS; r++) {
      const from = r * PER_ROUND;
      for (let k = 0; k < loops.length; k++) {
        const j = (k + r) % loops.length;
        const t = performance.now();
        const cpu = process.cpuUsage();
        await loops[j]!(from, PER_ROUND);
        times[j]!.push(performance.now() - t);
        const used = process.cpuUsage(cpu);
        cpuTimes[j]!.push(used.user + used.system);
      }
    }
    const [raw, dispatch, ours] = times as [number[], number[], number[]];
    const ratio = (base: number[], of = ours) => median(base.map((t, r) => t / of[r]!));
    const [rawCpu, , oursCpu] = cpuTimes as [number[], number[], number[]];
    const perRequest = (ts: number[]) => ((median(ts) / PER_ROUND) * 1000).toFixed(0);
    console.log(
      `  client ${perRequest(ours)} µs a read; undici request()+body.json() ${perRequest(raw)} µs; ` +
        `undici dispatch()+JSON.parse ${perRequest(dispatch)} µs (medians of ${ROUNDS} rounds)`,
    );
    // The process's own CPU time (the sandbox included) is blind to other processes' load: a
    // check on the wall-clock figure when the machine is busy.
    console.log(
      `  the same against request()+body.json() in CPU time: ${ratio(rawCpu, oursCpu).toFixed(3)}`,
    );
    await rawAgent.close();
    await dispatchAgent.close();
    await client.close();

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
      // Throughput ratio = baseline time / client time (1 = as fast as the baseline).
      client_vs_undici_ratio: Number(ratio(raw).toFixed(3)),
      client_baseline: 'undici Agent request() + body.json(), same URLs, interleaved rounds',
      client_vs_undici_dispatch_ratio: Number(ratio(dispatch).toFixed(3)),
      token_requests_in_race: after - before,
    };
  } finally {
    await adminAgent.close();
    await sandbox.close();
  }
}
