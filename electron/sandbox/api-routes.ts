import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Scope } from '../../shared/domain/resources';
import { bearerChallenge, type TokenGrant } from './auth';
import { fingerprint, idempotencySlot, type SandboxContext } from './context';
import { createExecutedVersion, planPositions } from './engine';
import { consume } from './faults';
import { dec } from './money';
import { isRecognizedSymbol } from './prices';
import { resourceError } from './replies';
import {
  currentTarget,
  findVersion,
  latestUnexecuted,
  runningRebalance,
  serializeStrategy,
  serializeVersion,
  type StrategyRec,
} from './state';
import {
  checkIdempotencyKey,
  checkTarget,
  isUuid,
  parseInclude,
  parseJsonBody,
} from './validation';

declare module 'fastify' {
  interface FastifyRequest {
    grant: TokenGrant | null;
  }
}

type Params = Record<string, string | undefined>;
type Req = FastifyRequest<{ Params: Params; Querystring: Record<string, unknown> }>;

const TOKEN_PROBLEMS = {
  missing: 'The request has no access token; send Authorization: Bearer <token>.',
  malformed: 'The Authorization header is not a Bearer token.',
  unknown: 'The access token is not valid.',
  expired: 'The access token has expired; request a new one.',
} as const;

/** 401 and 403 come before anything else about the request (docs/decisions.md, Precedence). */
function requireScopes(ctx: SandboxContext, needed: Scope[]) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const lookup = ctx.tokens.check(request.headers.authorization);
    if (!lookup.ok) {
      const description = TOKEN_PROBLEMS[lookup.reason];
      const challenge =
        lookup.reason === 'missing'
          ? bearerChallenge({})
          : bearerChallenge({ error: 'invalid_token', description });
      return reply
        .code(401)
        .header('www-authenticate', challenge)
        .send({ error: 'invalid_token', error_description: description });
    }
    const missing = needed.filter((s) => !lookup.grant.scopes.has(s));
    if (missing.length > 0) {
      const description = `This request needs the scope ${needed.join(' and ')}; the token lacks ${missing.join(' and ')}.`;
      return reply
        .code(403)
        .header(
          'www-authenticate',
          bearerChallenge({ error: 'insufficient_scope', description, scope: needed.join(' ') }),
        )
        .send({
          error: 'insufficient_scope',
          error_description: description,
          scope: needed.join(' '),
        });
    }
    request.grant = lookup.grant;
  };
}

/** 400 for a path id that is not a UUID; returns false when it answered. */
function checkIds(reply: FastifyReply, params: Params, names: string[]): boolean {
  for (const name of names) {
    const value = params[name];
    if (!isUuid(value)) {
      resourceError(reply, 400, `${name} "${value ?? ''}" is not a UUID.`, {
        [name]: ['is not a UUID'],
      });
      return false;
    }
  }
  return true;
}

/** The strategy when the caller's organization owns it; other organizations see a 404. */
function ownStrategy(ctx: SandboxContext, request: Req, id: string): StrategyRec | undefined {
  const strategy = ctx.state.strategy(id);
  return strategy && strategy.organization === request.grant?.client.organization
    ? strategy
    : undefined;
}

function strategyNotFound(reply: FastifyReply, id: string) {
  return resourceError(reply, 404, `Strategy ${id} was not found.`);
}

function versionNotFound(reply: FastifyReply, strategyId: string, id: string) {
  return resourceError(reply, 404, `Version ${id} of strategy ${strategyId} was not found.`);
}

export function registerApiRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.get(
    '/api/v1/strategies/:strategy_id',
    { onRequest: requireScopes(ctx, ['strategies:read']) },
    async (request: Req, reply) => {
      if (!checkIds(reply, request.params, ['strategy_id'])) return reply;
      const include = parseInclude(request.query.include, ['positions']);
      if (!include.ok)
        return resourceError(reply, 400, include.detail, { include: [include.detail] });
      const strategy = ownStrategy(ctx, request, request.params.strategy_id!);
      if (!strategy) return strategyNotFound(reply, request.params.strategy_id!);
      return { data: serializeStrategy(strategy, include.value.has('positions')) };
    },
  );

  app.get(
    '/api/v1/strategies/:strategy_id/versions/:id',
    { onRequest: requireScopes(ctx, ['strategy_versions:read']) },
    async (request: Req, reply) => {
      if (!checkIds(reply, request.params, ['strategy_id', 'id'])) return reply;
      const include = parseInclude(request.query.include, ['orders', 'positions']);
      if (!include.ok)
        return resourceError(reply, 400, include.detail, { include: [include.detail] });
      const { strategy_id: strategyId, id } = request.params as { strategy_id: string; id: string };
      const strategy = ownStrategy(ctx, request, strategyId);
      if (!strategy) return strategyNotFound(reply, strategyId);
      const version = findVersion(strategy, id);
      if (!version) return versionNotFound(reply, strategyId, id);
      const wanted = {
        orders: include.value.has('orders'),
        positions: include.value.has('positions'),
      };
      return { data: serializeVersion(version, wanted) };
    },
  );

  app.delete(
    '/api/v1/strategies/:strategy_id/versions/:id',
    { onRequest: requireScopes(ctx, ['strategy_versions:delete']) },
    async (request: Req, reply) => {
      if (!checkIds(reply, request.params, ['strategy_id', 'id'])) return reply;
      const { strategy_id: strategyId, id } = request.params as { strategy_id: string; id: string };
      const strategy = ownStrategy(ctx, request, strategyId);
      if (!strategy) return strategyNotFound(reply, strategyId);
      const version = findVersion(strategy, id);
      if (!version) return versionNotFound(reply, strategyId, id);
      if (version.executed_at !== null) {
        return resourceError(
          reply,
          422,
          `Version ${version.id} was executed on ${version.executed_at}; an executed version cannot be deleted.`,
          { version_id: version.id },
        );
      }
      strategy.versions = strategy.versions.filter((v) => v !== version);
      ctx.changed();
      if (consume(ctx.faults, 'fail_after_commit_next')) return failedAfterCommit(ctx, reply);
      return reply.code(204).send();
    },
  );

  app.post(
    '/api/v1/strategies/:strategy_id/versions/execute',
    { onRequest: requireScopes(ctx, ['strategy_versions:create', 'strategy_versions:execute']) },
    async (request: Req, reply) => execute(ctx, request, reply),
  );
}

async function execute(ctx: SandboxContext, request: Req, reply: FastifyReply) {
  if (!checkIds(reply, request.params, ['strategy_id'])) return reply;
  const key = checkIdempotencyKey(request.headers['idempotency-key']);
  if (!key.ok) return resourceError(reply, 400, key.detail, { idempotency_key: [key.detail] });
  const body = parseJsonBody(request.body, request.headers['content-type']);
  if (!body.ok) return resourceError(reply, 400, body.detail);
  const strategyId = request.params.strategy_id!;
  const strategy = ownStrategy(ctx, request, strategyId);
  if (!strategy) return strategyNotFound(reply, strategyId);

  const slot =
    key.value === null ? null : idempotencySlot(request.grant!.client.client_id, key.value);
  const print = fingerprint(body.value);
  const remembered = slot === null ? undefined : ctx.idempotency.get(slot);
  if (remembered) {
    if (remembered.strategyId === strategy.id && remembered.fingerprint === print) {
      return reply
        .code(202)
        .header('location', remembered.location)
        .type('application/json; charset=utf-8')
        .send(remembered.payload);
    }
    const detail =
      'This Idempotency-Key was already used for a different request; use a new key for a new execution.';
    return resourceError(reply, 422, detail, { idempotency_key: [detail] });
  }

  const target = checkTarget(body.value);
  if (!target.ok)
    return resourceError(reply, 422, target.detail, { [target.field]: target.messages });
  const unknown = [
    ...new Set(target.positions.map((p) => p.symbol).filter((s) => !isRecognizedSymbol(s))),
  ];
  if (unknown.length > 0) {
    return resourceError(
      reply,
      422,
      `The service does not recognize ${unknown.length === 1 ? 'the symbol' : 'these symbols'}: ${unknown.join(', ')}.`,
      { symbols: unknown },
    );
  }
  const unexecuted = latestUnexecuted(strategy);
  if (unexecuted) {
    return resourceError(
      reply,
      422,
      `Strategy ${strategy.name} has a version that was not executed (${unexecuted.id}); delete it before executing a new one.`,
      { version_id: unexecuted.id },
    );
  }
  const running = runningRebalance(strategy);
  if (running) {
    return resourceError(
      reply,
      422,
      `The rebalance of version ${running.id} has not ended yet (status ${running.status}); wait until it is COMPLETE or FAILED.`,
      { version_id: running.id },
    );
  }
  if (strategy.is_liquidate_only) {
    const increases = planPositions(currentTarget(strategy), target.positions).filter((p) =>
      dec(p.weight).gt(dec(p.old_weight)),
    );
    if (increases.length > 0) {
      const messages = increases.map(
        (p) => `${p.symbol}: weight ${p.weight} is above the current target ${p.old_weight}`,
      );
      return resourceError(
        reply,
        422,
        `Strategy ${strategy.name} is liquidate-only (${strategy.liquidate_only_reason ?? 'no reason given'}): weights can only go down. ${messages[0]}${messages.length > 1 ? ` (and ${messages.length - 1} more)` : ''}.`,
        { positions: messages },
      );
    }
  }

  const version = createExecutedVersion(strategy, target.positions);
  ctx.countExecution(strategy.id);
  const location = `/api/v1/strategies/${strategy.id}/versions/${version.id}?include=orders,positions`;
  const payload = JSON.stringify({
    data: serializeVersion(version, { orders: true, positions: true }),
  });
  if (slot !== null) {
    ctx.idempotency.set(slot, { strategyId: strategy.id, fingerprint: print, location, payload });
  }
  ctx.progression.start(strategy, version);
  ctx.changed();
  if (consume(ctx.faults, 'drop_after_commit_next')) {
    // Committed, then the connection dies before any answer: the ambiguous failure.
    reply.hijack();
    request.raw.socket?.destroy();
    return;
  }
  if (consume(ctx.faults, 'fail_after_commit_next')) return failedAfterCommit(ctx, reply);
  return reply
    .code(202)
    .header('location', location)
    .type('application/json; charset=utf-8')
    .send(payload);
}

/** Committed, then a 5xx with an empty body: the service did it but says it failed. */
function failedAfterCommit(ctx: SandboxContext, reply: FastifyReply) {
  return reply.code(ctx.faults.fail_status).send('');
}
