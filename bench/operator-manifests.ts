// bench/operator's resources: `apis` ApiDefinitions and `policies` SecurityPolicies spread over `namespaces` (API i
// and policy p in namespaces[i mod N]); policy p grants ten APIs of its own namespace, the next ten after those of
// the namespace's previous policy (one namespace: policy p grants APIs 10p ... 10p + 9). With apis a multiple of N
// every reference stays inside one namespace.
export function benchManifests(apis: number, policies: number, namespaces: string[]): object[] {
  const namespaceOf = (i: number): string => namespaces[i % namespaces.length]!;
  const items: object[] = [];
  for (let i = 0; i < apis; i++) {
    items.push({
      apiVersion: 'gw.gw.io/v1alpha1',
      kind: 'ApiDefinition',
      metadata: { name: `api-${i}`, namespace: namespaceOf(i) },
      spec: {
        name: `api-${i}`,
        use_keyless: false,
        active: true,
        proxy: { listen_path: `/bench-${i}`, target_url: 'http://127.0.0.1:9', strip_listen_path: true },
      },
    });
  }
  for (let p = 0; p < policies; p++) {
    const n = namespaces.length;
    const first = (p % n) + n * 10 * Math.floor(p / n); // the namespace's (p / n)-th block of ten APIs
    const granted = Array.from({ length: 10 }, (_, k) => ({ name: `api-${(first + k * n) % apis}` }));
    items.push({
      apiVersion: 'gw.gw.io/v1alpha1',
      kind: 'SecurityPolicy',
      metadata: { name: `policy-${p}`, namespace: namespaceOf(p) },
      spec: { name: `policy-${p}`, rate: 100, per: 60, access_rights_array: granted },
    });
  }
  return items;
}
