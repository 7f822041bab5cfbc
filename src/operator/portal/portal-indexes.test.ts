// The portal indexes as a unit: which catalogues publish a policy — inline, or through an APIDescription they
// list — counting only catalogues on a dashboard (status.id).
import { describe, expect, it } from 'vitest';
import { Cache } from '../../kube/cache.ts';
import { addPortalIndexes, cataloguesPublishingPolicy } from './portal-indexes.ts';
import type { APIDescriptionObject, PortalAPICatalogueObject, PortalConfigObject } from './portal-resources.ts';

describe('cataloguesPublishingPolicy', () => {
  it('finds the catalogues naming a policy inline or through a listed description, on a dashboard only', () => {
    const caches = {
      descriptions: new Cache<APIDescriptionObject>(),
      catalogues: new Cache<PortalAPICatalogueObject>(),
      configs: new Cache<PortalConfigObject>(),
    };
    addPortalIndexes(caches);
    caches.descriptions.upsert({ metadata: { name: 'pay', namespace: 'a' }, spec: { name: 'Pay', policyRef: { name: 'gold', namespace: 'p' } } });
    caches.descriptions.upsert({ metadata: { name: 'other', namespace: 'a' }, spec: { name: 'Other', policyRef: { name: 'silver' } } });
    caches.catalogues.upsert({ metadata: { name: 'listing', namespace: 'a' }, spec: { apis: [{ apiDescriptionRef: { name: 'pay' } }] }, status: { id: 'c1' } });
    caches.catalogues.upsert({
      metadata: { name: 'inline', namespace: 'p' },
      spec: { apis: [{ apiDescriptionRef: { name: 'x' }, policyRef: { name: 'gold' } }] },
      status: { id: 'c2' },
    });
    caches.catalogues.upsert({ metadata: { name: 'ce-only', namespace: 'a' }, spec: { apis: [{ apiDescriptionRef: { name: 'pay' } }] } });
    expect(cataloguesPublishingPolicy(caches, 'p/gold')).toEqual(['PortalAPICatalogue a/listing', 'PortalAPICatalogue p/inline']);
    expect(cataloguesPublishingPolicy(caches, 'a/silver')).toEqual([]);
  });
});
