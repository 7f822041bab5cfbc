// docs/architecture.md §2's dependency rule as ESLint configuration (no-restricted-imports), so it cannot drift: for each
// part of src/, the parts of ours it may import; importing any other part is a lint error naming the rule. Arrows
// point down: cli -> operator | gateway | dashboard | governance | up; operator -> kube, mgmt, domain, config, http;
// gateway, dashboard, governance -> domain, config, db, importers, http (gateway and dashboard also pem, the PEM
// reader they share; gateway, operator and dashboard also definition-rules, the one list of what a Classic definition
// must pass, which the gateway's loader, the admission webhook and the dashboard's API writes all run; json-schema, the JSON Schema compiler;
// graphql-schema, the SDL builder both use; and jmespath, the query checker and evaluator of stream processors);
// definition-rules -> domain, json-schema, graphql-schema; kube -> nothing of ours; domain -> zod and re2js (the
// linear-time engine of definition patterns) and node built-ins only; http, config and json-schema (whose `pattern`
// runs on domain's RE2 patterns) are leaves over domain; pem, graphql-schema, jmespath and db are leaves; tracing
// (OpenTelemetry spans and their OTLP export; zod for its config, fastify's types for tracing a management API's
// writes) is a leaf the gateway, operator and dashboard use. Tests
// (*.test.ts) are exempt: a test may reach sideways to check that two parts agree.
// The dashboard's web UI (src/dashboard/ui) is browser code bundled by scripts/build-ui.mjs: it imports only its own
// files and npm packages (never node: built-ins, never the rest of src/: it talks to the server over HTTP), and the
// dashboard's server code never imports it (it serves the build output). No part imports scripts/ (dev tooling).
// Plain JavaScript: eslint.config.js imports it.

/**
 * Part of src/ -> the parts of ours it may import.
 * @type {Record<string, string[]>}
 */
export const ALLOWED_IMPORTS = {
  'cli.ts': ['operator', 'gateway', 'dashboard', 'governance', 'up'],
  up: ['operator', 'kube', 'domain', 'config'],
  operator: ['kube', 'mgmt', 'domain', 'config', 'http', 'definition-rules', 'json-schema', 'graphql-schema', 'jmespath', 'tracing'],
  gateway: ['domain', 'config', 'db', 'importers', 'http', 'pem', 'definition-rules', 'json-schema', 'graphql-schema', 'jmespath', 'tracing'],
  dashboard: ['domain', 'config', 'db', 'importers', 'http', 'pem', 'definition-rules', 'tracing'],
  governance: ['domain', 'config', 'db', 'importers', 'http'],
  importers: ['domain'],
  mgmt: ['domain'],
  kube: [],
  db: [],
  pem: [],
  'definition-rules': ['domain', 'json-schema', 'graphql-schema'],
  'json-schema': ['domain'],
  'graphql-schema': [],
  jmespath: [],
  tracing: [],
  http: ['domain'],
  config: ['domain'],
  domain: [],
};

const PARTS = Object.keys(ALLOWED_IMPORTS).filter((part) => part !== 'cli.ts');

/**
 * npm packages a part may import besides node built-ins; unset: any. http has `cookie` because the Cookie header
 * parser (http/cookie-header.ts) serves both the gateway and the dashboard, and http is the part both may import;
 * `lru-cache` for the same reason: the failed-attempt limiter (http/attempt-limiter.ts) bounds its keys with it;
 * `bcryptjs` too: the bcrypt worker pool (http/bcrypt-pool.ts) hashes basic-auth passwords of keys both write.
 * @type {Record<string, string[] | undefined>}
 */
const ALLOWED_PACKAGES = {
  domain: ['zod', 're2js'],
  http: ['zod', 'fastify', 'cookie', 'lru-cache', 'bcryptjs'],
  config: ['zod'],
  pem: [],
  'definition-rules': [],
  'json-schema': ['ajv', 'ajv-formats'],
  'graphql-schema': ['graphql', '@theguild/federation-composition'],
  jmespath: ['@aws-lambda-powertools/jmespath'],
  tracing: ['zod', 'fastify'],
};

/**
 * Further refusals for one part's files.
 * @type {Record<string, { regex: string, message: string }[] | undefined>}
 */
const EXTRA_PATTERNS = {
  dashboard: [
    {
      regex: '^(\\./|(\\.\\./)+)ui/',
      message: 'docs/architecture.md §2 dependency rule: the dashboard server never imports the web UI (browser code); it serves the build output.',
    },
  ],
};

/** Product code never depends on dev tooling: scripts/ may import src/, never the other way round. */
const DEV_TOOLING = {
  regex: '^(\\.\\./)+scripts/',
  message: 'docs/architecture.md §2 dependency rule: product code (src/) never imports dev tooling (scripts/); move what it needs into src/.',
};

const UI_DIR = 'src/dashboard/ui';
const UI_MESSAGE =
  'docs/architecture.md §2 dependency rule: the web UI imports only its own files and npm packages (it reaches the dashboard over HTTP, and runs in a browser: no node: built-ins).';

/**
 * The web UI's boundary: files directly in ui/ may not import `../`, files one level down not `../../`.
 * @returns {import('eslint').Linter.Config[]}
 */
function uiBoundaryConfigs() {
  return [
    { files: [`${UI_DIR}/*.ts`, `${UI_DIR}/*.tsx`], parent: '^\\.\\./' },
    { files: [`${UI_DIR}/*/*.ts`, `${UI_DIR}/*/*.tsx`], parent: '^\\.\\./\\.\\./' },
  ].map(({ files, parent }) => ({
    files,
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: parent, message: UI_MESSAGE },
            { regex: '^node:', message: UI_MESSAGE },
          ],
        },
      ],
    },
  }));
}

/**
 * Flat-config objects, one per part, each restricting its non-test files, then the web UI's boundary.
 * @returns {import('eslint').Linter.Config[]}
 */
export function dependencyRuleConfigs() {
  return Object.entries(ALLOWED_IMPORTS)
    .map(([part, allowed]) => {
      const forbidden = PARTS.filter((other) => other !== part && !allowed.includes(other));
      /** @type {{ regex: string, message: string }[]} */
      const patterns = [];
      if (forbidden.length > 0) {
        patterns.push({
          regex: `^(\\.\\./)+(${forbidden.join('|')})(/|$)`,
          message: `docs/architecture.md §2 dependency rule: ${part} may import ${allowed.length > 0 ? `only ${allowed.join(', ')}` : 'nothing'} of ours.`,
        });
      }
      patterns.push(DEV_TOOLING, ...(EXTRA_PATTERNS[part] ?? []));
      const packages = ALLOWED_PACKAGES[part];
      if (packages) {
        patterns.push({
          regex: `^(?!\\.|node:|(${packages.join('|')})(/|$))`,
          message: `docs/architecture.md §2 dependency rule: ${part} may import only ${packages.join(', ')} and node built-ins from outside.`,
        });
      }
      /** @type {import('eslint').Linter.Config} */
      const config = {
        files: part === 'cli.ts' ? ['src/cli.ts'] : [`src/${part}/**/*.ts`],
        ignores: ['**/*.test.ts', `${UI_DIR}/**`],
        rules: { 'no-restricted-imports': patterns.length > 0 ? ['error', { patterns }] : 'off' },
      };
      return config;
    })
    .concat(uiBoundaryConfigs());
}
