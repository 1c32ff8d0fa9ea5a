/**
 * The Vite plugin that writes the one Content-Security-Policy (shared/ipc.ts) into index.html's meta tag,
 * so the web build and the Electron header can never drift apart: the dev server gets the dev policy, a
 * build the production one. Fails the build when index.html has no CSP meta tag to fill.
 */
import type { Plugin } from 'vite';
import { contentSecurityPolicy } from '../shared/ipc';

const META = /(<meta\s+http-equiv="Content-Security-Policy"\s+content=")[^"]*(")/i;

export function withCspMeta(html: string, dev: boolean): string {
  if (!META.test(html)) throw new Error('index.html: no <meta http-equiv="Content-Security-Policy" content="…"> to fill with the policy of shared/ipc.ts.');
  return html.replace(META, (_m, open: string, close: string) => `${open}${contentSecurityPolicy({ dev })}${close}`);
}

export function cspMetaPlugin(): Plugin {
  return {
    name: 'marionette-csp-meta',
    transformIndexHtml: {
      order: 'pre',
      handler: (html, context) => withCspMeta(html, context.server !== undefined),
    },
  };
}
