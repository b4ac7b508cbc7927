import { Hono } from 'hono';
import { z } from 'zod';
import type { AppDependencies, AppEnv, Feature, ProjectionsHealth } from '../http';
import { answerDescription, describedAs, describeRoute } from '../http/openapiSpec';

/** A check that does not answer within this counts as down; health must never hang. */
const checkTimeoutMs = 2_000;
/** A projector further behind than this makes the portal "degraded": users see stale lists. */
const maxHealthyLagSeconds = 60;

interface Check {
  ok: boolean;
  latencyMs: number;
}

const checkSchema = z.strictObject({ ok: z.boolean(), latencyMs: z.number() });

export const healthSchema = z
  .strictObject({
    status: z.enum(['ok', 'degraded']),
    database: checkSchema,
    projections: z.array(
      z.looseObject({
        name: z.string(),
        position: z
          .union([z.string(), z.number()])
          .nullable()
          .optional()
          .meta({ description: 'Position of the last event applied (a decimal string)' }),
        lagEvents: z.number().optional(),
        lagSeconds: z.number().optional(),
        failedEvents: z.number().optional(),
      }),
    ),
    failedEvents: z.array(z.looseObject({})),
  })
  .meta({ id: 'Health' });

/**
 * `GET /api/health`, open to all. 503 when the read-model database is down; "degraded" when a
 * projector lags, has failed events, or cannot report.
 */
export const healthRoutes: Feature = (deps) =>
  new Hono<AppEnv>().get(
    '/health',
    describeRoute(
      describedAs(
        answerDescription('Health of the database and the projectors', 200, healthSchema),
        answerDescription('', 503, healthSchema, 'The read-model database is down'),
      ),
    ),
    async (c) => {
      const [database, status] = await Promise.all([
        timed(() => deps.pool.query('SELECT 1')),
        readProjections(deps),
      ]);
      const projections = status?.projections ?? [];
      const healthy =
        database.ok &&
        status !== undefined &&
        (status.recentFailures ?? []).length === 0 &&
        projections.every(
          ({ failedEvents = 0, lagSeconds = 0 }) =>
            failedEvents === 0 && lagSeconds <= maxHealthyLagSeconds,
        );
      const body = {
        status: healthy ? 'ok' : 'degraded',
        database,
        projections,
        failedEvents: status?.recentFailures ?? [],
      };
      return c.json(jsonSafe(body), database.ok ? 200 : 503);
    },
  );

async function timed(check: () => Promise<unknown>): Promise<Check> {
  const started = performance.now();
  const ok = await withTimeout(check()).then(
    () => true,
    () => false,
  );
  return { ok, latencyMs: Math.round((performance.now() - started) * 10) / 10 };
}

async function readProjections(deps: AppDependencies): Promise<ProjectionsHealth | undefined> {
  try {
    return await withTimeout(deps.projectionStatus());
  } catch (error) {
    deps.logger.warn({ err: error }, 'projection status unavailable');
    return undefined;
  }
}

function withTimeout<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('health check timed out')), checkTimeoutMs);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** Positions are bigints, which JSON lacks: they travel as decimal strings. */
function jsonSafe(value: object): object {
  return JSON.parse(
    JSON.stringify(value, (_key, field: unknown) =>
      typeof field === 'bigint' ? field.toString() : field,
    ),
  ) as object;
}
