/**
 * Whose is a key press: the focused control's, or the editor's shortcuts'? One rule for every plain-key
 * shortcut (Space, F, W/E/R, C, ".", ","), so none of them fires while the user types.
 *
 * A control "takes typing" when printable keys go into it: a textarea, a contentEditable element, a select
 * (type-ahead; Space opens it) and a text-like input (text, number, search, email, password, url, tel,
 * dates…). Buttons, checkboxes, radios, sliders and colour pickers do not take typing — a shortcut still
 * fires there (after clicking Play, Space pauses), and the handler cancels the key so the focused button
 * is not activated as well.
 */
const NOT_TEXT = new Set(['button', 'submit', 'reset', 'image', 'checkbox', 'radio', 'range', 'color', 'file', 'hidden']);

interface KeyTargetLike { tagName?: unknown; type?: unknown; isContentEditable?: unknown }

export function takesTyping(target: unknown): boolean {
  if (typeof target !== 'object' || target === null) return false;
  const t = target as KeyTargetLike;
  if (t.isContentEditable === true) return true;
  const tag = typeof t.tagName === 'string' ? t.tagName.toUpperCase() : '';
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag !== 'INPUT') return false;
  const type = typeof t.type === 'string' ? t.type.toLowerCase() : 'text';
  return !NOT_TEXT.has(type);
}

/** Space activates a focused button, checkbox, radio or link on key-up (HTML): the editor must cancel both
 *  key events when Space is its play/pause, or a focused toolbar button would be pressed too. */
export function activatesOnSpace(target: unknown): boolean {
  if (typeof target !== 'object' || target === null) return false;
  const t = target as KeyTargetLike;
  const tag = typeof t.tagName === 'string' ? t.tagName.toUpperCase() : '';
  if (tag === 'BUTTON' || tag === 'SUMMARY' || tag === 'A') return true;
  const type = typeof t.type === 'string' ? t.type.toLowerCase() : '';
  return tag === 'INPUT' && ['button', 'submit', 'reset', 'image', 'checkbox', 'radio'].includes(type);
}
