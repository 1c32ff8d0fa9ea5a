// The test build (VITE_TEST_BUILD=1, or ?test in the URL) keeps the drawing buffer so e2e tests can read
// the canvas' pixels, and exposes the window.__marionette* hooks (testHooks.ts, installed by main.tsx).
export const isTestBuild: boolean =
  import.meta.env.VITE_TEST_BUILD === '1' || (typeof location !== 'undefined' && new URLSearchParams(location.search).has('test'));
