/**
 * Who may talk to main, and what the windows may load. Pure functions (tested without Electron) plus
 * the one function that applies them to a webContents.
 *
 * The app's pages come from one place: the `app://marionette/` scheme (production, files of dist-web/
 * served by appProtocol.ts) or the Vite dev server (development). An IPC message from any other frame —
 * a navigated-away page, an injected iframe — is refused, as Electron's checklist item "validate the
 * sender of all IPC messages" asks.
 */
import type { WebContents } from 'electron';

export const APP_SCHEME = 'app';
export const APP_HOST = 'marionette';
export const APP_ENTRY_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

export interface AppOrigins {
  /** The Vite dev server URL in development (VITE_DEV_SERVER_URL), else null. */
  devServerUrl: string | null;
}

/** Is `url` one of the app's own pages? (Custom schemes have an opaque "null" URL.origin, so compare parts.) */
export function isAppUrl(url: string, origins: AppOrigins): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST) return true;
  if (origins.devServerUrl !== null) {
    const dev = new URL(origins.devServerUrl);
    return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.origin === dev.origin;
  }
  return false;
}

/** The part of an IPC event the sender check reads (IpcMainEvent / IpcMainInvokeEvent). */
export interface IpcSender {
  senderFrame: { url: string; parent: unknown } | null;
}

/** The sender is trusted when it is the top frame of one of the app's pages. null frame = already gone. */
export function checkSender(event: IpcSender, origins: AppOrigins): { ok: true } | { ok: false; reason: string } {
  const frame = event.senderFrame;
  if (frame === null) return { ok: false, reason: 'the sending frame is gone' };
  if (frame.parent !== null) return { ok: false, reason: `a sub-frame (${frame.url}) may not use the platform API` };
  if (!isAppUrl(frame.url, origins)) return { ok: false, reason: `${frame.url || '(blank page)'} is not a Marionette page` };
  return { ok: true };
}

/**
 * Deny everything a document editor never needs: navigation away from the app (a dropped file or a link
 * would otherwise replace the UI with a page that can reach the preload), new windows, web views and
 * permission prompts (camera, geolocation, ...). Links to the web are not opened either: the app has none.
 */
export function hardenWebContents(contents: WebContents, origins: AppOrigins): void {
  contents.on('will-navigate', (event, url) => {
    if (!isAppUrl(url, origins)) event.preventDefault();
  });
  contents.on('will-redirect', (event, url) => {
    if (!isAppUrl(url, origins)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  contents.session.setPermissionRequestHandler((_contents, permission, callback) => {
    // Clipboard writes for "copy" in text fields are the only thing a page of ours asks for.
    callback(permission === 'clipboard-sanitized-write');
  });
  contents.session.setPermissionCheckHandler((_contents, permission) => permission === 'clipboard-sanitized-write');
}
