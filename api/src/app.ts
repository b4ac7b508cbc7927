import type { Hono } from 'hono';
import { healthRoutes } from './health';
import { type AppDependencies, type AppEnv, buildApp, type Feature } from './http';

/** Every feature's routes, each mounted under `/api`: one line per feature. */
export const features: readonly Feature[] = [healthRoutes];

export function createApp(deps: AppDependencies): Hono<AppEnv> {
  return buildApp(deps, features);
}
