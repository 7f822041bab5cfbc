// bench/operator's view of leader election: the Lease read every second until stopped, how long before each read it
// was last renewed (its renewTime's age: a leader renews every retry period, 2 s by default, and gives up after the
// renew deadline, 10 s) and every identity seen holding it (more than one: leadership changed hands).
import { setTimeout as sleep } from 'node:timers/promises';
import type { KubeClient } from '../src/kube/client.ts';
import type { KubeObject } from '../src/kube/object.ts';
import { CoreResources } from '../src/kube/resource.ts';

export interface LeaseWatch {
  samples: number;
  maxRenewAgeS: number;
  holders: Set<string>;
  stop(): Promise<void>;
}

type Lease = KubeObject & { spec?: { holderIdentity?: string; renewTime?: string } };

export function watchLease(kube: KubeClient, namespace: string, name: string): LeaseWatch {
  const watch: LeaseWatch = { samples: 0, maxRenewAgeS: 0, holders: new Set(), stop: async () => undefined };
  let running = true;
  const loop = (async () => {
    while (running) {
      const lease = await kube.get<Lease>(CoreResources.lease, namespace, name).catch(() => undefined);
      if (lease?.spec?.renewTime && lease.spec.holderIdentity) {
        watch.samples++;
        watch.holders.add(lease.spec.holderIdentity);
        watch.maxRenewAgeS = Math.max(watch.maxRenewAgeS, (Date.now() - Date.parse(lease.spec.renewTime)) / 1000);
      }
      await sleep(1000);
    }
  })();
  watch.stop = async () => {
    running = false;
    await loop;
  };
  return watch;
}
