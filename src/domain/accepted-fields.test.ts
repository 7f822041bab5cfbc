// The accepted-fields guard: every field of every definition schema (Classic, OAS extension, policy, key, streams)
// and of every CRD spec is read somewhere in src/gateway, src/operator, src/dashboard, src/domain or src/definition-rules (outside tests), or
// refused by name while in use (unsupported-fields.ts), or in one of the commented lists below. "Read" is decided
// from the sources' syntax, by property name (`.name`, `['name']`, destructuring, `'name' in`): a name read for one
// field also covers another field of the same name, so the guard catches a field nobody reads at all, the way
// they were silently ignored before (issue 24). It also keeps README's "Fields gw refuses by name" list in sync.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { propertyReads, sourceFiles } from '../../test/support/property-reads.ts';
import { schemaFields, type SchemaField } from '../../test/support/schema-fields.ts';
import { ClassicApiDefinition } from './classic.ts';
import { kinds } from './crd/kinds.ts';
import { toStructuralSchema } from './crd/structural.ts';
import { OasDocument } from './oas.ts';
import { Policy } from './policy.ts';
import { Session } from './session.ts';
import { StreamingExtension } from './streaming.ts';
import { REFUSED_FIELDS } from './unsupported-fields.ts';

const ROOT = new URL('../../', import.meta.url).pathname;

/**
 * Web pages (the dashboard's UI, the portal site's browser code) show fields; showing is not implementing. The
 * portal's content pages have a `slug` of their own (Tyk's page object), which is not the definition's.
 */
const READERS = ['gateway', 'operator', 'dashboard', 'domain', 'definition-rules'].flatMap((dir) =>
  sourceFiles(`${ROOT}src/${dir}`, ['ui', 'portal-site/browser', 'portal/content-schemas.ts', 'portal/store/pages.ts', 'portal/routes/pages.ts']),
);

const SCHEMAS: [string, Parameters<typeof schemaFields>[0]][] = [
  ['Classic definition', ClassicApiDefinition],
  ['OAS definition', OasDocument],
  ['policy', Policy],
  ['key', Session],
  ['streams extension', StreamingExtension],
  ...kinds.map((kind): [string, ReturnType<typeof toStructuralSchema>] => [`${kind.kind} CRD spec`, toStructuralSchema(kind.spec)]),
];

/**
 * Fields read through a list of key names (a string literal in the named file) rather than a property access.
 * The test checks the literal is still there.
 */
const READ_BY_KEY_NAME: Record<string, string> = {
  header_matches: 'src/gateway/definition/from-classic.ts',
  query_val_matches: 'src/gateway/definition/from-classic.ts',
  path_part_matches: 'src/gateway/definition/from-classic.ts',
  session_meta_matches: 'src/gateway/definition/from-classic.ts',
  request_context_matches: 'src/gateway/definition/from-classic.ts',
  transformRequestBody: 'src/gateway/definition/from-oas.ts',
  transformResponseBody: 'src/gateway/definition/from-oas.ts',
  transformRequestHeaders: 'src/gateway/definition/from-oas.ts',
  transformResponseHeaders: 'src/gateway/definition/from-oas.ts',
};

/** Fields kept as written by design (path, or the end of one), each with why nothing needs to read them. */
const KEPT_AS_WRITTEN: Record<string, string> = {
  slug: 'dashboard metadata: stored and answered back, no behaviour in Tyk Gateway either',
  'graphql.last_schema_update': 'a timestamp the dashboard stores and answers back',
  'auth_configs.oidc': 'settings of OpenID Connect, which the definition cannot enable (no use_openid field)',
  'transform_headers[].act_on': 'Tyk Gateway ignores it too',
  'transform_response_headers[].act_on': 'Tyk Gateway ignores it too',
  'advance_cache_config[].cache_key_regex': 'applies to POST/PUT/PATCH bodies in Tyk; only GET, HEAD and OPTIONS are cached here',
  'cache.cacheByRegex': 'OAS form of cache_key_regex: applies to bodies, which are never cached here',
  'access_rights.{}.allowance_scope': 'written by the gateway when it merges per-API policy limits; kept as written',
  allowance: 'legacy field of a key, kept as written (Tyk Gateway no longer reads it)',
  'uptime_tests.config.expire_utime_after': 'how long uptime analytics records are kept; gw records no uptime analytics',
  'uptime_tests.config.recheck_wait': 'when service discovery is asked again after a host goes down; service discovery is refused when used',
  'uptimeTests.hostDownRetestPeriod': 'OAS form of recheck_wait: service discovery only, refused when used',
  'pipeline.processors[].noop': 'processor kinds are the keys of PROCESSOR_FIELDS (api/stream-processors.ts); noop leaves the message unchanged',
};

/**
 * Read by nothing yet and reported to be implemented (not Tyk fields gw refuses). Each must leave this list when it
 * is read. (The OperatorContext ingress ports and the PortalConfig switches secure_key_approval and
 * enable_multi_selection left it: the operator refuses them by name when set.)
 */
const NOT_READ_YET: Record<string, string> = {};

function matches(field: SchemaField, entry: string): boolean {
  return field.path === entry || field.path.endsWith(`.${entry}`);
}

function isRefused(field: SchemaField): boolean {
  return REFUSED_FIELDS.some(({ field: refused }) => (refused.startsWith('extended_paths.') ? matches(field, refused) : field.path === refused));
}

const listed = [...Object.keys(KEPT_AS_WRITTEN), ...Object.keys(NOT_READ_YET)];

let readNames: Set<string> | undefined;

/** What the sources read (parsed once: about 2 s for the four directories). */
function reads(): Set<string> {
  if (!readNames) {
    readNames = propertyReads(READERS);
    for (const name of Object.keys(READ_BY_KEY_NAME)) readNames.add(name);
  }
  return readNames;
}

const ALL_FIELDS = SCHEMAS.flatMap(([label, schema]) => schemaFields(schema).map((field) => ({ label, field })));

function ignoredFields(): { label: string; field: SchemaField }[] {
  return ALL_FIELDS.filter(({ field }) => !reads().has(field.name) && !isRefused(field) && !listed.some((entry) => matches(field, entry)));
}

describe('accepted fields', () => {
  // It parses every source file (about 2 s alone, 5.6 s in a loaded full run): more than a unit test's usual limit.
  it('every accepted field is read, refused by name, or listed with its reason', { timeout: 60_000 }, () => {
    const ignored = ignoredFields().map(({ label, field }) => `${label}: ${field.path}`);
    expect(ignored, `fields accepted but neither read nor refused:\n${ignored.join('\n')}`).toEqual([]);
  });

  it('every listed field is still a field of some schema', () => {
    const stale = listed.filter((entry) => !ALL_FIELDS.some(({ field }) => matches(field, entry)));
    expect(stale).toEqual([]);
  });

  it('no listed field is read or refused by now (remove it from its list)', () => {
    const covered = listed.filter((entry) => {
      const fields = ALL_FIELDS.filter(({ field }) => matches(field, entry)).map(({ field }) => field);
      return fields.length > 0 && fields.every((field) => reads().has(field.name) || isRefused(field));
    });
    expect(covered).toEqual([]);
  });

  it('every field read by key name still has its key in the named file', () => {
    const missing = Object.entries(READ_BY_KEY_NAME).filter(([name, file]) => !readFileSync(`${ROOT}${file}`, 'utf8').includes(`'${name}'`));
    expect(missing).toEqual([]);
  });

  it('README lists exactly the fields refused by name', () => {
    const readme = readFileSync(`${ROOT}README.md`, 'utf8');
    const start = readme.indexOf('<!-- refused-fields:start -->');
    const end = readme.indexOf('<!-- refused-fields:end -->');
    expect(start, 'README has the refused-fields markers').toBeGreaterThan(-1);
    const lines = readme
      .slice(start, end)
      .split('\n')
      .slice(1)
      .filter((line) => line.startsWith('- '));
    expect(lines).toEqual(REFUSED_FIELDS.map(({ field, what }) => `- \`${field}\`: ${what}`));
  });
});
