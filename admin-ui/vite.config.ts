import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const local = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * Replaces the built index.html's entry script with startAfterFirstPaint.js, which requests it
 * after the splash is painted. Even a 2 KB entry started before that paint cost about 150 ms of
 * first contentful paint under Lighthouse's mobile profile (one more round trip on slow 4G).
 */
function startAfterFirstPaint(): Plugin {
  const entryScript = /<script type="module" crossorigin src="([^"]+)"><\/script>/;
  return {
    name: 'issuer:start-after-first-paint',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        const entry = html.match(entryScript)?.[1];
        if (!entry) throw new Error('index.html: the entry <script type="module"> was not found');
        const loader = readFileSync(local('startAfterFirstPaint.js'), 'utf8').replace(
          /^\/\/.*\n/gm,
          '',
        );
        return html.replace(
          entryScript,
          `<script>\n${loader.replace('__ENTRY__', entry)}</script>`,
        );
      },
    },
  };
}

/** `npm run dev:ui`: Vite on :5173, the API (npm start, :3000 unless API_URL) behind /api. */
export default defineConfig({
  plugins: [react(), startAfterFirstPaint()],
  resolve: {
    alias: {
      // node-polyglot's `object.entries` polyfill pulls in es-abstract's intrinsics (about 4 KB
      // gzip); every browser the portal supports has Object.entries.
      'object.entries': local('src/shims/objectEntries.cjs'),
    },
  },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false },
  server: {
    // `/sign/:token` is the API's public signing page, served beside the UI.
    proxy: {
      '/api': process.env.API_URL ?? 'http://localhost:3000',
      '/sign': process.env.API_URL ?? 'http://localhost:3000',
    },
  },
});
