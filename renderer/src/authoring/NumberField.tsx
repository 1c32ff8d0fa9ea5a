/**
 * A number field that edits the document when the user is done (Enter or blur; Escape reverts): the text
 * is parsed here ("abc" is refused before anything runs), then `onCommit` runs the edit. A refusal —
 * ours or the edit's { field, message } — is shown under the field and the document keeps its value.
 * `scale` converts between what is shown and what is stored (degrees shown, radians stored: 180/π); a
 * refusal is said in the field's unit and words (shared/editor fieldMessage: degrees, not radians; "must be
 * ≥ 0 kg", not zod's wording). Escape puts back the last valid value (the document's) without committing.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { fieldMessage } from '../../../shared/editor/fieldMessages';
import type { FieldError } from './rigEdit';
import { parseNumber } from './parseNumber';

export { parseNumber };

export interface NumberFieldProps {
  label: string;
  value: number | null;
  unit?: string;
  /** Shown = stored × scale. */
  scale?: number;
  digits?: number;
  /** Returns null when accepted, else the refusal. */
  onCommit: (stored: number) => FieldError | string | null;
  disabled?: boolean;
  /** Stable id for tests and labels (defaults to the label). */
  name?: string;
  placeholder?: string;
}

export function formatNumber(v: number, digits = 3): string {
  if (!Number.isFinite(v)) return String(v);
  const r = Number(v.toFixed(digits));
  return String(Object.is(r, -0) ? 0 : r);
}


export function NumberField({ label, value, unit, scale = 1, digits = 3, onCommit, disabled, name, placeholder }: NumberFieldProps) {
  const shown = value === null ? '' : formatNumber(value * scale, digits);
  const [text, setText] = useState(shown);
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  // Escape blurs the input, and the blur would commit the text it is reverting: skip that one commit.
  const reverting = useRef(false);
  useEffect(() => { setText(shown); setError(null); }, [shown]);

  const commit = () => {
    if (reverting.current) { reverting.current = false; return; }
    if (text === shown) { setError(null); return; }
    const v = parseNumber(text);
    if (v === null) { setError(`${label}: must be a number${unit ? ` (${unit})` : ''}, got “${text}”`); return; }
    const r = onCommit(v / scale);
    if (r === null) { setError(null); return; }
    setError(`${label}: ${fieldMessage(typeof r === 'string' ? r : r.message, { unit, scale, digits })}`);
  };

  return (
    <span className={`number-field${error ? ' invalid' : ''}`} data-field={name ?? label}>
      <span className="number-input">
        <input
          id={id}
          className="field num"
          aria-label={label}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          value={text}
          placeholder={placeholder}
          disabled={disabled}
          inputMode="decimal"
          onChange={(e) => { setText(e.target.value); }}
          onFocus={() => { reverting.current = false; }}
          onBlur={commit}
          onKeyDown={(e) => {
            if (e.key === 'Enter') commit();
            if (e.key === 'Escape') { reverting.current = true; setText(shown); setError(null); (e.target as HTMLElement).blur(); }
            e.stopPropagation();
          }}
        />
        {unit && <span className="number-unit">{unit}</span>}
      </span>
      {error && <span className="field-error" id={`${id}-error`} role="alert">{error}</span>}
    </span>
  );
}

/** A labelled row holding one or more fields. */
export function FieldRow({ label, children, hint }: { label: string; children: React.ReactNode; hint?: string }) {
  return (
    <div className="prop-row authoring-row" title={hint}>
      <span className="prop-label">{label}</span>
      <span className="prop-fields">{children}</span>
    </div>
  );
}
