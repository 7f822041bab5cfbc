// The samples `gw up` applies: config/samples' protected API and the policy granting it (the same files a user
// applies with `kubectl apply -f config/samples`), aimed at gw up's echo upstream and put in namespace gw-demo.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './paths.ts';

export const DEMO_NAMESPACE = 'gw-demo';
export const DEMO_API = 'httpbin-protected';
export const DEMO_POLICY = 'httpbin-protected-gold';
/** The upstream config/samples are written for (a local httpbin); gw up replaces it with its echo server. */
export const SAMPLES_UPSTREAM = 'http://127.0.0.1:18080';

const SAMPLE_FILES = ['httpbin_protected.yaml', 'httpbin_protected_policy.yaml'];

/** The namespace and the sample manifests, as one multi-document YAML for `kubectl apply -n gw-demo -f -`. */
export function demoManifests(upstreamUrl: string): string {
  const samples = SAMPLE_FILES.map((file) => readFileSync(join(REPO_ROOT, 'config', 'samples', file), 'utf8').replaceAll(SAMPLES_UPSTREAM, upstreamUrl));
  const namespace = `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ${DEMO_NAMESPACE}\n`;
  return [namespace, ...samples].join('\n---\n');
}
