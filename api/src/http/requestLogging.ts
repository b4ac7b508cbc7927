import type { MiddlewareHandler } from 'hono';
import type { Logger } from 'pino';
import type { AppEnv, Caller } from './types';

/**
 * One JSON line per request. Deliberately limited to these fields: bodies, query strings (they
 * can carry search terms and emails), headers and tokens never reach the log.
 */
export function requestLogging(logger: Logger): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    await next();
    const caller: Caller | undefined = c.var.caller;
    const status = c.res.status;
    const line = {
      method: c.req.method,
      path: c.req.path,
      status,
      durationMs: Math.round((performance.now() - started) * 10) / 10,
      requestId: c.var.requestId,
      companyId: caller?.companyId,
      userId: caller?.userId,
    };
    if (status >= 500) logger.error(line, 'request');
    else logger.info(line, 'request');
  };
}
