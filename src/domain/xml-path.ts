// The XPath expressions a definition may give (custom_middleware.id_extractor's xpath_expression), compiled when the
// definition loads: the subset Tyk Gateway's XML path library evaluates that also runs in time linear in the
// document (docs/compatibility.md §gRPC plugins). Evaluated by importers/xml-path.ts over a parsed document.
//
//   path       := ('/' | '//')? step (('/' | '//') step)*
//   step       := name | '*' | '.' | '..' | '@' name | 'text()' | 'node()', then at most one [predicate]
//   predicate  := [n] (position among the step's matches from one context node, from 1)
//               | [relative] (exists) | [relative = 'literal'] | [contains(relative, 'literal')] | [not(relative)]
//   relative   := a path of child, '.', '@' name and 'text()' steps (no '//', '..' or predicates inside)
//
// Names match an element's or attribute's local name, whatever its prefix (as Tyk's library); a prefix in the
// expression (`soap:Body`), explicit axes (`child::`), `and`/`or`, functions other than text(), node(), contains()
// and not(), and predicates reaching beyond the candidate's own children are refused with the reason.
// `//` is descendant-or-self as in XPath: `//a` is every `a` element. Expressions are at most MAX_XML_PATH_LENGTH
// characters.

export const MAX_XML_PATH_LENGTH = 1024;

export type XmlPathAxis = 'child' | 'descendant-or-self' | 'self' | 'parent' | 'attribute';

/** What a step matches: elements (by local name, `*` any), attributes (by local name), text, or any node. */
export type XmlPathTest = { kind: 'element'; name: string } | { kind: 'attribute'; name: string } | { kind: 'text' } | { kind: 'node' };

export type XmlPathPredicate =
  | { kind: 'position'; position: number }
  | { kind: 'exists'; path: XmlPathStep[] }
  | { kind: 'equals'; path: XmlPathStep[]; value: string }
  | { kind: 'contains'; path: XmlPathStep[]; value: string }
  | { kind: 'not'; path: XmlPathStep[] };

export interface XmlPathStep {
  axis: XmlPathAxis;
  test: XmlPathTest;
  predicate?: XmlPathPredicate;
}

export interface XmlPath {
  readonly source: string;
  /** From the document node: a leading `/` and a relative path both start there, as in Tyk. */
  readonly steps: readonly XmlPathStep[];
}

export type XmlPathResult = { ok: true; path: XmlPath } | { ok: false; problem: string };

/** `problem` completes "<field> ...". */
export function compileXmlPath(source: string): XmlPathResult {
  if (source.trim() === '') return { ok: false, problem: 'is empty' };
  if (source.length > MAX_XML_PATH_LENGTH) return { ok: false, problem: `is longer than ${MAX_XML_PATH_LENGTH} characters` };
  try {
    const reader = new Reader(source);
    const steps = reader.path(false);
    reader.spaces();
    if (!reader.done()) reader.fail(`unexpected ${JSON.stringify(source[reader.at])}`);
    return { ok: true, path: { source, steps } };
  } catch (error) {
    if (error instanceof PathSyntaxError) return { ok: false, problem: `is not an XPath expression this gateway evaluates: ${error.message}` };
    throw error;
  }
}

class PathSyntaxError extends Error {}

const NAME_CHAR = /[A-Za-z0-9_.\-\u0080-\uffff]/;

class Reader {
  at = 0;
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }

  done(): boolean {
    return this.at >= this.text.length;
  }

  fail(message: string): never {
    throw new PathSyntaxError(`${message} at character ${this.at + 1}`);
  }

  spaces(): void {
    while (this.text[this.at] === ' ') this.at++;
  }

  skip(literal: string): boolean {
    if (!this.text.startsWith(literal, this.at)) return false;
    this.at += literal.length;
    return true;
  }

  name(): string {
    const start = this.at;
    if (this.text[this.at] === '*') {
      this.at++;
      return '*';
    }
    while (this.at < this.text.length && NAME_CHAR.test(this.text[this.at]!)) this.at++;
    return this.text.slice(start, this.at);
  }

  /** A whole path; `relative`: a predicate's, from its candidate, child steps only. */
  path(relative: boolean): XmlPathStep[] {
    const steps: XmlPathStep[] = [];
    this.spaces();
    if (!relative && this.skip('//')) steps.push({ axis: 'descendant-or-self', test: { kind: 'node' } });
    else if (!relative) this.skip('/');
    for (;;) {
      steps.push(this.step(relative));
      this.spaces();
      if (this.text.startsWith('//', this.at)) {
        if (relative) this.fail("'//' inside a predicate is not supported (it would search the whole subtree of every candidate)");
        this.at += 2;
        steps.push({ axis: 'descendant-or-self', test: { kind: 'node' } });
      } else if (!this.skip('/')) return steps;
    }
  }

  step(relative: boolean): XmlPathStep {
    this.spaces();
    if (this.skip('@')) {
      const name = this.name();
      if (name === '') this.fail("a name is missing after '@'");
      this.noPrefix(name);
      return this.withPredicate({ axis: 'attribute', test: { kind: 'attribute', name } }, relative);
    }
    if (this.skip('..')) {
      if (relative) this.fail("'..' inside a predicate is not supported");
      return this.withPredicate({ axis: 'parent', test: { kind: 'node' } }, relative);
    }
    const name = this.name();
    if (name === '') this.fail('a step is missing');
    if (name === '.') return this.withPredicate({ axis: 'self', test: { kind: 'node' } }, relative);
    this.spaces();
    if (this.text.startsWith('::', this.at)) this.fail(`explicit axes (${name}::) are not supported`);
    this.noPrefix(name);
    if (this.skip('(')) {
      if (name !== 'text' && name !== 'node') this.fail(`the function ${name}() is not supported here (text() and node() are)`);
      this.spaces();
      if (!this.skip(')')) this.fail(`${name}() takes no arguments`);
      return this.withPredicate({ axis: 'child', test: { kind: name } }, relative);
    }
    return this.withPredicate({ axis: 'child', test: { kind: 'element', name } }, relative);
  }

  noPrefix(name: string): void {
    if (this.text[this.at] === ':' && this.text[this.at + 1] !== ':')
      this.fail(`prefixed names (${name}:...) are not supported: names match local names whatever their prefix`);
  }

  withPredicate(step: XmlPathStep, relative: boolean): XmlPathStep {
    this.spaces();
    if (!this.skip('[')) return step;
    if (relative) this.fail('predicates inside a predicate are not supported');
    this.spaces();
    const predicate = this.predicate();
    this.spaces();
    if (this.text.startsWith('and', this.at) || this.text.startsWith('or', this.at)) this.fail("'and' and 'or' in predicates are not supported");
    if (!this.skip(']')) this.fail("']' expected");
    this.spaces();
    if (this.text[this.at] === '[') this.fail('a step takes one predicate');
    return { ...step, predicate };
  }

  predicate(): XmlPathPredicate {
    const digits = /^\d+/.exec(this.text.slice(this.at))?.[0];
    if (digits !== undefined) {
      this.at += digits.length;
      const position = Number(digits);
      if (position < 1 || !Number.isSafeInteger(position)) this.fail('positions start at 1');
      return { kind: 'position', position };
    }
    if (this.skip('contains(')) {
      const path = this.path(true);
      this.spaces();
      if (!this.skip(',')) this.fail("contains() expects ',' and a quoted string");
      const value = this.literal();
      this.spaces();
      if (!this.skip(')')) this.fail("contains() is missing ')'");
      return { kind: 'contains', path, value };
    }
    if (this.skip('not(')) {
      const path = this.path(true);
      this.spaces();
      if (!this.skip(')')) this.fail("not() is missing ')'");
      return { kind: 'not', path };
    }
    if (this.text[this.at] === '(') this.fail('parentheses in predicates are not supported');
    const path = this.path(true);
    this.spaces();
    if (!this.skip('=')) return { kind: 'exists', path };
    return { kind: 'equals', path, value: this.literal() };
  }

  literal(): string {
    this.spaces();
    const quote = this.text[this.at];
    if (quote !== '"' && quote !== "'") this.fail('a quoted string is expected');
    const end = this.text.indexOf(quote, this.at + 1);
    if (end === -1) this.fail(`the string is missing its closing ${quote}`);
    const value = this.text.slice(this.at + 1, end);
    this.at = end + 1;
    return value;
  }
}
