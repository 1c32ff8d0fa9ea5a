/** Text of a number field → a finite number, or null for anything else ("abc", "1.2.3", ""). A comma
 *  is read as the decimal point. */
export function parseNumber(text: string): number | null {
  const t = text.trim().replace(/,/g, '.');
  if (t === '' || !/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(t)) return null;
  const v = Number(t);
  return Number.isFinite(v) ? v : null;
}
