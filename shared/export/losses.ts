/** What an export carries over exactly, approximately, or not at all: written into the file and shown to the user. */
export interface ExportLosses {
  exact: string[];
  approximated: string[];
  lost: string[];
}

export function lossesText(format: string, l: ExportLosses): string {
  const list = (title: string, items: string[]) => (items.length ? `${title}:\n${items.map((s) => `  - ${s}`).join('\n')}\n` : '');
  return `Marionette ${format} export. See docs/interop.md.\n${list('Carried over exactly', l.exact)}${list('Approximated', l.approximated)}${list('Lost', l.lost)}`;
}
