// HTML for the developer portal's server-rendered pages: the `html` tagged template (every interpolated value is
// escaped unless it is already Html, so text from the catalogue, a developer or a URL can never become markup),
// and plain-text-to-paragraphs for descriptions. Must never mark client- or store-supplied text as Html unescaped.
export class Html {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
  toString(): string {
    return this.text;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

type Part = Html | string | number | boolean | null | undefined | readonly Part[];

function render(part: Part): string {
  if (part === null || part === undefined || part === false) return '';
  if (part instanceof Html) return part.text;
  if (Array.isArray(part)) return (part as readonly Part[]).map(render).join('');
  return escapeHtml(String(part));
}

/** Markup with escaped interpolations: html`<p>${name}</p>`. Arrays are joined; null, undefined and false vanish. */
export function html(strings: TemplateStringsArray, ...values: Part[]): Html {
  let out = strings[0]!;
  values.forEach((value, i) => {
    out += render(value) + strings[i + 1]!;
  });
  return new Html(out);
}

/** Text as paragraphs (blank lines separate them; single newlines become <br>), escaped. */
export function paragraphs(text: string): Html {
  const blocks = text
    .split(/\r?\n\s*\r?\n/)
    .map((block) => block.trim())
    .filter((block) => block !== '');
  return new Html(blocks.map((block) => `<p>${block.split(/\r?\n/).map(escapeHtml).join('<br>')}</p>`).join(''));
}
