// The dashboard's client of a governance hub (`governance_url`, token `governance_token`, header X-API-Key): the
// label definitions and the labels applied to one API. The hub's own refusals come back as HttpErrors of the same
// meaning with the hub's message (a value outside a label's allowed values is 400 naming them), prefixed so the
// user knows who refused; an unreachable or failing hub is 503, never the dashboard's 500. The token is never in a
// message or a log.
import { HttpError, type HttpErrorCode } from '../http/errors.ts';

/** Longest wait for one answer of the hub. */
const TIMEOUT_MS = 5000;
/** The hub's largest page, and the most API ids one filter asks it for (20 pages). */
const PER_PAGE = 500;
export const MAX_LISTED = 10_000;

export interface HubLabel {
  id: string;
  name: string;
  key: string;
  values: string[];
  value_type: 'free_text' | 'predefined';
}

export interface AppliedLabels {
  api_id: string;
  labels: Record<string, string>;
}

const CODES: Record<number, HttpErrorCode> = { 400: 'invalid', 404: 'not_found', 409: 'conflict', 413: 'too_large' };

export class GovernanceHub {
  readonly #url: string;
  readonly #token: string;

  constructor(url: string, token: string) {
    this.#url = url.replace(/\/+$/, '');
    this.#token = token;
  }

  async labels(): Promise<HubLabel[]> {
    return (await this.#call<{ labels: HubLabel[] }>('GET', '/api/labels')).labels;
  }

  async applied(apiId: string): Promise<AppliedLabels> {
    return this.#call<AppliedLabels>('GET', `/api/${encodeURIComponent(apiId)}/labels`);
  }

  /** Merges: a null value removes that label from the API. */
  async apply(apiId: string, labels: Record<string, string | null>): Promise<AppliedLabels> {
    return this.#call<AppliedLabels>('PATCH', `/api/${encodeURIComponent(apiId)}/labels`, { labels });
  }

  /** The ids of the APIs carrying `label` (`<name>:<value>`), every page of the hub's answer up to MAX_LISTED. */
  async apisWith(label: string): Promise<string[]> {
    const ids: string[] = [];
    for (let page = 1; ids.length < MAX_LISTED; page++) {
      const answer = await this.#call<{ apis: { api_id: string }[]; pages: number }>(
        'GET',
        `/api/apis?label=${encodeURIComponent(label)}&page=${page}&per_page=${PER_PAGE}`,
      );
      ids.push(...answer.apis.map((a) => a.api_id));
      if (page >= answer.pages) break;
    }
    return ids.slice(0, MAX_LISTED);
  }

  async #call<T>(method: string, path: string, body?: unknown): Promise<T> {
    let response: Response;
    try {
      response = await fetch(`${this.#url}${path}`, {
        method,
        headers: { 'x-api-key': this.#token, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      throw new HttpError('unavailable', `governance hub unreachable: ${error instanceof Error ? error.message : String(error)}`);
    }
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (response.ok && parsed !== undefined) return parsed as T;
    const message = typeof parsed === 'object' && parsed !== null && 'message' in parsed ? String(parsed.message) : `HTTP ${response.status}`;
    const code = CODES[response.status];
    // The hub refusing the dashboard's own token (401/403) is the dashboard's configuration, not the user's doing.
    if (!code) throw new HttpError('unavailable', `governance hub answered ${response.status}: ${message}`);
    throw new HttpError(code, `governance hub: ${message}`);
  }
}
