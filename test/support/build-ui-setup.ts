// Global setup of the browser tests: builds the web UI once (scripts/build-ui.mjs, the same build `npm ci` runs),
// so the dashboards the tests start serve the sources as they are now, not an older build.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from '../../src/up/paths.ts';

export default function setup(): void {
  execFileSync(process.execPath, [join(REPO_ROOT, 'scripts', 'build-ui.mjs')], { stdio: 'inherit' });
}
