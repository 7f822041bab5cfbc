// Labels applied to APIs: the hub's catalogue of APIs by id, each with at most one value per label. Replace (PUT),
// merge (PATCH, null removes), read, list and filter by label and value, search label values. An API is in the
// catalogue while it carries at least one label; the hub never checks that a gateway or dashboard knows the id.
//
// Every value is checked against its label's allowed values (predefined labels) under a shared lock on the label
// rows, so a concurrent change of the allowed values (labels.ts, exclusive lock) cannot slip in between.
import type { Database, Queryable } from '../db/database.ts';
import type { ApiQuery, Paging } from './api-query.ts';
import { HttpError } from '../http/errors.ts';
import { findLabels, type Label } from './labels.ts';

/** An API as the hub shows it: its labels by display name. */
export interface ApiLabels {
  api_id: string;
  labels: Record<string, string>;
}

export interface Page<T> {
  apis: T[];
  page: number;
  pages: number;
  total: number;
}

export class ApiLabelStore {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  async read(apiId: string): Promise<ApiLabels> {
    return (await labelsOf(this.#db, [apiId]))[0] ?? { api_id: apiId, labels: {} };
  }

  /** The API's labels become exactly these (null entries are left out). */
  async replace(apiId: string, given: Record<string, string | null>): Promise<ApiLabels> {
    return this.#db.transaction(async (tx) => {
      const resolved = await resolveValues(tx, given);
      await tx.query('DELETE FROM governance_api_labels WHERE api_id = $1', [apiId]);
      for (const { label, value } of resolved) if (value !== null) await upsert(tx, apiId, label.id, value);
      return (await labelsOf(tx, [apiId]))[0] ?? { api_id: apiId, labels: {} };
    });
  }

  /** Sets the labels given, removes those given as null, keeps the others. */
  async merge(apiId: string, given: Record<string, string | null>): Promise<ApiLabels> {
    return this.#db.transaction(async (tx) => {
      for (const { label, value } of await resolveValues(tx, given)) {
        if (value === null) await tx.query('DELETE FROM governance_api_labels WHERE api_id = $1 AND label_id = $2', [apiId, label.id]);
        else await upsert(tx, apiId, label.id, value);
      }
      return (await labelsOf(tx, [apiId]))[0] ?? { api_id: apiId, labels: {} };
    });
  }

  /** APIs matching every label filter and the search text, ordered by id, one page. */
  async search(query: ApiQuery): Promise<Page<ApiLabels>> {
    const labels = await findLabels(
      this.#db,
      query.filters.map((f) => f.label),
    );
    const unknown = query.filters.filter((f) => !labels.has(f.label)).map((f) => `"${f.label}"`);
    if (unknown.length > 0) throw new HttpError('invalid', `label: unknown label ${unknown.join(', ')} (GET /api/labels lists them)`);
    const params: unknown[] = [];
    const bind = (value: unknown): string => `$${params.push(value)}`;
    const conditions = query.filters.map((filter) => {
      const value = filter.value === undefined ? '' : ` AND f.value = ${bind(filter.value)}`;
      return `EXISTS (SELECT 1 FROM governance_api_labels f WHERE f.api_id = a.api_id AND f.label_id = ${bind(labels.get(filter.label)!.id)}${value})`;
    });
    if (query.search !== undefined) {
      conditions.push(`EXISTS (SELECT 1 FROM governance_api_labels s WHERE s.api_id = a.api_id AND strpos(lower(s.value), lower(${bind(query.search)})) > 0)`);
    }
    const matching = `FROM (SELECT DISTINCT api_id FROM governance_api_labels) a${conditions.length > 0 ? ` WHERE ${conditions.join(' AND ')}` : ''}`;
    const total = (await this.#db.query<{ total: number }>(`SELECT count(*)::int AS total ${matching}`, params))[0]?.total ?? 0;
    const ids = await this.#db.query<{ api_id: string }>(
      `SELECT a.api_id ${matching} ORDER BY a.api_id LIMIT ${bind(query.perPage)} OFFSET ${bind((query.page - 1) * query.perPage)}`,
      params,
    );
    return {
      apis: await labelsOf(
        this.#db,
        ids.map((row) => row.api_id),
      ),
      ...pageOf(query, total),
    };
  }

  /** The APIs carrying this label, with their value, ordered by id, one page. */
  async carrying(label: Label, paging: Paging): Promise<Page<{ api_id: string; value: string }>> {
    const total =
      (await this.#db.query<{ total: number }>('SELECT count(*)::int AS total FROM governance_api_labels WHERE label_id = $1', [label.id]))[0]?.total ?? 0;
    const apis = await this.#db.query<{ api_id: string; value: string }>(
      'SELECT api_id, value FROM governance_api_labels WHERE label_id = $1 ORDER BY api_id LIMIT $2 OFFSET $3',
      [label.id, paging.perPage, (paging.page - 1) * paging.perPage],
    );
    return { apis, ...pageOf(paging, total) };
  }
}

function pageOf(paging: Paging, total: number): { page: number; pages: number; total: number } {
  return { page: paging.page, pages: Math.ceil(total / paging.perPage), total };
}

/** Resolves names or keys to labels and checks each value; 400 listing every problem, each naming its label. */
async function resolveValues(tx: Queryable, given: Record<string, string | null>): Promise<{ label: Label; value: string | null }[]> {
  const refs = Object.keys(given);
  const labels = await findLabels(tx, refs, true);
  const problems: string[] = [];
  const resolved: { label: Label; value: string | null }[] = [];
  const seen = new Map<string, string>();
  for (const ref of refs) {
    const label = labels.get(ref);
    const value = given[ref] ?? null;
    if (!label) {
      problems.push(`labels.${ref}: unknown label "${ref}" (GET /api/labels lists them)`);
      continue;
    }
    const twin = seen.get(label.id);
    if (twin !== undefined) {
      problems.push(`labels.${ref}: label "${label.name}" is also given as "${twin}"`);
      continue;
    }
    seen.set(label.id, ref);
    if (value !== null && label.value_type === 'predefined' && !label.values.includes(value)) {
      problems.push(`labels.${ref}: "${value}" is not an allowed value of label "${label.name}"; allowed: ${label.values.map((v) => `"${v}"`).join(', ')}`);
      continue;
    }
    resolved.push({ label, value });
  }
  if (problems.length > 0) throw new HttpError('invalid', problems.join('; '));
  return resolved;
}

async function upsert(tx: Queryable, apiId: string, labelId: string, value: string): Promise<void> {
  await tx.query(
    `INSERT INTO governance_api_labels (api_id, label_id, value) VALUES ($1, $2, $3)
       ON CONFLICT (api_id, label_id) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
    [apiId, labelId, value],
  );
}

/** These APIs with their labels (by display name, sorted), in the order given; APIs without labels left out. */
async function labelsOf(q: Queryable, apiIds: readonly string[]): Promise<ApiLabels[]> {
  if (apiIds.length === 0) return [];
  const rows = await q.query<{ api_id: string; name: string; value: string }>(
    `SELECT a.api_id, l.name, a.value FROM governance_api_labels a JOIN governance_labels l ON l.id = a.label_id
      WHERE a.api_id = ANY($1::text[]) ORDER BY lower(l.name)`,
    [apiIds],
  );
  const byId = new Map<string, ApiLabels>(apiIds.map((id) => [id, { api_id: id, labels: {} }]));
  for (const row of rows) byId.get(row.api_id)!.labels[row.name] = row.value;
  return [...byId.values()].filter((api) => Object.keys(api.labels).length > 0);
}
