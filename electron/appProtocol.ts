/**
 * The `app://marionette/` scheme: serves the built renderer (dist-web/) instead of file://, so that the
 * pages have a real origin (file:// pages can read every other file:// URL), the Content-Security-Policy
 * arrives as a response header, and ES modules, workers and fetch behave as on the web.
 */
import * as path from 'node:path';

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm', // instantiateStreaming insists on this type
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.glb': 'model/gltf-binary',
  '.gltf': 'model/gltf+json',
  '.bin': 'application/octet-stream',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
};

export function mimeTypeOf(file: string): string {
  return MIME[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * The file under `root` that `requestUrl` names, or null (→ 404) when the URL is for another host or its
 * path, after percent-decoding and `..` resolution, would leave `root`.
 */
export function resolveAppFile(requestUrl: string, root: string, host: string): string | null {
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return null;
  }
  if (url.host !== host) return null;
  let pathname: string;
  try {
    pathname = decodeURIComponent(url.pathname);
  } catch {
    return null;
  }
  if (pathname.includes('\0')) return null;
  if (pathname === '/' || pathname === '') pathname = '/index.html';
  const absoluteRoot = path.resolve(root);
  const file = path.resolve(absoluteRoot, `.${path.posix.normalize(pathname)}`);
  const rel = path.relative(absoluteRoot, file);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return null;
  return file;
}
