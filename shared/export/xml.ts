/**
 * Small pure XML writer and reader for the MJCF export and import (shared/ has no DOMParser). The reader
 * handles what MJCF files use: elements, attributes in single or double quotes, comments, the XML
 * declaration, CDATA-free text (ignored) and the five predefined entities plus numeric ones.
 */

export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  /** 1-based line of the start tag, for messages. */
  line?: number;
}

export function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

/** A comment body that is valid XML ("--" is not allowed inside a comment). */
export function xmlComment(text: string): string {
  return `<!--${text.replace(/--/g, '- -').replace(/-$/, '- ')}-->`;
}

/** Serialise an element tree, two spaces per level; attributes in insertion order. */
export function writeXml(e: XmlElement, indent = 0, comments: ReadonlyMap<XmlElement, string> = new Map()): string {
  const pad = '  '.repeat(indent);
  const comment = comments.get(e);
  const head = comment !== undefined ? `${pad}${xmlComment(` ${comment} `)}\n` : '';
  const attrs = Object.entries(e.attributes).map(([k, v]) => ` ${k}="${escapeXml(v)}"`).join('');
  if (e.children.length === 0) return `${head}${pad}<${e.name}${attrs}/>\n`;
  return `${head}${pad}<${e.name}${attrs}>\n${e.children.map((c) => writeXml(c, indent + 1, comments)).join('')}${pad}</${e.name}>\n`;
}

export class XmlError extends Error {
  override name = 'XmlError';
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function unescape(s: string, line: number): string {
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (m, body: string) => {
    if (body.startsWith('#x')) return String.fromCodePoint(parseInt(body.slice(2), 16));
    if (body.startsWith('#')) return String.fromCodePoint(parseInt(body.slice(1), 10));
    const v = ENTITIES[body];
    if (v === undefined) throw new XmlError(`line ${line}: unknown entity ${m}`);
    return v;
  });
}

/** Parse a document into its root element. Throws XmlError naming the line and the reason. */
export function parseXml(text: string): XmlElement {
  let i = 0, line = 1;
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  const advance = (to: number) => { for (let k = i; k < to; k++) if (text.charCodeAt(k) === 10) line++; i = to; };
  while (i < text.length) {
    const lt = text.indexOf('<', i);
    if (lt < 0) { advance(text.length); break; }
    const between = text.slice(i, lt);
    if (between.trim() !== '' && stack.length === 0) throw new XmlError(`line ${line}: text outside the root element`);
    advance(lt);
    if (text.startsWith('<!--', i)) {
      const end = text.indexOf('-->', i + 4);
      if (end < 0) throw new XmlError(`line ${line}: unterminated comment`);
      advance(end + 3);
      continue;
    }
    if (text.startsWith('<?', i)) {
      const end = text.indexOf('?>', i);
      if (end < 0) throw new XmlError(`line ${line}: unterminated declaration`);
      advance(end + 2);
      continue;
    }
    if (text.startsWith('<!', i)) {
      const end = text.indexOf('>', i);
      if (end < 0) throw new XmlError(`line ${line}: unterminated <!`);
      advance(end + 1);
      continue;
    }
    if (text.startsWith('</', i)) {
      const end = text.indexOf('>', i);
      if (end < 0) throw new XmlError(`line ${line}: unterminated end tag`);
      const name = text.slice(i + 2, end).trim();
      const open = stack.pop();
      if (!open) throw new XmlError(`line ${line}: </${name}> closes nothing`);
      if (open.name !== name) throw new XmlError(`line ${line}: </${name}> closes <${open.name}> (line ${open.line})`);
      advance(end + 1);
      continue;
    }
    // Start tag: name, attributes, optional '/'.
    const startLine = line;
    let j = i + 1;
    const nameMatch = /^[A-Za-z_][\w.:-]*/.exec(text.slice(j, j + 256));
    if (!nameMatch) throw new XmlError(`line ${line}: expected an element name after '<'`);
    const el: XmlElement = { name: nameMatch[0], attributes: {}, children: [], line: startLine };
    j += nameMatch[0].length;
    let selfClosing = false;
    for (;;) {
      while (j < text.length && /\s/.test(text[j]!)) { if (text[j] === '\n') line++; j++; }
      if (j >= text.length) throw new XmlError(`line ${startLine}: unterminated <${el.name}>`);
      if (text[j] === '>') { j++; break; }
      if (text.startsWith('/>', j)) { j += 2; selfClosing = true; break; }
      const a = /^([A-Za-z_][\w.:-]*)\s*=\s*("([^"]*)"|'([^']*)')/.exec(text.slice(j, j + 100000));
      if (!a) throw new XmlError(`line ${line}: malformed attribute in <${el.name}>`);
      const value = a[3] ?? a[4] ?? '';
      if (a[1]! in el.attributes) throw new XmlError(`line ${line}: <${el.name}> repeats attribute ${a[1]}`);
      el.attributes[a[1]!] = unescape(value, line);
      for (const ch of a[0]) if (ch === '\n') line++;
      j += a[0].length;
    }
    i = j;
    const parent = stack[stack.length - 1];
    if (parent) parent.children.push(el);
    else if (root) throw new XmlError(`line ${startLine}: a second root element <${el.name}>`);
    else root = el;
    if (!selfClosing) stack.push(el);
  }
  if (stack.length > 0) throw new XmlError(`<${stack[stack.length - 1]!.name}> (line ${stack[stack.length - 1]!.line}) is never closed`);
  if (!root) throw new XmlError('no root element');
  return root;
}
