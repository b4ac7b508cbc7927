import { Hono } from 'hono';
import { serveForBench } from './serve';

/** Baseline: what Hono on @hono/node-server does with no work at all. */
const app = new Hono();
app.get('/hello', (c) => c.json({ hello: 'world' }));
serveForBench(app);
