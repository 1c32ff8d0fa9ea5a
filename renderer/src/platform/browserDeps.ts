/** The real browser behind WebPlatformDeps: a hidden <input type=file>, <a download>, fetch, document.title. */
import type { WebPlatformDeps } from './web';
import { createMemoryStore, openIndexedDbStore, type KeyValueStore } from './storage';

function pickFiles(accept: string, multiple: boolean): Promise<File[]> {
  return new Promise((resolve) => {
    const input = document.createElement('input');
    input.type = 'file';
    input.accept = accept;
    input.multiple = multiple;
    input.style.display = 'none';
    input.dataset.marionettePicker = multiple ? 'creature' : 'project'; // e2e tests find the input by this
    const finish = (files: File[]): void => {
      input.remove();
      resolve(files);
    };
    input.addEventListener('change', () => finish(Array.from(input.files ?? [])), { once: true });
    // Chrome 113+ / Firefox 91+ fire 'cancel' when the dialog is dismissed; without it the promise would hang.
    input.addEventListener('cancel', () => finish([]), { once: true });
    document.body.appendChild(input);
    input.click();
  });
}

function download(fileName: string, data: string | Uint8Array, type = 'application/json'): void {
  const url = URL.createObjectURL(new Blob([data as BlobPart], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Revoking at once can cancel the download in some browsers; a minute is far longer than it needs.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

async function fetchBytes(url: string): Promise<Uint8Array> {
  let response: Response;
  try {
    response = await fetch(url);
  } catch (error) {
    throw new Error(`${url} cannot be fetched: ${(error as Error).message}`, { cause: error });
  }
  if (!response.ok) throw new Error(`${url} is not there (HTTP ${response.status}).`);
  return new Uint8Array(await response.arrayBuffer());
}

const confirmLeave = (event: BeforeUnloadEvent): void => {
  event.preventDefault();
  // Older Chromium needs returnValue set to show the prompt (the text itself is not shown).
  event.returnValue = '';
};

function openStore(): KeyValueStore {
  try {
    if (typeof indexedDB !== 'undefined') return openIndexedDbStore();
  } catch {
    // fall through: storage disabled by the browser
  }
  console.warn('Marionette: browser storage (IndexedDB) is unavailable; saved projects last until the page closes.');
  return createMemoryStore();
}

export function browserDeps(): WebPlatformDeps {
  let guarded = false;
  return {
    store: openStore(),
    pickFiles,
    download,
    fetchBytes,
    setTitle: (title) => {
      document.title = title;
    },
    setLeaveGuard: (active) => {
      if (active === guarded) return;
      guarded = active;
      if (active) window.addEventListener('beforeunload', confirmLeave);
      else window.removeEventListener('beforeunload', confirmLeave);
    },
    now: () => Date.now(),
  };
}
