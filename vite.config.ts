// One Vite build for the renderer: the same bundle is loaded by Electron (file://, hence base './') and
// served by `npm run web`. VITE_TEST_BUILD=1 makes the test build (see renderer/src/testing/testBuild.ts).
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { cspMetaPlugin } from './scripts/cspMeta';

const root = fileURLToPath(new URL('./renderer', import.meta.url));

export default defineConfig({
  root,
  base: './',
  plugins: [react(), cspMetaPlugin()],
  // glb/gltf are imported as URLs (the built-in creatures); listed so `?url`-less imports also work.
  assetsInclude: ['**/*.glb', '**/*.gltf', '**/*.bin'],
  build: {
    outDir: fileURLToPath(new URL('./dist-web', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 2000,
    assetsInlineLimit: 0,
  },
  worker: { format: 'es' },
  server: { fs: { allow: [fileURLToPath(new URL('.', import.meta.url))] } },
});
