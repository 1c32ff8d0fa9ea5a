import { useEffect } from 'react';
import { useEditor } from '../state/store';
import { dismissToast } from '../state/editor';

export function Toasts() {
  const toasts = useEditor((s) => s.toasts);
  return (
    <div className="toasts" aria-live="polite">
      {toasts.map((t) => (
        <div key={t.id} className={`toast ${t.kind}`} role={t.kind === 'error' ? 'alert' : 'status'} data-testid={`toast-${t.kind}`}>
          <span className="toast-icon">{t.kind === 'error' ? '!' : 'i'}</span>
          <span className="toast-text">{t.text}</span>
          <button className="toast-close" aria-label="Dismiss" onClick={() => dismissToast(t.id)}>×</button>
        </div>
      ))}
    </div>
  );
}

/** A modal question (About, unsaved changes, a missing creature …). Escape answers with the last action —
 *  the cancel, or About's OK — as the native dialogs do. */
export function PromptDialog() {
  const prompt = useEditor((s) => s.prompt);
  useEffect(() => {
    if (!prompt) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      e.preventDefault();
      e.stopPropagation();
      prompt.actions.at(-1)?.run();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [prompt]);
  if (!prompt) return null;
  return (
    <div className="modal-backdrop">
      <div className="modal" role="dialog" aria-modal aria-labelledby="modal-title" data-testid="prompt">
        <div className="modal-title" id="modal-title">{prompt.title}</div>
        <div className="modal-text" style={{ whiteSpace: 'pre-line' }}>{prompt.text}</div>
        <div className="modal-actions">
          {prompt.actions.map((a) => (
            <button key={a.label} className={`button${a.primary ? ' primary' : ''}`} autoFocus={a.primary} onClick={a.run}>{a.label}</button>
          ))}
        </div>
      </div>
    </div>
  );
}
