// Flat config. The layer rules are the point: shared/ stays pure, the renderer reaches the platform only
// through its bridge. A violation fails `npm run lint`.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const uiOrPlatform = [
  { name: 'react', message: 'shared/ is pure TypeScript: no React.' },
  { name: 'react-dom', message: 'shared/ is pure TypeScript: no React.' },
  { name: 'electron', message: 'shared/ is pure TypeScript: no Electron.' },
  { name: 'three', message: 'shared/ is independent of three.js: use shared/math.' },
  { name: 'zustand', message: 'shared/ holds no UI state.' },
];
const uiOrPlatformPatterns = [
  { group: ['three/*', 'three/examples/*', 'three/addons/*'], message: "shared/ must not import three.js or its examples." },
  { group: ['@react-three/*'], message: 'shared/ must not import react-three.' },
  { group: ['node:*', 'fs', 'fs/*', 'path', 'os', 'child_process', 'worker_threads', 'url'], message: 'shared/ runs in the browser too: no Node modules.' },
  { group: ['**/renderer/**', '**/renderer', '**/electron/**', '**/electron', '**/cli/**', '**/tests/**'], message: 'shared/ must not import the renderer, electron, cli or tests (dependencies point one way: into shared).' },
];

export default tseslint.config(
  { ignores: ['node_modules/**', 'out/**', 'dist/**', 'dist-web/**', 'release/**', 'coverage/**', '**/*.d.ts', 'assets/creatures/**', '.tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    files: ['shared/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: uiOrPlatform, patterns: uiOrPlatformPatterns }] },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [{ name: 'electron', message: 'The renderer reaches the platform only through renderer/src/platform/bridge.ts.' }],
        patterns: [{ group: ['**/electron/**', '**/electron', '**/cli/**'], message: 'The renderer must not import electron/ or cli/ code.' }],
      }],
    },
  },
);
