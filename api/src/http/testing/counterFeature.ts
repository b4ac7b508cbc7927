import { DomainError, WrongExpectedRevisionError } from '@issuer/events';
import { Hono, type MiddlewareHandler } from 'hono';
import { z } from 'zod';
import {
  type Decider,
  decideAndAppend,
  executeCommand,
  loadState,
  waitForReadModels,
} from '../commands';
import { setETag } from '../etag';
import { idempotent } from '../idempotency';
import type { AppEnv, Feature } from '../types';
import { jsonBody, pathParams, queryParams } from '../validation';

// A test-only feature that exercises the pipeline the way real features will.

type CounterEvent =
  | { type: 'CounterIncremented'; data: { by: number } }
  | { type: 'CounterReset'; data: Record<string, never> };
type Counter = { count: number };
type CounterCommand = { type: 'Increment'; by: number } | { type: 'Reset' };

export const counterDecider: Decider<Counter, CounterCommand, CounterEvent> = {
  initialState: () => ({ count: 0 }),
  evolve: (state, event) => {
    switch (event.type) {
      case 'CounterIncremented':
        return { count: state.count + event.data.by };
      case 'CounterReset':
        return { count: 0 };
      default: {
        const unknown: never = event;
        return unknown;
      }
    }
  },
  decide: (command, state) => {
    if (command.type === 'Reset') {
      return state.count === 0 ? [] : [{ type: 'CounterReset', data: {} }];
    }
    if (state.count + command.by > 100) {
      throw new DomainError(422, 'counter_limit', 'A counter stops at 100', { by: 'Too much' });
    }
    return { type: 'CounterIncremented', data: { by: command.by } };
  },
};

export const counterStream = (id: string) => `Counter-${id}`;

/** Stands in for the real authentication: `Authorization: Test <companyId> <userId>`. */
export const testAuth: MiddlewareHandler<AppEnv> = async (c, next) => {
  const [scheme, companyId, userId] = (c.req.header('Authorization') ?? '').split(' ');
  if (scheme !== 'Test' || !companyId || !userId) {
    throw new DomainError(401, 'unauthorized', 'Invalid access_token');
  }
  c.set('caller', { companyId, userId, roles: ['admin'], tokenId: 't1', sessionId: 's1' });
  await next();
};

/** Switches the tests flip to make the next request fail or stall. */
export interface CounterControls {
  crashBeforeAppend: boolean;
  /** Resolved by the test to let a stalled request go on. */
  stall: Promise<void> | undefined;
}

const idParam = z.strictObject({ id: z.string().regex(/^[a-z0-9-]{1,40}$/) });
const incrementBody = z.strictObject({
  by: z.number().int().min(1, 'Must be at least 1').max(10),
  note: z.string().max(20).optional(),
});

export function counterFeature(controls: CounterControls): Feature {
  return () =>
    new Hono<AppEnv>()
      .get('/counters/:id', testAuth, pathParams(idParam), async (c) => {
        const { id } = c.req.valid('param');
        const { state, revision } = await loadState(c, counterStream(id), counterDecider);
        if (revision !== undefined) setETag(c, revision);
        return c.json(state);
      })
      .get(
        '/counters',
        testAuth,
        queryParams(z.strictObject({ limit: z.coerce.number().int().min(1).max(50).optional() })),
        (c) => c.json({ limit: c.req.valid('query').limit ?? 10 }),
      )
      .post(
        '/counters/:id/increment',
        testAuth,
        idempotent,
        pathParams(idParam),
        jsonBody(incrementBody),
        async (c) => {
          if (controls.stall) await controls.stall;
          if (controls.crashBeforeAppend) throw new Error('disk on fire at /secret/path');
          const { id } = c.req.valid('param');
          const { by } = c.req.valid('json');
          const outcome = await executeCommand(c, {
            streamId: counterStream(id),
            decider: counterDecider,
            command: { type: 'Increment', by },
          });
          return c.json({ count: outcome.state.count, readModels: outcome.readModels }, 201);
        },
      )
      .post('/counters/:id/reset', testAuth, idempotent, pathParams(idParam), async (c) => {
        const outcome = await executeCommand(c, {
          streamId: counterStream(c.req.valid('param').id),
          decider: counterDecider,
          command: { type: 'Reset' },
        });
        return c.json({ count: outcome.state.count, appended: outcome.events.length });
      })
      .post('/counters/:id/create', testAuth, idempotent, pathParams(idParam), async (c) => {
        await executeCommand(c, {
          streamId: counterStream(c.req.valid('param').id),
          decider: counterDecider,
          command: { type: 'Increment', by: 1 },
          expectedRevision: 'no_stream',
        });
        return c.json({ created: true }, 201);
      })
      .post('/counters/:id/forgetful', testAuth, pathParams(idParam), async (c) => {
        await executeCommand(c, {
          streamId: counterStream(c.req.valid('param').id),
          decider: counterDecider,
          command: { type: 'Increment', by: 1 },
        });
        return c.json({ ok: true });
      })
      .post(
        '/public/counters/:id/increment',
        idempotent,
        pathParams(idParam),
        jsonBody(incrementBody),
        async (c) => {
          const outcome = await executeCommand(c, {
            streamId: counterStream(c.req.valid('param').id),
            decider: counterDecider,
            command: { type: 'Increment', by: c.req.valid('json').by },
            companyId: 'public-company',
          });
          return c.json({ count: outcome.state.count }, 201);
        },
      )
      .post(
        '/pairs',
        testAuth,
        idempotent,
        jsonBody(z.strictObject({ name: z.string().min(1).max(20), counter: z.string().min(1) })),
        async (c) => {
          // The shape of registration: reserve a unique name, then write a second stream.
          const { name, counter } = c.req.valid('json');
          await decideAndAppend(c, {
            streamId: `CounterName-${name}`,
            decider: counterDecider,
            command: { type: 'Increment', by: 1 },
            expectedRevision: 'no_stream',
            ignoreIfMatch: true,
          }).catch((error: unknown) => {
            if (error instanceof WrongExpectedRevisionError) {
              throw new DomainError(409, 'conflict', 'The name is already in use', {
                name: 'The name is already in use',
              });
            }
            throw error;
          });
          const written = await decideAndAppend(c, {
            streamId: counterStream(counter),
            decider: counterDecider,
            command: { type: 'Increment', by: 1 },
          });
          // Both appends are in; the second stream's event is the later one.
          const readModels = await waitForReadModels(c, written.position);
          return c.json({ readModels }, 201);
        },
      );
}
