// The Dockerfile's invariants, checked without a container engine (none is available to the suite): Node major
// equal to .node-version's, a non-root numeric USER, the ENTRYPOINT/CMD the Helm chart relies on, ports equal to
// the chart's defaults, every COPY source present and not ignored by .dockerignore, runtime code importing only
// production dependencies (what `npm ci --omit=dev` installs), and the image's /app layout, assembled from the COPY
// lines in a temporary directory, running `gw` under the same Node.
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { REPO_ROOT } from '../../src/up/paths.ts';

const run = promisify(execFile);

interface Instruction {
  keyword: string;
  args: string;
  stage: number;
}

/** Instructions of the Dockerfile, comments dropped and continuation lines joined; stage counts FROM lines. */
function instructions(text: string): Instruction[] {
  const joined = text
    .split('\n')
    .filter((line) => !/^\s*#/.test(line))
    .join('\n')
    .replace(/\\\n/g, ' ');
  let stage = -1;
  return joined
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const [, keyword = '', args = ''] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
      if (keyword.toUpperCase() === 'FROM') stage++;
      return { keyword: keyword.toUpperCase(), args, stage };
    });
}

// .dockerignore patterns as regular expressions over paths relative to the context (`**/` matches any directories).
function ignored(): RegExp[] {
  const glob = (text: string) =>
    text
      .split('*')
      .map((part) => part.replace(/[^\w/-]/g, (c) => `\\${c}`))
      .join('[^/]*');
  return readFileSync(join(REPO_ROOT, '.dockerignore'), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((pattern) => new RegExp(`^${pattern.replace(/\/$/, '').split('**/').map(glob).join('(.*/)?')}(/.*)?$`));
}

const isIgnored = (path: string, patterns: RegExp[]): boolean => patterns.some((re) => re.test(path));

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((path) => statSync(join(dir, path)).isFile())
    .map((path) => join(dir, path));
}

const dockerfile = instructions(readFileSync(join(REPO_ROOT, 'Dockerfile'), 'utf8'));
const last = Math.max(...dockerfile.map((i) => i.stage));
const final = dockerfile.filter((i) => i.stage === last);
const one = (keyword: string) => final.filter((i) => i.keyword === keyword).at(-1)?.args;
/** [source, destination] of the final stage's COPY lines taken from the build context (not --from=). */
const contextCopies = final
  .filter((i) => i.keyword === 'COPY' && !i.args.includes('--from='))
  .map((i) => {
    const parts = i.args.split(/\s+/).filter((part) => !part.startsWith('--'));
    return [parts.slice(0, -1), parts.at(-1)!] as const;
  });

describe('Dockerfile', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'gw-image-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('builds every Node stage on node:<.node-version major>-bookworm-slim, and the template engine on golang', () => {
    const major = readFileSync(join(REPO_ROOT, '.node-version'), 'utf8').trim().split('.')[0];
    const bases = dockerfile.filter((i) => i.keyword === 'FROM').map((i) => i.args.split(/\s+/));
    expect(bases.length).toBe(4);
    for (const [base, , name] of bases) expect(base).toBe(name === 'template-engine' ? 'golang:1.26-bookworm' : `node:${major}-bookworm-slim`);
  });

  it("builds the template engine with the project's script, from sources that exist, and ships it where the gateway looks", () => {
    const goStage = dockerfile.find((i) => i.keyword === 'FROM' && i.args.endsWith(' AS template-engine'))!.stage;
    const steps = dockerfile.filter((i) => i.stage === goStage);
    expect(steps.find((i) => i.keyword === 'RUN')?.args).toContain('scripts/build-template-engine.sh');
    const patterns = ignored();
    for (const copy of steps.filter((i) => i.keyword === 'COPY')) {
      const source = copy.args.split(/\s+/)[0]!;
      expect(existsSync(join(REPO_ROOT, source)), source).toBe(true);
      expect(isIgnored(source.replace(/\/$/, ''), patterns), `${source} is in .dockerignore`).toBe(false);
    }
    expect(final.some((i) => i.keyword === 'COPY' && i.args === '--from=template-engine /template-engine.wasm ./template-engine.wasm')).toBe(true);
    expect(final.find((i) => i.keyword === 'ENV' && i.args.startsWith('GW_TEMPLATE_ENGINE='))?.args).toBe('GW_TEMPLATE_ENGINE=/app/template-engine.wasm');
  });

  it("bundles the dashboard's web UI and the portal's browser files in their own stage with the project's script, and ships both", () => {
    const uiStage = dockerfile.find((i) => i.keyword === 'FROM' && i.args.endsWith(' AS ui'))!.stage;
    const steps = dockerfile.filter((i) => i.stage === uiStage);
    expect(steps.filter((i) => i.keyword === 'RUN').at(-1)?.args).toBe('node scripts/build-ui.mjs');
    const patterns = ignored();
    for (const copy of steps.filter((i) => i.keyword === 'COPY')) {
      for (const source of copy.args.split(/\s+/).slice(0, -1)) {
        expect(existsSync(join(REPO_ROOT, source)), source).toBe(true);
        expect(isIgnored(source.replace(/\/$/, ''), patterns), `${source} is in .dockerignore`).toBe(false);
      }
    }
    expect(final.some((i) => i.keyword === 'COPY' && i.args === '--from=ui /app/dist/dashboard-ui/ ./dist/dashboard-ui/')).toBe(true);
    expect(final.some((i) => i.keyword === 'COPY' && i.args === '--from=ui /app/dist/portal-site/ ./dist/portal-site/')).toBe(true);
  });

  it('installs production dependencies only, from the lockfile, in its own stage', () => {
    const first = dockerfile.filter((i) => i.stage === 0);
    expect(first.find((i) => i.keyword === 'COPY')?.args).toBe('package.json package-lock.json ./');
    expect(first.find((i) => i.keyword === 'RUN')?.args).toMatch(/^npm ci --omit=dev\b/);
    expect(final.find((i) => i.keyword === 'COPY')?.args).toMatch(/^--from=deps \/app\/node_modules /);
    expect(final.some((i) => i.keyword === 'RUN')).toBe(false); // the runtime stage adds files only
  });

  it("runs /app/bin/gw operator as a non-root numeric user, exposing the chart's default ports", () => {
    const user = one('USER') ?? 'root';
    expect(user).toMatch(/^\d+(:\d+)?$/); // numeric, so the kubelet can enforce runAsNonRoot
    expect(user.split(':')[0]).not.toBe('0');
    expect(one('WORKDIR')).toBe('/app');
    expect(JSON.parse(one('ENTRYPOINT')!)).toEqual(['/app/bin/gw']);
    expect(JSON.parse(one('CMD')!)).toEqual(['operator']);
    const values = parse(readFileSync(join(REPO_ROOT, 'charts', 'gw-operator', 'values.yaml'), 'utf8')) as {
      healthProbePort: number;
      rbac: { port: number };
      webhooks: { port: number };
    };
    expect(one('EXPOSE')?.split(/\s+/).map(Number)).toEqual([values.healthProbePort, values.rbac.port, values.webhooks.port]);
  });

  it('copies sources that exist and that .dockerignore does not drop, and no tests', () => {
    const patterns = ignored();
    expect(contextCopies.length).toBeGreaterThan(0);
    for (const [sources] of contextCopies) {
      for (const source of sources) {
        expect(existsSync(join(REPO_ROOT, source)), source).toBe(true);
        expect(isIgnored(source.replace(/\/$/, ''), patterns), `${source} is in .dockerignore`).toBe(false);
      }
    }
    expect(isIgnored('src/operator/config.test.ts', patterns)).toBe(true);
    expect(isIgnored('src/operator/config.ts', patterns)).toBe(false);
    expect(isIgnored('test/e2e/gw-up.test.ts', patterns)).toBe(true);
  });

  it('needs nothing at run time that `npm ci --omit=dev` leaves out', () => {
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    const patterns = ignored();
    const shipped = contextCopies
      .flatMap(([sources]) => sources)
      .flatMap((source) => {
        const path = join(REPO_ROOT, source);
        return statSync(path).isDirectory() ? filesUnder(path) : [path];
        // The web UI's and the portal's browser code are bundled in the ui stage; Node never loads them at run time.
      })
      .filter(
        (path) =>
          /\.(ts|mjs|js)$|\/bin\/gw$/.test(path) &&
          !isIgnored(relative(REPO_ROOT, path), patterns) &&
          !/^src\/dashboard\/(ui|portal-site\/browser)\//.test(relative(REPO_ROOT, path)),
      );
    const packages = new Set<string>();
    for (const file of shipped) {
      for (const [, specifier] of readFileSync(file, 'utf8').matchAll(
        /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g,
      )) {
        if (specifier && !specifier.startsWith('.') && !specifier.startsWith('node:') && !specifier.startsWith('/')) {
          packages.add(specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!);
        }
      }
    }
    expect(packages.size).toBeGreaterThan(0);
    expect(
      [...packages].filter((name) => !(name in pkg.dependencies)),
      'imported by shipped code but not a production dependency',
    ).toEqual([]);
  });

  it('assembles /app from the COPY lines and runs `gw` there (version, operator --help)', async () => {
    const app = join(scratch, 'app');
    const patterns = ignored();
    for (const [sources, destination] of contextCopies) {
      for (const source of sources) {
        const target = destination.endsWith('/') && !source.endsWith('/') ? join(app, destination, source.split('/').at(-1)!) : join(app, destination);
        cpSync(join(REPO_ROOT, source), target, { recursive: true, filter: (path) => !isIgnored(relative(REPO_ROOT, path), patterns) });
      }
    }
    symlinkSync(join(REPO_ROOT, 'node_modules'), join(app, 'node_modules')); // stands in for the deps stage
    expect(filesUnder(join(app, 'src')).some((path) => path.endsWith('.test.ts'))).toBe(false);
    expect(existsSync(join(app, 'crds', 'gw.gw.io_apidefinitions.yaml'))).toBe(true);
    // The image's `node` is Node 24, first on PATH, as the shebang of bin/gw finds it.
    const env = { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}` };
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
    expect((await run(join(app, 'bin', 'gw'), ['version'], { env, cwd: app })).stdout).toBe(`gw ${pkg.version}\n`);
    const help = await run(join(app, 'bin', 'gw'), ['operator', '--help'], { env, cwd: app });
    for (const flag of [
      '--health-probe-bind-address',
      '--metrics-bind-address',
      '--secure-metrics-bind-address',
      '--leader-elect',
      '--webhook-port',
      '--webhook-cert-dir',
    ]) {
      expect(help.stdout, flag).toContain(flag);
    }
  });
});
