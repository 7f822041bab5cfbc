// A worker thread of the gateway (started by primary.ts): one whole Gateway serving clients and the management API
// on the shared ports, its store the primary's (embedded, through RemoteStore) or Redis directly. It answers the
// primary's requests: prepare/commit/abort a reload round, apply a cache change, report its metrics, close.
import { parentPort, workerData } from 'node:worker_threads';
import { pino } from 'pino';
import { Gateway } from '../gateway.ts';
import type { PreparedLoad } from '../routing-loads.ts';
import { openStore } from '../store/open.ts';
import { RemoteStore } from './remote-store.ts';
import { SharedCounters } from '../store/shared-counters.ts';
import { serializeError, type ToWorker, type WorkerStart } from './protocol.ts';
import { PrimaryLink } from './worker-link.ts';

const start = workerData as WorkerStart;
const port = parentPort!;
const link = new PrimaryLink(port, start.index, start.epoch);
const shared = start.sharedCounters ? new SharedCounters(start.sharedCounters, start.index + 1) : undefined;
const remote = start.remoteStore ? new RemoteStore(link.storeCall, shared) : undefined;
/** Set once the gateway has started (messages that need it arrive only after it listens). */
const running: { gateway?: Gateway } = {};
/** The table this worker built for the round in progress. */
let prepared: { round: number; load: PreparedLoad } | undefined;

port.on('message', (message: ToWorker) => {
  if (link.answered(message)) return;
  switch (message.t) {
    case 'keyChanged':
      return remote?.keyChanged(message.storageId);
    case 'version':
      return link.changeFeed.advanceTo(message.version);
    case 'downHosts':
      return link.hostsDown(message.hosts);
    case 'streamMessages':
      return link.streamsRelayed(message.messages);
    case 'crash':
      // A real uncaught exception, as a defect would throw: the primary restarts this worker.
      setImmediate(() => {
        throw new Error(`gateway worker ${start.index}: crash requested (GW_DEBUG_WORKER_CRASH)`);
      });
      return;
    case 'prepare':
      return void running.gateway!.prepareLoad().then(
        (load) => {
          prepared = { round: message.round, load };
          link.post({ t: 'prepared', round: message.round });
        },
        (error: unknown) => link.post({ t: 'prepared', round: message.round, error: serializeError(error) }),
      );
    case 'commit': {
      const load = prepared?.round === message.round ? prepared.load : undefined;
      prepared = undefined;
      // Answered whatever happens, so the round (and whoever waits on it) never hangs on this worker.
      const applied = (): void => link.post({ t: 'applied', round: message.round });
      if (!load) return applied();
      return void running.gateway!.applyLoad(load).then(applied, (error: unknown) => {
        log.error({ err: String(error) }, 'reload: the new routing table could not be applied');
        applied();
      });
    }
    case 'abort':
      prepared = undefined;
      return;
    case 'apply': {
      const done = (): void => link.post({ t: 'done', id: message.id });
      const { change } = message;
      if (change.what === 'jwks') {
        running.gateway!.flushJwksHere(change.apiId);
        return done();
      }
      return void running.gateway!.certificatesChangedHere().then(done, done);
    }
    case 'collectMetrics':
      return void running.gateway!.metrics.registry.getMetricsAsJSON().then((metrics) => link.post({ t: 'metricsOf', id: message.id, metrics }));
    case 'close':
      return void running.gateway!.close(message.graceMs).finally(() => {
        link.post({ t: 'closed' });
        port.close();
      });
    default:
      return;
  }
});

const log = pino({ level: start.config.log_level }).child({ worker: start.index });
const store = remote ?? (await openStore(start.config));
running.gateway = await Gateway.start(start.config, { log, store, worker: link });
link.post({ t: 'listening', ports: running.gateway.ports });
