// Markdown for the developer portal (a catalogue entry's long_description, as Tyk's classic portal renders it):
// a small renderer of the common subset — ATX headings, paragraphs, emphasis and strong, code spans and fenced
// code blocks, flat bulleted and numbered lists, block quotes, rules, links — into escaped HTML. Safe by
// construction: every character of the source is escaped (raw HTML, such as a <script>, is shown as text), a link
// keeps its href only for http:, https:, mailto: and scheme-less (relative) URLs (javascript:, data: and every
// other scheme become plain text), and no attribute but href (and a fixed rel) is ever written. Linear time: each
// closing delimiter is searched for within a bounded window and inline nesting is bounded, so no input makes the
// renderer quadratic. Not CommonMark: no nested lists, tables, images (shown as links) or HTML blocks.
import { escapeHtml, Html } from './html.ts';

/** How far a closing delimiter (`*`, `**`, `` ` ``, `]`, `)`) is searched for after its opener. */
const CLOSER_WINDOW = 1000;
/** Inline markup nested deeper than this is shown as text. */
const MAX_INLINE_DEPTH = 4;
/** Block quotes nested deeper than this are shown as paragraphs. */
const MAX_QUOTE_DEPTH = 3;

const SAFE_SCHEMES = new Set(['http:', 'https:', 'mailto:']);

/** The URL when a link may point at it: http(s), mailto, or relative; undefined for any other scheme or a control character. */
export function safeLinkUrl(url: string): string | undefined {
  if (url === '' || /[\s\\]/.test(url) || [...url].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) return undefined;
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(url);
  if (scheme && !SAFE_SCHEMES.has(`${scheme[1]!.toLowerCase()}:`)) return undefined;
  return url;
}

/** The index of `closer` in text within the window after `from`, else -1. */
function closerIndex(text: string, closer: string, from: number): number {
  const found = text.slice(from, from + CLOSER_WINDOW + closer.length).indexOf(closer);
  return found === -1 ? -1 : from + found;
}

const ESCAPABLE = /[\\`*_{}[\]()#+\-.!<>|~]/;

function inline(text: string, depth: number): string {
  if (depth > MAX_INLINE_DEPTH) return escapeHtml(text);
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '\\' && i + 1 < text.length && ESCAPABLE.test(text[i + 1]!)) {
      out += escapeHtml(text[i + 1]!);
      i += 2;
      continue;
    }
    if (c === '`') {
      const end = closerIndex(text, '`', i + 1);
      if (end > i + 1) {
        out += `<code>${escapeHtml(text.slice(i + 1, end))}</code>`;
        i = end + 1;
        continue;
      }
    }
    if (c === '[') {
      const labelEnd = closerIndex(text, ']', i + 1);
      if (labelEnd > i + 1 && text[labelEnd + 1] === '(') {
        const urlEnd = closerIndex(text, ')', labelEnd + 2);
        if (urlEnd !== -1) {
          const label = inline(text.slice(i + 1, labelEnd), depth + 1);
          const url = safeLinkUrl(text.slice(labelEnd + 2, urlEnd).trim());
          out += url === undefined ? label : `<a href="${escapeHtml(url)}" rel="nofollow noopener noreferrer">${label}</a>`;
          i = urlEnd + 1;
          continue;
        }
      }
    }
    if ((c === '*' || c === '_') && text[i + 1] === c) {
      const end = closerIndex(text, c + c, i + 2);
      if (end > i + 2) {
        out += `<strong>${inline(text.slice(i + 2, end), depth + 1)}</strong>`;
        i = end + 2;
        continue;
      }
    }
    if ((c === '*' || c === '_') && text[i + 1] !== undefined && text[i + 1] !== ' ' && (c === '*' || i === 0 || /\W/.test(text[i - 1]!))) {
      const end = closerIndex(text, c, i + 1);
      if (end > i + 1 && text[end - 1] !== ' ') {
        out += `<em>${inline(text.slice(i + 1, end), depth + 1)}</em>`;
        i = end + 1;
        continue;
      }
    }
    out += escapeHtml(c);
    i++;
  }
  return out;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+|$)(.*)$/;
const BULLET = /^ {0,3}[-*+][ \t]+(.*)$/;
const NUMBERED = /^ {0,3}\d{1,9}[.)][ \t]+(.*)$/;
const QUOTE = /^ {0,3}>[ ]?(.*)$/;
const RULE = /^ {0,3}(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$/;

const startsBlock = (line: string): boolean =>
  FENCE.test(line) || HEADING.test(line) || BULLET.test(line) || NUMBERED.test(line) || QUOTE.test(line) || RULE.test(line);

function blocks(lines: readonly string[], headingOffset: number, quoteDepth: number): string {
  const out: string[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (line.trim() === '') {
      i++;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const marker = fence[1]!;
      const code: string[] = [];
      i++;
      while (i < lines.length && !lines[i]!.trimStart().startsWith(marker)) code.push(lines[i++]!);
      i++;
      out.push(`<pre><code>${escapeHtml(code.join('\n'))}</code></pre>`);
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      const level = Math.min(6, heading[1]!.length + headingOffset);
      out.push(`<h${level}>${inline(heading[2]!.replace(/[ \t]+#+[ \t]*$/, '').trim(), 0)}</h${level}>`);
      i++;
      continue;
    }
    if (RULE.test(line)) {
      out.push('<hr>');
      i++;
      continue;
    }
    const list = BULLET.test(line) ? { tag: 'ul', item: BULLET } : NUMBERED.test(line) ? { tag: 'ol', item: NUMBERED } : undefined;
    if (list) {
      const items: string[] = [];
      while (i < lines.length) {
        const item = list.item.exec(lines[i]!);
        if (item) items.push(item[1]!);
        else if (/^[ \t]+\S/.test(lines[i]!) && items.length > 0) items[items.length - 1] += `\n${lines[i]!.trim()}`;
        else break;
        i++;
      }
      out.push(`<${list.tag}>${items.map((item) => `<li>${inline(item, 0)}</li>`).join('')}</${list.tag}>`);
      continue;
    }
    if (QUOTE.test(line) && quoteDepth < MAX_QUOTE_DEPTH) {
      const quoted: string[] = [];
      while (i < lines.length && QUOTE.test(lines[i]!)) quoted.push(QUOTE.exec(lines[i++]!)![1]!);
      out.push(`<blockquote>${blocks(quoted, headingOffset, quoteDepth + 1)}</blockquote>`);
      continue;
    }
    const paragraph: string[] = [line.trim()];
    i++;
    while (i < lines.length && lines[i]!.trim() !== '' && !startsBlock(lines[i]!)) paragraph.push(lines[i++]!.trim());
    out.push(`<p>${inline(paragraph.join('\n'), 0)}</p>`);
  }
  return out.join('\n');
}

export interface MarkdownOptions {
  /** Added to every heading's level (a description under an <h2> starts its own at <h3>: 2); capped at 6. */
  headingOffset?: number;
}

/** The Markdown text as escaped HTML (see the file's comment for what is rendered). */
export function markdown(text: string, options: MarkdownOptions = {}): Html {
  return new Html(blocks(text.split(/\r\n|\r|\n/), options.headingOffset ?? 0, 0));
}
