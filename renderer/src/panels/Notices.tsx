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

export function PromptDialog() {
  const prompt = useEditor((s) => s.prompt);
  if (!prompt) return null;
  return (
    <div className="modal-backdrop">
      <div className="modal" role="dialog" aria-modal aria-labelledby="modal-title" data-testid="prompt">
        <div className="modal-title" id="modal-title">{prompt.title}</div>
        <div className="modal-text">{prompt.text}</div>
        <div className="modal-actions">
          {prompt.actions.map((a) => (
            <button key={a.label} className={`button${a.primary ? ' primary' : ''}`} autoFocus={a.primary} onClick={a.run}>{a.label}</button>
          ))}
        </div>
      </div>
    </div>
  );
}
