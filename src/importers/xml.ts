// The XML reader for WSDL imports (and the gateway's XPath over request bodies, importers/xml-path.ts): a document becomes a tree of elements (namespace URI and local name,
// attributes, text) by saxes, a maintained, strict, namespace-aware XML parser (well-formedness, namespace
// prefixes, the predefined entities and character references are its job). What this file adds: the tree, QName
// resolution of attribute values (`tns:Calculator`) in an element's namespace scope, and the refusal of DTDs with
// an internal subset: entity declarations (the "billion laughs" and external-entity attacks) are rejected, never
// expanded; saxes itself never fetches or expands anything. Elements nest at most MAX_XML_DEPTH deep: saxes resolves
// each element's namespace by walking up the open elements, so depth bounds the work per element (unbounded, a
// 4 MiB body of nested elements took minutes). Not a validating parser.
import { SaxesParser, type SaxesTagNS } from 'saxes';

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
  /** Character data directly inside the element (children's text excluded): content's strings, joined. */
  readonly text: string;
  /** Character data and child elements in document order (mixed content as written; adjacent text joined). */
  content: (string | XmlElement)[];
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

/** The namespaces bound in every document (XML Namespaces §3). */
const ROOT_SCOPE: ReadonlyMap<string, string> = new Map([
  ['xml', 'http://www.w3.org/XML/1998/namespace'],
  ['xmlns', 'http://www.w3.org/2000/xmlns/'],
]);

/** How deep elements may nest; a deeper document is refused (XmlError). */
export const MAX_XML_DEPTH = 256;

export function parseXml(source: string): XmlElement {
  const parser = new SaxesParser({ xmlns: true, position: true });
  const fail = (message: string): never => {
    throw new XmlError(message, parser.line);
  };
  const stack: { element: XmlElement; scope: ReadonlyMap<string, string> }[] = [];
  let root: XmlElement | undefined;
  let tagLine = 1;

  parser.on('error', (error) => fail(error.message.replace(/^\d+:\d+: /, '')));
  parser.on('doctype', (doctype) => {
    if (doctype.includes('[')) fail('DOCTYPE declarations with an internal subset (entities) are not accepted');
  });
  parser.on('opentagstart', () => {
    tagLine = parser.line;
  });
  parser.on('opentag', (tag) => {
    if (stack.length >= MAX_XML_DEPTH) fail(`elements nest deeper than ${MAX_XML_DEPTH} levels`);
    const parent = stack.at(-1);
    const declared = Object.entries(tag.ns);
    const scope = declared.length === 0 ? (parent?.scope ?? ROOT_SCOPE) : new Map([...(parent?.scope ?? ROOT_SCOPE), ...declared]);
    const element = toElement(tag, tagLine, scope);
    if (parent) {
      parent.element.children.push(element);
      parent.element.content.push(element);
    } else root = element;
    if (!tag.isSelfClosing) stack.push({ element, scope });
  });
  parser.on('closetag', (tag) => {
    if (!tag.isSelfClosing) stack.pop();
  });
  const addText = (text: string): void => {
    const top = stack.at(-1);
    if (!top) return;
    const content = top.element.content;
    const previous = content.at(-1);
    if (typeof previous === 'string') content[content.length - 1] = previous + text;
    else content.push(text);
  };
  parser.on('text', addText);
  parser.on('cdata', addText);

  parser.write(source.charCodeAt(0) === 0xfeff ? source.slice(1) : source).close();
  if (!root) fail('no root element');
  return root!;
}

function toElement(tag: SaxesTagNS, line: number, scope: ReadonlyMap<string, string>): XmlElement {
  const attributes = new Map<string, string>();
  for (const [name, attribute] of Object.entries(tag.attributes)) attributes.set(name, attribute.value);
  return {
    ns: tag.uri,
    local: tag.local,
    qname: tag.name,
    attributes,
    children: [],
    get text() {
      return this.content.filter((part) => typeof part === 'string').join('');
    },
    content: [],
    line,
    resolve: (value) => {
      const [prefix, local] = splitQName(value.trim());
      const uri = scope.get(prefix);
      return uri === undefined && prefix !== '' ? undefined : { ns: uri ?? '', local };
    },
  };
}

function splitQName(qname: string): [prefix: string, local: string] {
  const colon = qname.indexOf(':');
  return colon === -1 ? ['', qname] : [qname.slice(0, colon), qname.slice(colon + 1)];
}

/** The children of `element` with this namespace and local name. */
export function childrenNamed(element: XmlElement, ns: string, local: string): XmlElement[] {
  return element.children.filter((child) => child.ns === ns && child.local === local);
}
