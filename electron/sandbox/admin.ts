import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { bulkStrategiesBody, createBulkStrategies } from './bulk-strategies';
import type { SandboxContext } from './context';
import { cashWeightOf, createUnexecutedVersion, planPositions } from './engine';
import {
  applyOutsideTrade,
  applySplit,
  outsideTradeBody,
  type Refusal,
  splitBody,
} from './outside-events';
import { isRecognizedSymbol } from './prices';
import { resourceError } from './replies';
import {
  currentTarget,
  findVersion,
  latestExecuted,
  latestVersion,
  runningRebalance,
  serializeVersion,
  type StrategyRec,
} from './state';
import {
  checkTarget,
  faultsPatch,
  isUuid,
  issueLines,
  parseJsonBody,
  timingBody,
  unexecutedBody,
} from './validation';

/**
 * Sandbox-only routes under /sandbox/ (the X-Sandbox-Admin guard lives in
 * server.ts): reset, listing, unexecuted versions (created or changed), what happens outside
 * any version (a trade made elsewhere, a split), faults, timing, counters.
 */

type Req = FastifyRequest<{ Params: Record<string, string | undefined> }>;

/** A zod-checked JSON body, or a 400 already sent. */
function readBody<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  schema: z.ZodType<T>,
): T | undefined {
  // An empty body means "no fields", e.g. a PUT /sandbox/faults that changes nothing.
  const empty = typeof request.body !== 'string' || request.body.trim() === '';
  const body = empty
    ? parseJsonBody('{}', 'application/json')
    : parseJsonBody(request.body, request.headers['content-type']);
  if (!body.ok) {
    resourceError(reply, 400, body.detail);
    return undefined;
  }
  const parsed = schema.safeParse(body.value);
  if (!parsed.success) {
    const lines = issueLines(parsed.error);
    resourceError(reply, 400, `The request is not valid: ${lines[0]}.`, { body: lines });
    return undefined;
  }
  return parsed.data;
}

export function registerAdminRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.post('/sandbox/reset', async (_request, reply) => {
    ctx.reset();
    return reply.code(204).send();
  });

  app.get('/sandbox/strategies', async () => ({
    data: [...ctx.state.strategies.values()].map((s) => ({
      id: s.id,
      name: s.name,
      organization: s.organization,
      latest_version_id: latestVersion(s)?.id ?? null,
      latest_executed_version_id: latestExecuted(s)?.id ?? null,
      // A rebalance the sandbox still runs, whether or not a client follows it (tests wait on it).
      rebalancing: runningRebalance(s) !== undefined,
      cash: s.cash,
    })),
  }));

  // Many strategies with holdings at once, for tests and benchmarks of the book.
  app.post('/sandbox/strategies', async (request, reply) => {
    const body = readBody(request, reply, bulkStrategiesBody);
    if (!body) return reply;
    const created = createBulkStrategies(ctx.state, body);
    ctx.changed();
    return reply.code(201).send({
      data: { ids: created.ids, executed_version_ids: created.versionIds },
    });
  });

  /** Requested positions checked as an execute would check them, or a 400 already sent. */
  const checkedPositions = (
    reply: FastifyReply,
    requested: { symbol: string; weight: string }[],
  ): boolean => {
    if (requested.length === 0) return true;
    const target = checkTarget({ data: { positions: requested } });
    if (!target.ok) {
      resourceError(reply, 400, target.detail, { positions: target.messages });
      return false;
    }
    const unknown = requested.map((p) => p.symbol).filter((s) => !isRecognizedSymbol(s));
    if (unknown.length > 0) {
      resourceError(reply, 400, `Unknown symbols: ${unknown.join(', ')}.`, { symbols: unknown });
      return false;
    }
    return true;
  };
  const scheduledFor = (at: string | null | undefined) =>
    at ? new Date(at).toISOString().replace('Z', '000Z') : null;

  app.post('/sandbox/strategies/:id/unexecuted-versions', async (request: Req, reply) => {
    const id = request.params.id;
    if (!isUuid(id)) return resourceError(reply, 400, `id "${id ?? ''}" is not a UUID.`);
    const body = readBody(request, reply, unexecutedBody);
    if (!body) return reply;
    const strategy = ctx.state.strategy(id);
    if (!strategy) return resourceError(reply, 404, `Strategy ${id} was not found.`);
    const requested =
      body.positions ??
      [...currentTarget(strategy)].map(([symbol, weight]) => ({ symbol, weight }));
    if (!checkedPositions(reply, requested)) return reply;
    const version = createUnexecutedVersion(strategy, requested, scheduledFor(body.scheduled_for));
    ctx.changed();
    return reply
      .code(201)
      .send({ data: serializeVersion(version, { orders: true, positions: true }) });
  });

  // Changes an unexecuted version in place (its id stays): what a colleague's edit would do.
  app.put('/sandbox/strategies/:id/unexecuted-versions/:versionId', async (request: Req, reply) => {
    const { id, versionId } = request.params;
    if (!isUuid(id)) return resourceError(reply, 400, `id "${id ?? ''}" is not a UUID.`);
    if (!isUuid(versionId))
      return resourceError(reply, 400, `versionId "${versionId ?? ''}" is not a UUID.`);
    const body = readBody(request, reply, unexecutedBody);
    if (!body) return reply;
    const strategy = ctx.state.strategy(id);
    if (!strategy) return resourceError(reply, 404, `Strategy ${id} was not found.`);
    const version = findVersion(strategy, versionId);
    if (!version) return resourceError(reply, 404, `Version ${versionId} was not found.`);
    if (version.executed_at !== null)
      return resourceError(reply, 409, `Version ${versionId} has been executed.`);
    if (body.positions) {
      if (!checkedPositions(reply, body.positions)) return reply;
      version.positions = planPositions(currentTarget(strategy), body.positions);
      version.cash_weight = cashWeightOf(version.positions);
    }
    if (body.scheduled_for !== undefined) {
      version.scheduled_for = scheduledFor(body.scheduled_for);
      version.status = version.scheduled_for === null ? null : 'SCHEDULED';
    }
    ctx.changed();
    return { data: serializeVersion(version, { orders: true, positions: true }) };
  });

  // Outside any version: the holdings change, no version or order is written.
  const outsideEvent =
    <T>(schema: z.ZodType<T>, apply: (strategy: StrategyRec, body: T) => Refusal) =>
    async (request: Req, reply: FastifyReply) => {
      const id = request.params.id;
      if (!isUuid(id)) return resourceError(reply, 400, `id "${id ?? ''}" is not a UUID.`);
      const body = readBody(request, reply, schema);
      if (!body) return reply;
      const strategy = ctx.state.strategy(id);
      if (!strategy) return resourceError(reply, 404, `Strategy ${id} was not found.`);
      const refusal = apply(strategy, body);
      if (refusal !== null) return resourceError(reply, 409, refusal);
      ctx.changed();
      return reply.code(201).send({
        data: { id: strategy.id, cash: strategy.cash, positions: strategy.holdings },
      });
    };
  app.post(
    '/sandbox/strategies/:id/outside-trades',
    outsideEvent(outsideTradeBody, applyOutsideTrade),
  );
  app.post('/sandbox/strategies/:id/splits', outsideEvent(splitBody, applySplit));

  app.get('/sandbox/faults', async () => ({ data: ctx.faults }));

  app.put('/sandbox/faults', async (request, reply) => {
    const patch = readBody(request, reply, faultsPatch);
    if (!patch) return reply;
    ctx.faults = { ...ctx.faults, ...patch };
    if (patch.token_rate_limit !== undefined) ctx.tokenWindow.clear();
    if (patch.api_rate_limit !== undefined) ctx.apiWindow.clear();
    return { data: ctx.faults };
  });

  app.delete('/sandbox/faults', async (_request, reply) => {
    ctx.clearFaults();
    return reply.code(204).send();
  });

  app.put('/sandbox/timing', async (request, reply) => {
    const timing = readBody(request, reply, timingBody);
    if (!timing) return reply;
    ctx.stepMs = timing.step_ms;
    return { data: { step_ms: ctx.stepMs } };
  });

  app.get('/sandbox/counters', async () => ({
    data: {
      executions_accepted: Object.fromEntries(
        [...ctx.state.strategies.keys()].map((id) => [id, ctx.executionsAccepted.get(id) ?? 0]),
      ),
      token_requests: ctx.tokenRequests,
      api_requests: ctx.apiRequests,
    },
  }));
}
