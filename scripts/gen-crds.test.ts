import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { kinds } from '../src/domain/crd/kinds.ts';
import { renderCrdFiles, staleCrdFiles } from './gen-crds.ts';

type Crd = {
  metadata: { name: string };
  spec: {
    group: string;
    names: { kind: string; plural: string; shortNames: string[]; categories: string[] };
    scope: string;
    versions: {
      name: string;
      served: boolean;
      storage: boolean;
      subresources: { status: object };
      additionalPrinterColumns: { name: string; jsonPath: string }[];
      schema: { openAPIV3Schema: { required: string[]; properties: Record<string, Record<string, unknown>> } };
    }[];
  };
};

const crds = new Map(
  [...renderCrdFiles().values()].map((text) => {
    const crd = parse(text) as Crd;
    return [crd.spec.names.kind, crd];
  }),
);

const columns = (kind: string): string[] => crds.get(kind)!.spec.versions[0]!.additionalPrinterColumns.map((c) => c.name.toUpperCase());

describe('generated CRDs', () => {
  it('crds/, charts/gw-operator/crds/ and config/crd/ match the zod schemas (run `npm run gen:crds` after changing src/domain/crd)', () => {
    expect(staleCrdFiles()).toEqual([]);
  });

  it('define the ten kinds of gw.gw.io/v1alpha1, namespaced, in category gw, with a status subresource', () => {
    expect([...crds.keys()].sort()).toEqual([
      'APIDescription',
      'ApiDefinition',
      'GwOasApiDefinition',
      'GwStreamsApiDefinition',
      'OperatorContext',
      'PortalAPICatalogue',
      'PortalConfig',
      'SecurityPolicy',
      'SubGraph',
      'SuperGraph',
    ]);
    for (const crd of crds.values()) {
      expect(crd.metadata.name).toBe(`${crd.spec.names.plural}.gw.gw.io`);
      expect(crd.spec.group).toBe('gw.gw.io');
      expect(crd.spec.scope).toBe('Namespaced');
      expect(crd.spec.names.categories).toEqual(['gw']);
      expect(crd.spec.names.shortNames.length).toBeGreaterThan(0);
      const [version] = crd.spec.versions;
      expect(version).toMatchObject({ name: 'v1alpha1', served: true, storage: true, subresources: { status: {} } });
      expect(version!.schema.openAPIV3Schema.required).toEqual(['spec']);
    }
  });

  it("show Tyk's columns in kubectl get, then READY and REASON (the Ready condition) on every kind", () => {
    const readiness = ['READY', 'REASON', 'AGE'];
    expect(columns('ApiDefinition')).toEqual(['DOMAIN', 'LISTENPATH', 'PROXY.TARGETURL', 'ENABLED', 'SYNCSTATUS', 'INGRESSTEMPLATE', ...readiness]);
    expect(columns('GwOasApiDefinition')).toEqual(['DOMAIN', 'LISTENPATH', 'PROXY.TARGETURL', 'ENABLED', 'SYNCSTATUS', 'INGRESSTEMPLATE', ...readiness]);
    expect(columns('GwStreamsApiDefinition')).toEqual(['DOMAIN', 'LISTENPATH', 'ENABLED', 'SYNCSTATUS', ...readiness]);
    expect(columns('SecurityPolicy')).toEqual(['POLICYNAME', 'STATE', 'SYNCSTATUS', ...readiness]);
    expect(columns('OperatorContext')).toEqual(['MODE', 'URL', ...readiness]);
    expect(columns('SubGraph')).toEqual(readiness);
    expect(columns('SuperGraph')).toEqual(readiness);
    expect(columns('APIDescription')).toEqual(['APINAME', ...readiness]);
    expect(columns('PortalAPICatalogue')).toEqual(['ID', ...readiness]);
    expect(columns('PortalConfig')).toEqual(['ID', 'SYNCSTATUS', ...readiness]);
    for (const crd of crds.values()) {
      const printed = crd.spec.versions[0]!.additionalPrinterColumns;
      expect(new Set(printed.map((c) => c.name.toUpperCase())).has('NAME'), crd.spec.names.kind).toBe(false); // kubectl prints NAME itself
      expect(printed.find((c) => c.name === 'Ready')?.jsonPath).toBe('.status.conditions[?(@.type=="Ready")].status');
    }
  });

  it('key status.conditions by type so server-side apply merges one condition at a time', () => {
    for (const kind of kinds) {
      const status = crds.get(kind.kind)!.spec.versions[0]!.schema.openAPIV3Schema.properties.status as {
        properties: { conditions?: Record<string, unknown> };
      };
      expect(status.properties.conditions, kind.kind).toMatchObject({
        type: 'array',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['type'],
      });
    }
  });

  it("keep unknown fields in the specs gw's design leaves open, and only there", () => {
    const open = (kind: string): unknown => crds.get(kind)!.spec.versions[0]!.schema.openAPIV3Schema.properties.spec!['x-kubernetes-preserve-unknown-fields'];
    for (const kind of ['SubGraph', 'SuperGraph', 'APIDescription', 'PortalAPICatalogue', 'PortalConfig']) expect(open(kind), kind).toBe(true);
    for (const kind of ['ApiDefinition', 'GwOasApiDefinition', 'GwStreamsApiDefinition', 'SecurityPolicy', 'OperatorContext'])
      expect(open(kind), kind).toBeUndefined();
  });
});

describe('CRD YAML as Kubernetes reads it (YAML 1.1)', () => {
  it('reads back the same schema: field names such as `on` (url_rewrites triggers) stay strings', () => {
    for (const text of renderCrdFiles().values()) {
      expect(parse(text, { version: '1.1' })).toEqual(parse(text, { version: '1.2' }));
    }
  });
});
