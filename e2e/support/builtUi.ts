import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Builds the admin UI the API serves, once per test or bench run: the root `npm run build:ui`
 * (which rebuilds `admin-ui/dist` only when it is missing or stale, or always with `force`) when
 * the repository has it, otherwise a plain Vite build of `admin-ui/`. The output is shown only
 * when the build fails.
 */
export function buildAdminUi({ force = false } = {}): void {
  const scripts: Record<string, string> =
    JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).scripts ?? {};
  const [command, args, cwd] = scripts['build:ui']
    ? ['npm', ['run', '--silent', 'build:ui', ...(force ? ['--', '--force'] : [])], repoRoot]
    : ['npx', ['--no-install', 'vite', 'build'], join(repoRoot, 'admin-ui')];
  const started = Date.now();
  const result = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
    // The production bundle, whatever NODE_ENV this process runs under (vitest sets `test`).
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (result.status !== 0)
    throw new Error(
      `building the admin UI failed (${command} ${args.join(' ')} in ${cwd}):\n${result.stdout}\n${result.stderr}`,
    );
  console.log(
    `admin UI ready for the browser suite in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
}
