// `npm run build:ui`: builds the admin UI (admin-ui/dist) with Vite and writes gzip and brotli
// copies of its assets, which the API serves to browsers that accept them.
// It skips the build when dist is newer than every source of the UI (its own and what it bundles
// from events/ and api/); `--force` builds anyway.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const uiDir = fileURLToPath(new URL('../admin-ui/', import.meta.url));
const distDir = join(uiDir, 'dist');
// Outside admin-ui/: the code the UI bundles from the other workspaces (the field rules it shares
// with the API, the CSV column names), so a change there rebuilds it too.
const sources = [
  'src',
  'public',
  'index.html',
  'vite.config.ts',
  'package.json',
  '../events/src/rules',
  '../api/src/customers/csvColumns.ts',
];
const compressible = /\.(js|css|svg|json|txt|map)$/;

function* files(path) {
  let stats;
  try {
    stats = statSync(path);
  } catch {
    return;
  }
  if (!stats.isDirectory()) {
    yield { path, mtimeMs: stats.mtimeMs };
    return;
  }
  for (const entry of readdirSync(path)) yield* files(join(path, entry));
}

function isStale() {
  let builtAt;
  try {
    builtAt = statSync(join(distDir, 'index.html')).mtimeMs;
  } catch {
    return true;
  }
  return sources.some((source) =>
    [...files(join(uiDir, source))].some((file) => file.mtimeMs > builtAt),
  );
}

function precompress() {
  let count = 0;
  for (const { path } of files(join(distDir, 'assets'))) {
    if (!compressible.test(path)) continue;
    const content = readFileSync(path);
    writeFileSync(`${path}.gz`, gzipSync(content, { level: 9 }));
    writeFileSync(
      `${path}.br`,
      brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
    );
    count += 1;
  }
  return count;
}

if (!process.argv.includes('--force') && !isStale()) {
  console.log('admin UI: admin-ui/dist is up to date');
} else {
  // Vite keeps a NODE_ENV it inherits (vitest sets `test`), which would bundle React's
  // development build; this script only ever makes the production bundle.
  process.env.NODE_ENV = 'production';
  const { build } = await import('vite');
  const started = Date.now();
  await build({ root: uiDir, configFile: join(uiDir, 'vite.config.ts'), logLevel: 'warn' });
  const compressed = precompress();
  console.log(
    `admin UI: built admin-ui/dist in ${Date.now() - started} ms (${compressed} assets precompressed)`,
  );
}
