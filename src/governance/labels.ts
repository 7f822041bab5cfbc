// Label definitions in the database: list, read, create, change and delete, with the rules that keep them sound.
//   - a name is unique regardless of case, and so is the snake_case key derived from it (label-key.ts);
//   - changing the allowed values never orphans a value already applied to an API: the change is refused (409)
//     naming the values and the APIs that use them;
//   - a label applied to APIs is deleted only with force, which removes it from those APIs too.
// A label is addressed by its id or by its key. Writes run in a transaction holding the label's row lock, which
// api-labels.ts takes too (shared) while it applies values, so a check and the write it guards never interleave.
import { randomUUID } from 'node:crypto';
import type { Database, Queryable } from '../db/database.ts';
import { isUniqueViolation } from '../db/rows.ts';
import type { LabelBody } from './bodies.ts';
import { HttpError } from '../http/errors.ts';
import { labelKeyOf } from './label-key.ts';

export type ValueType = 'free_text' | 'predefined';

/** A label as the API shows it: gw's documented {id, name, values} plus its key and value type. */
export interface Label {
  id: string;
  name: string;
  values: string[];
  key: string;
  value_type: ValueType;
}

interface LabelRow {
  id: string;
  name: string;
  key: string;
  value_type: ValueType;
  allowed_values: string[];
}

const COLUMNS = 'id, name, key, value_type, allowed_values';
const LISTED_APIS = 10;

export function labelOf(row: LabelRow): Label {
  return { id: row.id, name: row.name, values: row.allowed_values, key: row.key, value_type: row.value_type };
}

/** Which of these names or keys are labels: a name (any case) wins over another label's key. */
export async function findLabels(q: Queryable, refs: readonly string[], lock = false): Promise<Map<string, Label>> {
  if (refs.length === 0) return new Map();
  const rows = await q.query<LabelRow>(
    `SELECT ${COLUMNS} FROM governance_labels WHERE lower(name) = ANY($1::text[]) OR key = ANY($2::text[]) ORDER BY id${lock ? ' FOR SHARE' : ''}`,
    [refs.map((ref) => ref.trim().toLowerCase()), refs.map((ref) => ref.trim())],
  );
  const found = new Map<string, Label>();
  for (const ref of refs) {
    const wanted = ref.trim();
    const row = rows.find((r) => r.name.toLowerCase() === wanted.toLowerCase()) ?? rows.find((r) => r.key === wanted);
    if (row) found.set(ref, labelOf(row));
  }
  return found;
}

export class LabelStore {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  async list(): Promise<Label[]> {
    return (await this.#db.query<LabelRow>(`SELECT ${COLUMNS} FROM governance_labels ORDER BY lower(name)`)).map(labelOf);
  }

  /** By id or key; 404 when neither. */
  async get(ref: string): Promise<Label> {
    return labelOf(await this.#row(this.#db, ref, false));
  }

  async create(body: LabelBody): Promise<Label> {
    const key = labelKeyOf(body.name);
    return this.#unique(body.name, () =>
      this.#db.transaction(async (tx) => {
        await refuseClash(tx, body.name, key, undefined);
        const rows = await tx.query<LabelRow>(
          `INSERT INTO governance_labels (id, key, name, value_type, allowed_values) VALUES ($1, $2, $3, $4, $5::text[]) RETURNING ${COLUMNS}`,
          [randomUUID(), key, body.name, valueTypeOf(body.values), body.values],
        );
        return labelOf(rows[0]!);
      }),
    );
  }

  /** Replaces name and allowed values (absent or empty values: free text); the key follows the name. */
  async update(ref: string, body: LabelBody): Promise<Label> {
    const key = labelKeyOf(body.name);
    return this.#unique(body.name, () =>
      this.#db.transaction(async (tx) => {
        const current = await this.#row(tx, ref, true);
        await refuseClash(tx, body.name, key, current.id);
        if (body.values.length > 0) await refuseOrphans(tx, current, body.values);
        const rows = await tx.query<LabelRow>(
          `UPDATE governance_labels SET key = $2, name = $3, value_type = $4, allowed_values = $5::text[], updated_at = now() WHERE id = $1 RETURNING ${COLUMNS}`,
          [current.id, key, body.name, valueTypeOf(body.values), body.values],
        );
        return labelOf(rows[0]!);
      }),
    );
  }

  /** Deletes a label; while it is applied to APIs only with force (which removes it from them). */
  async delete(ref: string, force: boolean): Promise<{ label: Label; removedFrom: number }> {
    return this.#db.transaction(async (tx) => {
      const current = await this.#row(tx, ref, true);
      const users = await tx.query<{ api_id: string; total: number }>(
        'SELECT api_id, count(*) OVER ()::int AS total FROM governance_api_labels WHERE label_id = $1 ORDER BY api_id LIMIT $2',
        [current.id, LISTED_APIS],
      );
      const total = users[0]?.total ?? 0;
      if (total > 0 && !force) {
        throw new HttpError(
          'conflict',
          `label "${current.name}" is applied to ${total} API${total === 1 ? '' : 's'} (${listApis(
            users.map((u) => u.api_id),
            total,
          )}): remove it from them first, or delete with ?force=true`,
        );
      }
      await tx.query('DELETE FROM governance_labels WHERE id = $1', [current.id]);
      return { label: labelOf(current), removedFrom: total };
    });
  }

  async #row(q: Queryable, ref: string, lock: boolean): Promise<LabelRow> {
    const rows = await q.query<LabelRow>(`SELECT ${COLUMNS} FROM governance_labels WHERE id = $1 OR key = $1${lock ? ' FOR UPDATE' : ''}`, [ref]);
    if (!rows[0]) throw new HttpError('not_found', `label ${ref} not found`);
    return rows[0];
  }

  /** A concurrent twin can pass refuseClash and still hit the unique indexes: answer it the same way. */
  async #unique<T>(name: string, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isUniqueViolation(error)) throw new HttpError('conflict', `a label named "${name}" (or with the same key) already exists`);
      throw error;
    }
  }
}

function valueTypeOf(values: readonly string[]): ValueType {
  return values.length > 0 ? 'predefined' : 'free_text';
}

async function refuseClash(q: Queryable, name: string, key: string, self: string | undefined): Promise<void> {
  const clashes = await q.query<{ name: string; key: string }>(
    'SELECT name, key FROM governance_labels WHERE (lower(name) = lower($1) OR key = $2) AND id IS DISTINCT FROM $3',
    [name, key, self ?? null],
  );
  const byName = clashes.find((c) => c.name.toLowerCase() === name.toLowerCase());
  if (byName) throw new HttpError('conflict', `a label named "${byName.name}" already exists`);
  if (clashes[0]) throw new HttpError('conflict', `name "${name}" gives the key ${key}, already the key of label "${clashes[0].name}"`);
}

/** 409 when APIs carry a value the new allowed values leave out. */
async function refuseOrphans(q: Queryable, label: LabelRow, allowed: readonly string[]): Promise<void> {
  const orphans = await q.query<{ value: string; apis: string[]; total: number }>(
    `SELECT value, (array_agg(api_id ORDER BY api_id))[1:${LISTED_APIS}] AS apis, count(*)::int AS total
       FROM governance_api_labels WHERE label_id = $1 AND NOT (value = ANY($2::text[])) GROUP BY value ORDER BY value`,
    [label.id, allowed],
  );
  if (orphans.length === 0) return;
  const uses = orphans.map((o) => `"${o.value}" (used by ${listApis(o.apis, o.total)})`).join(', ');
  throw new HttpError('conflict', `values: label "${label.name}" would no longer allow ${uses}: change those APIs' labels first`);
}

function listApis(apis: readonly string[], total: number): string {
  return total > apis.length ? `${apis.join(', ')} and ${total - apis.length} more` : apis.join(', ');
}
