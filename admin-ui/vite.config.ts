import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { build, defineConfig, type Plugin, type Rolldown } from 'vite';

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

/**
 * What each stage of opening the app loads: `boot` (React, the messages, the session; it lands in
 * the entry chunk, which index.html requests only after the splash's first paint) and `shell`
 * (App: react-admin, MUI, the layout), then what the two first screens add: the login page and,
 * after sign-in, the customers list (what both need, the forms, in a chunk of its own, so the
 * login page does not load the list's code). Automatic splitting cut these into dozens of small
 * chunks shared in every combination by the lazy screens (89 scripts, 381 KB gzip for the first
 * screen after sign-in); one file per stage compresses far better (a few scripts, about 340 KB).
 * Lazy screens still load on demand and take what they share with a stage from its chunk.
 */
const stages = [
  { name: 'boot', entry: 'src/boot.tsx' },
  { name: 'shell', entry: 'src/App.tsx' },
];
const firstScreens = [
  { name: 'login', entry: 'src/auth/LoginPage.tsx' },
  { name: 'first-screen', entry: 'src/customers/CustomerList.tsx' },
];

/**
 * A first, unwritten build with automatic splitting tells which modules each stage really loads
 * (after tree-shaking, which a walk of the import graph through react-admin's and MUI's barrels
 * cannot tell); the real build then makes one chunk of each stage and of each combination of the
 * first screens that share modules.
 */
function stageChunks(): Plugin {
  return {
    name: 'issuer:stage-chunks',
    apply: (_config, env) => env.command === 'build' && !process.env.ISSUER_STAGE_PROBE,
    async config() {
      process.env.ISSUER_STAGE_PROBE = '1';
      let output: Rolldown.RolldownOutput;
      try {
        output = (await build({
          root: local('.'),
          configFile: local('vite.config.ts'),
          logLevel: 'silent',
          build: { write: false, minify: false },
        })) as Rolldown.RolldownOutput;
      } finally {
        delete process.env.ISSUER_STAGE_PROBE;
      }
      const chunks = new Map(
        output.output.flatMap((file) => (file.type === 'chunk' ? [[file.fileName, file]] : [])),
      );
      /** Every module the chunk starting at `entry` needs before it runs. */
      const loadedWith = (entry: string) => {
        const root = [...chunks.values()].find((chunk) => chunk.facadeModuleId === local(entry));
        if (!root) throw new Error(`stage chunks: no chunk starts at ${entry}`);
        const modules = new Set<string>();
        const pending = [root.fileName];
        const visited = new Set<string>();
        while (pending.length > 0) {
          const chunk = chunks.get(pending.pop() as string);
          if (!chunk || visited.has(chunk.fileName)) continue;
          visited.add(chunk.fileName);
          for (const id of chunk.moduleIds) modules.add(id);
          pending.push(...chunk.imports);
        }
        return modules;
      };
      const stageOf = new Map<string, string>();
      for (const { name, entry } of stages)
        for (const id of loadedWith(entry)) if (!stageOf.has(id)) stageOf.set(id, name);
      const screensOf = new Map<string, string[]>();
      for (const { name, entry } of firstScreens)
        for (const id of loadedWith(entry))
          if (!stageOf.has(id)) screensOf.set(id, [...(screensOf.get(id) ?? []), name]);
      for (const [id, screens] of screensOf) stageOf.set(id, screens.join('~'));
      const names = [...new Set(stageOf.values())];
      // Earlier stages claim first, then what several screens share, then each screen's own.
      const priority = (name: string) => {
        const stage = stages.findIndex((s) => s.name === name);
        return stage >= 0 ? 100 - stage : name.split('~').length;
      };
      return {
        build: {
          rolldownOptions: {
            output: {
              codeSplitting: {
                groups: names.map((name) => ({
                  name,
                  test: (id: string) => stageOf.get(id) === name,
                  priority: priority(name),
                })),
              },
            },
          },
        },
      };
    },
  };
}

/** `npm run dev:ui`: Vite on :5173, the API (npm start, :3000 unless API_URL) behind /api. */
export default defineConfig({
  plugins: [react(), startAfterFirstPaint(), stageChunks()],
  resolve: {
    alias: {
      // node-polyglot's `object.entries` polyfill pulls in es-abstract's intrinsics (about 4 KB
      // gzip); every browser the portal supports has Object.entries.
      'object.entries': local('src/shims/objectEntries.cjs'),
      // react-admin's default CSV exporter: every list sets `exporter={false}` (about 2.3 KB gzip).
      'jsonexport/dist/index.js': local('src/shims/jsonexport.cjs'),
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    // The shell is one chunk by design (stageChunks): about 530 kB minified, 170 kB gzip.
    chunkSizeWarningLimit: 800,
  },
  server: {
    // `/sign/:token` is the API's public signing page, served beside the UI.
    proxy: {
      '/api': process.env.API_URL ?? 'http://localhost:3000',
      '/sign': process.env.API_URL ?? 'http://localhost:3000',
    },
  },
});
