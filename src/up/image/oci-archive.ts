// Assembles an OCI image archive without a container engine or a registry, with umoci: each layer is a directory
// (or a tar of one) laid over the previous ones, then the image configuration, then one `tar` of the OCI layout
// whose index names the image, ready for `ctr images import`. It decides nothing about WHAT goes in (the callers:
// src/up/image/build-image.ts for the product image, the node harness for the pause image); it never touches a registry.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface OciLayer {
  /** A directory whose contents become the layer's files (ownership and modes as they are on disk)... */
  directory?: string;
  /** ...or a tar of a root filesystem (e.g. mmdebstrap's output), unpacked with numeric owners. */
  tarball?: string;
  /** Runs on the unpacked root filesystem after the files above are in, before the layer is packed. */
  finish?: (rootfs: string) => void;
}

export interface OciImageConfig {
  workingDir?: string;
  env?: [string, string][];
  user?: string;
  exposedPorts?: string[];
  entrypoint?: string[];
  cmd?: string[];
}

export interface OciArchiveOptions {
  /** Full image reference the import gives the image, e.g. docker.io/library/gw:v1.0.0. */
  reference: string;
  layers: OciLayer[];
  config: OciImageConfig;
  /** The archive to write (written beside, then renamed). */
  out: string;
  /** Creation time written into the configuration and history: fixed for reproducible digests. */
  created?: string;
}

const FIXED_CREATED = '2000-01-01T00:00:00Z';

function run(command: string, args: string[]): void {
  execFileSync(command, args, { stdio: ['ignore', 'ignore', 'inherit'] });
}

export function buildOciArchive(options: OciArchiveOptions): void {
  const work = mkdtempSync(join(dirname(options.out), '.oci-work-'));
  const created = options.created ?? FIXED_CREATED;
  try {
    const layout = join(work, 'layout');
    const bundle = join(work, 'bundle');
    const image = `${layout}:image`;
    run('umoci', ['init', '--layout', layout]);
    run('umoci', ['new', '--image', image]);
    run('umoci', ['unpack', '--image', image, bundle]);
    const rootfs = join(bundle, 'rootfs');
    for (const layer of options.layers) {
      if (layer.tarball) run('tar', ['-xpf', layer.tarball, '--numeric-owner', '-C', rootfs]);
      if (layer.directory) cpSync(layer.directory, rootfs, { recursive: true, preserveTimestamps: true, verbatimSymlinks: true });
      layer.finish?.(rootfs);
      run('umoci', ['repack', '--refresh-bundle', '--history.created', created, '--image', image, bundle]);
    }
    const config = options.config;
    const args = ['config', '--image', image, '--os', 'linux', '--architecture', 'amd64', '--created', created, '--history.created', created];
    if (config.workingDir) args.push('--config.workingdir', config.workingDir);
    if (config.user) args.push('--config.user', config.user);
    for (const [name, value] of config.env ?? []) args.push('--config.env', `${name}=${value}`);
    for (const port of config.exposedPorts ?? []) args.push('--config.exposedports', port);
    for (const word of config.entrypoint ?? []) args.push('--config.entrypoint', word);
    for (const word of config.cmd ?? []) args.push('--config.cmd', word);
    run('umoci', args);
    run('umoci', ['gc', '--layout', layout]);
    // `ctr images import` names an image after the index's ref-name annotations.
    const indexFile = join(layout, 'index.json');
    const index = JSON.parse(readFileSync(indexFile, 'utf8')) as { manifests: { annotations?: Record<string, string> }[] };
    for (const manifest of index.manifests) {
      manifest.annotations = { 'org.opencontainers.image.ref.name': options.reference, 'io.containerd.image.name': options.reference };
    }
    writeFileSync(indexFile, JSON.stringify(index));
    const partial = `${options.out}.partial`;
    run('tar', ['--sort=name', '--mtime=@0', '--owner=0', '--group=0', '--numeric-owner', '-C', layout, '-cf', partial, '.']);
    run('mv', [partial, options.out]);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
