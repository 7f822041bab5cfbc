// A small namespace-aware XML reader for WSDL imports: elements (with their namespace URI and local name),
// attributes, character data, comments, CDATA sections and processing instructions; the five predefined entities
// and character references. Hand-written rather than a dependency (the design names fast-xml-parser, which this
// package does not carry yet) because a WSDL needs only this much, and because refusing DTDs outright is the
// safe answer for documents uploaded by users: a DOCTYPE with an internal subset (entity declarations, the
// "billion laughs" and external-entity attacks) is rejected, never expanded. Not a validating parser.

export interface XmlName {
  /** Namespace URI; '' when the name is in no namespace. */
  ns: string;
  local: string;
}

export interface XmlElement extends XmlName {
  /** The name as written (`wsdl:service`). */
  qname: string;
  /** Attributes by name as written (`name`, `xmlns:tns`); values with entities decoded. */
  attributes: ReadonlyMap<string, string>;
  children: XmlElement[];
  /** Character data directly inside the element (children's text excluded). */
  text: string;
  line: number;
  /** Resolves a QName-valued attribute (`tns:Calculator`) in this element's namespace scope. */
  resolve(qname: string): XmlName | undefined;
}

export class XmlError extends Error {
  override readonly name = 'XmlError';
  readonly line: number;
  constructor(message: string, line: number) {
    super(`${message} (line ${line})`);
    this.line = line;
  }
}

const XML_NS = 'http://www.w3.org/XML/1998/namespace';
const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';
const NAME = /[A-Za-z_\u00C0-\uFFFF][\w.\-\u00B7\u00C0-\uFFFF]*(?::[A-Za-z_\u00C0-\uFFFF][\w.\-\u00B7\u00C0-\uFFFF]*)?/y;
const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

interface Open {
  element: XmlElement;
  scope: ReadonlyMap<string, string>;
}

export function parseXml(source: string): XmlElement {
  let pos = source.charCodeAt(0) === 0xfeff ? 1 : 0;
  let lineAt = 0;
  let line = 1;
  const currentLine = (): number => {
    for (; lineAt < pos && lineAt < source.length; lineAt++) if (source.charCodeAt(lineAt) === 10) line++;
    return line;
  };
  const fail = (message: string): never => {
    throw new XmlError(message, currentLine());
  };
  const stack: Open[] = [];
  let root: XmlElement | undefined;
  const rootScope = new Map([['xml', XML_NS], ['xmlns', XMLNS_NS]]);

  const addText = (text: string): void => {
    const top = stack.at(-1);
    if (top) top.element.text += text;
    else if (text.trim() !== '') fail('text outside the root element');
  };
  const until = (marker: string, from: number, what: string): number => {
    const end = source.indexOf(marker, from);
    if (end === -1) fail(`unterminated ${what}`);
    return end;
  };
  const readName = (): string => {
    NAME.lastIndex = pos;
    const match = NAME.exec(source);
    if (!match) fail('expected a name');
    pos += match![0].length;
    return match![0];
  };
  const skipSpace = (): void => {
    while (pos < source.length && /\s/.test(source[pos]!)) pos++;
  };
  const decode = (raw: string): string =>
    raw.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[A-Za-z][\w.-]*);|&/g, (whole, ref: string | undefined) => {
      if (ref === undefined) return fail('a bare & must be written &amp;');
      if (ref.startsWith('#')) {
        const code = ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
        if (!(code > 0 && code <= 0x10ffff)) fail(`invalid character reference ${whole}`);
        return String.fromCodePoint(code);
      }
      return ENTITIES[ref] ?? fail(`undefined entity ${whole} (only the predefined XML entities are supported)`);
    });

  const openTag = (): void => {
    const elementLine = currentLine();
    pos++; // '<'
    const qname = readName();
    const raw = new Map<string, string>();
    for (;;) {
      const before = pos;
      skipSpace();
      if (source.startsWith('/>', pos) || source[pos] === '>') break;
      if (pos === before) fail(`expected whitespace before an attribute of <${qname}>`);
      const attribute = readName();
      skipSpace();
      if (source[pos] !== '=') fail(`expected = after attribute ${attribute}`);
      pos++;
      skipSpace();
      const quote = source[pos];
      if (quote !== '"' && quote !== "'") fail(`expected a quoted value for attribute ${attribute}`);
      const end = until(quote!, pos + 1, `value of attribute ${attribute}`);
      const value = source.slice(pos + 1, end);
      if (value.includes('<')) fail(`'<' in the value of attribute ${attribute}`);
      if (raw.has(attribute)) fail(`attribute ${attribute} given twice on <${qname}>`);
      raw.set(attribute, decode(value).replace(/[\t\n\r]/g, ' '));
      pos = end + 1;
    }
    const selfClosing = source.startsWith('/>', pos);
    pos += selfClosing ? 2 : 1;

    const parentScope = stack.at(-1)?.scope ?? rootScope;
    let scope: Map<string, string> | undefined;
    for (const [attribute, value] of raw) {
      if (attribute === 'xmlns' || attribute.startsWith('xmlns:')) {
        scope ??= new Map(parentScope);
        scope.set(attribute === 'xmlns' ? '' : attribute.slice(6), value);
      }
    }
    const inScope: ReadonlyMap<string, string> = scope ?? parentScope;
    const [prefix, local] = splitQName(qname);
    const ns = inScope.get(prefix) ?? (prefix === '' ? '' : fail(`undeclared namespace prefix ${prefix}: in <${qname}>`));
    const element: XmlElement = {
      ns,
      local,
      qname,
      attributes: raw,
      children: [],
      text: '',
      line: elementLine,
      resolve: (value) => {
        const [p, l] = splitQName(value.trim());
        const uri = inScope.get(p);
        return uri === undefined && p !== '' ? undefined : { ns: uri ?? '', local: l };
      },
    };
    const parent = stack.at(-1);
    if (parent) parent.element.children.push(element);
    else if (root) fail(`a second root element <${qname}>`);
    else root = element;
    if (!selfClosing) stack.push({ element, scope: inScope });
  };

  const closeTag = (): void => {
    pos += 2;
    const qname = readName();
    skipSpace();
    if (source[pos] !== '>') fail(`expected > to close </${qname}>`);
    pos++;
    const top = stack.pop();
    if (!top) fail(`</${qname}> closes nothing`);
    if (top!.element.qname !== qname) fail(`</${qname}> closes <${top!.element.qname}> (opened on line ${top!.element.line})`);
  };

  while (pos < source.length) {
    const lt = source.indexOf('<', pos);
    if (lt === -1) {
      addText(decode(source.slice(pos)));
      break;
    }
    if (lt > pos) addText(decode(source.slice(pos, lt)));
    pos = lt;
    if (source.startsWith('<!--', pos)) pos = until('-->', pos + 4, 'comment') + 3;
    else if (source.startsWith('<![CDATA[', pos)) {
      const end = until(']]>', pos + 9, 'CDATA section');
      if (stack.length === 0) fail('CDATA outside the root element');
      addText(source.slice(pos + 9, end));
      pos = end + 3;
    } else if (source.startsWith('<?', pos)) pos = until('?>', pos + 2, 'processing instruction') + 2;
    else if (source.startsWith('<!DOCTYPE', pos)) {
      const end = until('>', pos, 'DOCTYPE');
      if (source.slice(pos, end).includes('[')) fail('DOCTYPE declarations with an internal subset (entities) are not accepted');
      pos = end + 1;
    } else if (source.startsWith('</', pos)) closeTag();
    else openTag();
  }
  if (stack.length > 0) fail(`<${stack.at(-1)!.element.qname}> (line ${stack.at(-1)!.element.line}) is never closed`);
  if (!root) fail('no root element');
  return root!;
}

function splitQName(qname: string): [prefix: string, local: string] {
  const colon = qname.indexOf(':');
  return colon === -1 ? ['', qname] : [qname.slice(0, colon), qname.slice(colon + 1)];
}

/** The children of `element` with this namespace and local name. */
export function childrenNamed(element: XmlElement, ns: string, local: string): XmlElement[] {
  return element.children.filter((child) => child.ns === ns && child.local === local);
}
