// Webhook serving certificates on disk exactly as the kubelet projects a Secret volume: the files live in a
// timestamped directory, `..data` is a symlink to it, and tls.crt / tls.key are symlinks through `..data`. An update
// writes a new directory and swaps `..data` in one rename, so readers see the old pair or the new pair, never a mix.
// Tests use it to rotate certificates under a running webhook server.
import { existsSync, mkdirSync, readlinkSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';

export interface PemPair {
  certPem: string;
  keyPem: string;
}

export function writeCertDir(dir: string, pair: PemPair): void {
  mkdirSync(dir, { recursive: true });
  const version = `..${new Date().toISOString().replace(/[:.]/g, '_')}.${randomBytes(4).toString('hex')}`;
  mkdirSync(join(dir, version));
  writeFileSync(join(dir, version, 'tls.crt'), pair.certPem);
  writeFileSync(join(dir, version, 'tls.key'), pair.keyPem, { mode: 0o600 });
  const data = join(dir, '..data');
  const previous = existsSync(data) ? readlinkSync(data) : undefined;
  symlinkSync(version, join(dir, '..data_tmp'));
  renameSync(join(dir, '..data_tmp'), data);
  for (const file of ['tls.crt', 'tls.key']) {
    if (!existsSync(join(dir, file))) symlinkSync(join('..data', file), join(dir, file));
  }
  if (previous) rmSync(join(dir, previous), { recursive: true, force: true });
}
