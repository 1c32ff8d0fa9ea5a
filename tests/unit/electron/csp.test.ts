import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { contentSecurityPolicy } from '../../../shared/ipc';
import { withCspMeta } from '../../../scripts/cspMeta';

const metaOf = (html: string): string => /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"/i.exec(html)![1]!;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? sources(full) : /\.(ts|tsx)$/.test(name) ? [full] : [];
  });
}

describe('one Content-Security-Policy', () => {
  it('the build writes into index.html exactly the policy main sends as a header', () => {
    const html = withCspMeta(readFileSync('renderer/index.html', 'utf8'), false);
    expect(metaOf(html)).toBe(contentSecurityPolicy());
    expect(metaOf(withCspMeta(readFileSync('renderer/index.html', 'utf8'), true))).toBe(contentSecurityPolicy({ dev: true }));
    expect(() => withCspMeta('<html><head></head></html>', false)).toThrow(/no <meta http-equiv="Content-Security-Policy"/);
  });

  it('production allows no inline script or style, no eval, no plugins, no foreign origins', () => {
    const policy = contentSecurityPolicy();
    const directives = new Map(policy.split('; ').map((d) => [d.split(' ')[0]!, d.split(' ').slice(1)]));
    expect(policy).not.toMatch(/unsafe-inline|unsafe-eval|wasm-unsafe-eval|\*|https?:/);
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(directives.get('style-src')).toEqual(["'self'"]);
    expect(directives.get('object-src')).toEqual(["'none'"]);
    expect(directives.get('default-src')).toEqual(["'self'"]);
    // Dev relaxes only what the Vite dev server needs.
    expect(contentSecurityPolicy({ dev: true })).toMatch(/script-src 'self' 'unsafe-inline'; .*style-src 'self' 'unsafe-inline'; .*connect-src 'self' data: blob: ws: wss:/);
  });

  it('nothing in the renderer writes a style attribute, a <style> element or HTML (which style-src \'self\' would block)', () => {
    const offenders: string[] = [];
    for (const file of sources('renderer/src')) {
      const text = readFileSync(file, 'utf8');
      for (const pattern of [/setAttribute\(\s*['"]style['"]/, /createElement\(\s*['"]style['"]/, /\.innerHTML\s*=/, /outerHTML|insertAdjacentHTML|dangerouslySetInnerHTML|insertRule\(/]) {
        if (pattern.test(text)) offenders.push(`${file}: ${pattern}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
