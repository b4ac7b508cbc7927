import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** `npm run dev:ui`: Vite on :5173, the API (npm start, :3000 unless API_URL) behind /api. */
export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false },
  server: {
    proxy: { '/api': process.env.API_URL ?? 'http://localhost:3000' },
  },
});
