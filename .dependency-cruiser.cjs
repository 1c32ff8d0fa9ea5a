// Architecture rules, checked by dependency-cruiser in `npm run lint` (`npm run lint:arch`: depcruise on
// shared/, renderer/, electron/ and cli/; tests/unit/architecture.test.ts shows each rule firing). They
// repeat eslint.config.js's layer rules on the resolved import graph — type-only imports and re-exports
// included — and add what a per-file lint cannot see: cycles.
//  - no import cycles anywhere in the four folders (a cycle is broken by moving the piece both files need
//    into its own module);
//  - shared/ imports nothing from renderer/, electron/, cli/, tests/ or bench/, and no React, Electron,
//    three (core or examples), react-three, zustand or Node built-ins. The DOM has no import to forbid:
//    tsconfig.shared.json leaves the DOM library out, so a DOM API in shared/ fails the typecheck;
//  - renderer/ reaches the platform only through its bridge: no electron/, cli/ or `electron` module.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import cycle: move what both modules need into a module of its own.',
      from: { path: '^(shared|renderer|electron|cli)/' },
      to: { circular: true },
    },
    {
      name: 'shared-imports-only-shared',
      severity: 'error',
      comment: 'shared/ is pure: dependencies point one way, into shared/.',
      from: { path: '^shared/' },
      to: { path: '^(renderer|electron|cli|tests|bench|scripts|assets/scripts)/' },
    },
    {
      name: 'shared-no-ui-or-platform',
      severity: 'error',
      comment: 'shared/ runs in Node, the browser, a Web Worker and a game: no React, Electron, three, react-three or UI state.',
      from: { path: '^shared/' },
      to: { path: '(^|/)node_modules/(react|react-dom|electron|three|@react-three/[^/]+|zustand)/' },
    },
    {
      name: 'shared-no-ui-or-platform-unresolved',
      severity: 'error',
      comment: 'shared/ must not name React, Electron, three, react-three or zustand even where they do not resolve.',
      from: { path: '^shared/' },
      to: { couldNotResolve: true, path: '^(react|react-dom|electron|three|@react-three/.+|zustand)(/|$)' },
    },
    {
      name: 'shared-no-node',
      severity: 'error',
      comment: 'shared/ runs in the browser too: no Node built-ins.',
      from: { path: '^shared/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'renderer-through-bridge',
      severity: 'error',
      comment: 'The renderer reaches the platform only through renderer/src/platform/bridge.ts: no electron/, cli/ or the electron module.',
      from: { path: '^renderer/' },
      to: { path: '^(electron|cli)/|(^|/)node_modules/electron/|^electron$' },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'An import that does not resolve (a typo, or a package missing from package.json).',
      from: { path: '^(shared|renderer|electron|cli)/' },
      to: { couldNotResolve: true, pathNot: '^(virtual|/@vite|vite/)' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.d\\.ts$' },
    // Type-only imports count: a cycle through types is still two modules that must change together.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.mts', '.js', '.mjs', '.cjs', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
