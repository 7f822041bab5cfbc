// The time range and resolution of an analytics query, as Tyk's dashboard writes them in paths
// (`/api/usage/{from}/{to}?res=day`): a day `D-M-YYYY` (UTC; as `to` it includes that whole day), Unix seconds, or
// an ISO 8601 date-time. `res` is minute, hour, day (default) or month. A range is at most MAX_BUCKETS buckets of
// its resolution, so one query can never ask the database for an unbounded series. Bad values are 400 naming the
// parameter.
import { HttpError } from '../../http/errors.ts';
import type { Resolution } from '../store/analytics.ts';

export const MAX_BUCKETS = 10_000;
const RESOLUTION_MS: Record<Resolution, number> = { minute: 60_000, hour: 3_600_000, day: 86_400_000, month: 31 * 86_400_000 };

export interface TimeRange {
  from: number;
  to: number;
}

export function parseTimeRange(fromText: string, toText: string): TimeRange {
  const from = parseInstant(fromText, 'from', false);
  const to = parseInstant(toText, 'to', true);
  if (to <= from) throw new HttpError('invalid', `to: must be after from (${fromText} .. ${toText})`);
  return { from, to };
}

export function parseResolution(text: string | undefined, range: TimeRange): Resolution {
  const resolution = text === undefined || text === '' ? 'day' : text;
  if (!(resolution in RESOLUTION_MS)) throw new HttpError('invalid', `res: must be minute, hour, day or month: ${JSON.stringify(resolution).slice(0, 40)}`);
  const buckets = (range.to - range.from) / RESOLUTION_MS[resolution as Resolution];
  if (buckets > MAX_BUCKETS)
    throw new HttpError(
      'invalid',
      `res: ${resolution} over this range is ${Math.ceil(buckets)} buckets, more than ${MAX_BUCKETS}: choose a coarser resolution or a shorter range`,
    );
  return resolution as Resolution;
}

/** Unix ms; `end`: a whole day given as `to` ends at the next midnight. */
function parseInstant(text: string, field: string, end: boolean): number {
  const day = /^(\d{1,2})-(\d{1,2})-(\d{4})$/.exec(text);
  if (day) {
    const [d, m, y] = [Number(day[1]), Number(day[2]), Number(day[3])];
    const start = Date.UTC(y, m - 1, d);
    const check = new Date(start);
    if (check.getUTCDate() !== d || check.getUTCMonth() !== m - 1) throw new HttpError('invalid', `${field}: no such day: ${text}`);
    return end ? start + 86_400_000 : start;
  }
  if (/^\d{1,12}$/.test(text)) return Number(text) * 1000;
  if (/^\d{4}-\d{2}-\d{2}T[\d:.]+(Z|[+-]\d{2}:?\d{2})$/.test(text)) {
    const ms = Date.parse(text);
    if (!Number.isNaN(ms)) return ms;
  }
  throw new HttpError('invalid', `${field}: must be a day D-M-YYYY, Unix seconds or an ISO 8601 date-time with a zone: ${JSON.stringify(text).slice(0, 60)}`);
}
