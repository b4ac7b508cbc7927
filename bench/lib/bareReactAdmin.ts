import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { build } from 'vite';

const fixtureDir = fileURLToPath(new URL('../fixtures/bare-react-admin', import.meta.url));

/**
 * Builds the UI bench's baseline (bench/fixtures/bare-react-admin) into `outDir` with the same
 * Vite and React plugin as admin-ui/. `precompress`: also write `.gz` and `.br` beside each asset,
 * as the admin UI's build (scripts/buildUi.mjs) does, so both are served alike.
 */
export async function buildBareReactAdmin(outDir: string, { precompress = false } = {}) {
  await build({
    root: fixtureDir,
    configFile: false,
    logLevel: 'warn',
    plugins: [react()],
    build: { outDir, emptyOutDir: true, chunkSizeWarningLimit: 4096 },
  });
  if (!precompress) return;
  const assets = join(outDir, 'assets');
  for (const name of await readdir(assets)) {
    const content = await readFile(join(assets, name));
    await writeFile(join(assets, `${name}.gz`), gzipSync(content, { level: 9 }));
    await writeFile(
      join(assets, `${name}.br`),
      brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
    );
  }
}
