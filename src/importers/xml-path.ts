// An XPath expression (domain/xml-path.ts, compiled when the definition loaded) evaluated over a parsed XML
// document (xml.ts): the string value of the first node it selects, in document order, as Tyk Gateway's XML path
// library answers (an element's or the document's: all text inside it, in order; an attribute's or text node's: its
// value). The document is flattened once into nodes numbered in document order, each with the end of its subtree;
// every step collects what it selects from its context nodes and puts it in that order. Predicates reach only their candidate's own
// children, attributes and text, but a string value spans a subtree, and subtrees of nested candidates overlap: so
// evaluation has a work bound linear in the document (WORK_PER_NODE per node, plus WORK_BASE), and past it the
// document counts as not matching (XmlPathTooCostly), whatever the expression.
import type { XmlPath, XmlPathPredicate, XmlPathStep, XmlPathTest } from '../domain/xml-path.ts';
import type { XmlElement } from './xml.ts';

const WORK_PER_NODE = 16;
const WORK_BASE = 65_536;

export class XmlPathTooCostly extends Error {
  override readonly name = 'XmlPathTooCostly';
}

interface FlatNode {
  kind: 'document' | 'element' | 'attribute' | 'text';
  /** Local name (element, attribute). */
  name: string;
  /** Attribute or text value. */
  value: string;
  parent: number;
  /** One past the last node of the subtree (attributes and text: itself + 1). */
  end: number;
  /** Element and text children in order. */
  children: number[];
  attributes: number[];
}

/**
 * The string value of the first node `path` selects in `root`'s document; undefined when it selects none. Throws
 * XmlPathTooCostly past the work bound.
 */
export function xmlPathString(path: XmlPath, root: XmlElement): string | undefined {
  const nodes = flatten(root);
  const evaluation = new Evaluation(nodes, WORK_BASE + WORK_PER_NODE * nodes.length);
  let context = [0];
  for (const step of path.steps) {
    context = evaluation.step(context, step);
    if (context.length === 0) return undefined;
  }
  return evaluation.stringValue(context[0]!);
}

function flatten(root: XmlElement): FlatNode[] {
  const nodes: FlatNode[] = [{ kind: 'document', name: '', value: '', parent: -1, end: 0, children: [], attributes: [] }];
  // Iterative pre-order walk; an element's end is set when its `close` entry comes off the stack.
  type Pending = { visit: string | XmlElement; parent: number } | { close: number };
  const pending: Pending[] = [{ visit: root, parent: 0 }];
  while (pending.length > 0) {
    const next = pending.pop()!;
    if ('close' in next) {
      nodes[next.close]!.end = nodes.length;
      continue;
    }
    const { visit, parent } = next;
    const index = nodes.length;
    nodes[parent]!.children.push(index);
    if (typeof visit === 'string') {
      nodes.push({ kind: 'text', name: '', value: visit, parent, end: index + 1, children: [], attributes: [] });
      continue;
    }
    const element: FlatNode = { kind: 'element', name: visit.local, value: '', parent, end: 0, children: [], attributes: [] };
    nodes.push(element);
    for (const [qname, value] of visit.attributes) {
      if (qname === 'xmlns' || qname.startsWith('xmlns:')) continue;
      const at = nodes.length;
      element.attributes.push(at);
      nodes.push({ kind: 'attribute', name: qname.slice(qname.indexOf(':') + 1), value, parent: index, end: at + 1, children: [], attributes: [] });
    }
    pending.push({ close: index });
    for (let i = visit.content.length - 1; i >= 0; i--) pending.push({ visit: visit.content[i]!, parent: index });
  }
  nodes[0]!.end = nodes.length;
  return nodes;
}

class Evaluation {
  #work = 0;
  readonly nodes: FlatNode[];
  readonly budget: number;
  constructor(nodes: FlatNode[], budget: number) {
    this.nodes = nodes;
    this.budget = budget;
  }

  #spend(units: number): void {
    this.#work += units;
    if (this.#work > this.budget) throw new XmlPathTooCostly('the XPath expression needs more work on this document than its bound');
  }

  /** The nodes `step` selects from `context` (document order, no repeats). */
  step(context: number[], step: XmlPathStep): number[] {
    const nodes = this.nodes;
    const marked = new Set<number>();
    let coveredUntil = -1;
    for (const from of context) {
      let position = 0;
      const consider = (candidate: number): void => {
        this.#spend(1);
        if (!matches(nodes[candidate]!, step.test)) return;
        position++;
        if (step.predicate && !this.#holds(candidate, position, step.predicate)) return;
        marked.add(candidate);
      };
      const node = nodes[from]!;
      switch (step.axis) {
        case 'child':
          for (const child of node.children) consider(child);
          break;
        case 'attribute':
          for (const attribute of node.attributes) consider(attribute);
          break;
        case 'self':
          consider(from);
          break;
        case 'parent':
          if (node.parent !== -1) consider(node.parent);
          break;
        case 'descendant-or-self':
          // Contexts come in document order and subtrees nest: one already covered adds nothing.
          if (from < coveredUntil) break;
          coveredUntil = node.end;
          for (let candidate = from; candidate < node.end; candidate++) if (nodes[candidate]!.kind !== 'attribute') consider(candidate);
          break;
      }
    }
    return [...marked].sort((a, b) => a - b);
  }

  /** A predicate's path from one candidate: child, attribute, self and text steps, so no node is reached twice. */
  #relative(candidate: number, steps: XmlPathStep[]): number[] {
    let context = [candidate];
    for (const step of steps) {
      const next: number[] = [];
      for (const from of context) {
        const node = this.nodes[from]!;
        const reachable = step.axis === 'self' ? [from] : step.axis === 'attribute' ? node.attributes : node.children;
        this.#spend(reachable.length);
        for (const index of reachable) if (matches(this.nodes[index]!, step.test)) next.push(index);
      }
      context = next;
    }
    return context;
  }

  #holds(candidate: number, position: number, predicate: XmlPathPredicate): boolean {
    if (predicate.kind === 'position') return predicate.position === position;
    const selected = this.#relative(candidate, predicate.path);
    switch (predicate.kind) {
      case 'exists':
        return selected.length > 0;
      case 'not':
        return selected.length === 0;
      case 'equals':
        return selected.some((node) => this.stringValue(node) === predicate.value);
      case 'contains':
        return selected.some((node) => this.stringValue(node).includes(predicate.value));
    }
  }

  stringValue(index: number): string {
    const node = this.nodes[index]!;
    if (node.kind === 'attribute' || node.kind === 'text') return node.value;
    this.#spend(node.end - index);
    let text = '';
    for (let inside = index + 1; inside < node.end; inside++) if (this.nodes[inside]!.kind === 'text') text += this.nodes[inside]!.value;
    return text;
  }
}

function matches(node: FlatNode, test: XmlPathTest): boolean {
  switch (test.kind) {
    case 'node':
      return true;
    case 'text':
      return node.kind === 'text';
    case 'element':
      return node.kind === 'element' && (test.name === '*' || node.name === test.name);
    case 'attribute':
      return node.kind === 'attribute' && (test.name === '*' || node.name === test.name);
  }
}
