// The dependency rule bites: ESLint's own Linter, with only the rule's configuration, on small sources placed in
// each part. (`npm run lint` applies it to the real tree.)
import { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';
import { dependencyRuleConfigs } from './dependency-rule.mjs';

function refusals(filename: string, source: string): string[] {
  const linter = new Linter({ configType: 'flat' });
  return linter
    .verify(source, [{ files: ['**/*.ts', '**/*.tsx'] }, ...dependencyRuleConfigs()], filename)
    .map((message) => `${message.ruleId}: ${message.message}`);
}

describe('dependency rule (docs/architecture.md §2)', () => {
  it('refuses an import across or up the arrows, naming what the part may import', () => {
    expect(refusals('src/kube/client.ts', "import { x } from '../gateway/gateway.ts';")).toEqual([
      expect.stringMatching(/^no-restricted-imports: .*kube may import nothing of ours/),
    ]);
    expect(refusals('src/gateway/admin/app.ts', "import { x } from '../../operator/ids.ts';")).toEqual([
      expect.stringMatching(
        /gateway may import only domain, config, db, importers, http, pem, definition-rules, json-schema, graphql-schema, jmespath, tracing of ours/,
      ),
    ]);
    expect(refusals('src/http/errors.ts', "import { x } from '../config/file-and-env.ts';")).toHaveLength(1);
    expect(refusals('src/domain/policy.ts', "import { x } from 'undici';")).toEqual([
      expect.stringMatching(/domain may import only zod, re2js and node built-ins/),
    ]);
  });

  it('refuses product code importing dev tooling (scripts/)', () => {
    expect(refusals('src/up/with-node.ts', "import { x } from '../../scripts/build-image.ts';")).toEqual([
      expect.stringMatching(/product code \(src\/\) never imports dev tooling \(scripts\/\)/),
    ]);
    expect(refusals('src/up/with-node.ts', "import { x } from './image/build-image.ts';")).toEqual([]);
  });

  it('lets imports follow the arrows, within a part, and from tests', () => {
    expect(
      refusals(
        'src/gateway/admin/app.ts',
        "import { x } from '../../api/policy.ts';\nimport { y } from '../store/store.ts';\nimport { z } from '../../http/errors.ts';",
      ),
    ).toEqual([]);
    expect(refusals('src/operator/sync.ts', "import { x } from '../mgmt/client.ts';\nimport { y } from '../kube/client.ts';")).toEqual([]);
    expect(refusals('src/domain/canonical-json.ts', "import { createHash } from 'node:crypto';\nimport { z } from 'zod';")).toEqual([]);
    expect(refusals('src/operator/webhooks/gateway-parity.test.ts', "import { x } from '../../gateway/definition/compile.ts';")).toEqual([]);
  });

  it('keeps the web UI (browser code) and the dashboard server apart', () => {
    expect(refusals('src/dashboard/ui/app.tsx', "import { x } from '../access.ts';")).toEqual([
      expect.stringMatching(/web UI imports only its own files and npm packages/),
    ]);
    expect(refusals('src/dashboard/ui/pages/apis.tsx', "import { x } from '../../store/apis.ts';")).toHaveLength(1);
    expect(refusals('src/dashboard/ui/api-client.ts', "import { x } from 'node:fs';")).toHaveLength(1);
    expect(refusals('src/dashboard/app.ts', "import { x } from './ui/app.tsx';")).toEqual([expect.stringMatching(/dashboard server never imports the web UI/)]);
    expect(refusals('src/dashboard/session/routes.ts', "import { x } from '../ui/session.ts';")).toHaveLength(1);
    expect(refusals('src/dashboard/ui/pages/apis.tsx', "import { x } from '../api-client.ts';\nimport { h } from 'preact';")).toEqual([]);
    expect(refusals('src/dashboard/session/routes.ts', "import { x } from '../access.ts';")).toEqual([]);
  });
});
