// /api/portal/configuration: the organisation's portal configuration (permission `portal`), Tyk\'s
// payloads (docs/compatibility.md, PortalConfig):
//   GET  {...configuration, id, org_id, HashKeys}; 404 when the organisation never wrote one (the operator then POSTs)
//   POST a configuration -> {Status: "OK", Message: <configuration id>, Meta: null}; 409 when one exists
//   PUT  a configuration -> {Status: "OK", Message: <configuration id>, Meta: null}; creates it when missing
// `id` and `org_id` in a body are ignored (the configuration is the caller's organisation's). HashKeys is the
// dashboard's hash_keys setting (read-only), as Tyk adds it. In an operator_managed organisation only the
// operator's system user may write it (its PortalConfig kind owns it); everyone with the permission keeps reading.
import type { FastifyInstance } from 'fastify';
import { orgRoute } from '../../access.ts';
import type { DashboardDeps } from '../../deps.ts';
import { HttpError, notFound, objectBody, parseWith, sendJson, sendOk } from '../../http.ts';
import { objectId } from '../../ids.ts';
import { write } from '../../store/write.ts';
import { PortalConfigInput, type PortalConfigSettings } from '../config-schema.ts';
import { getPortalConfig, insertPortalConfig, updatePortalConfig } from '../store/configuration.ts';

export function registerConfigurationRoutes(app: FastifyInstance, deps: DashboardDeps): void {
  const { db, config } = deps;
  const settingsOf = (body: Record<string, unknown>): PortalConfigSettings => {
    const { id: _id, org_id: _org, ...settings } = parseWith(PortalConfigInput, body);
    return settings;
  };

  orgRoute(
    app,
    '/api/portal/configuration',
    'portal',
    {
      GET: async (_request, reply, { org }) => {
        const stored = await getPortalConfig(db, org.id);
        if (!stored) throw notFound('Portal configuration');
        return sendJson(reply, 200, { ...stored.config, id: stored.id, org_id: stored.org_id, HashKeys: config.hash_keys });
      },
      POST: async (request, reply, { org }) => {
        const settings = settingsOf(objectBody(request, 'the configuration'));
        const id = await write(db, org.id, { bumpRevision: false }, async (tx) => {
          const existing = await getPortalConfig(tx, org.id);
          if (existing) throw new HttpError('conflict', `this organisation already has a portal configuration (${existing.id}): update it with PUT`);
          const created = objectId();
          await insertPortalConfig(tx, { id: created, org_id: org.id, config: settings });
          return created;
        });
        deps.log.info({ org: org.id, configuration: id }, 'portal configuration created');
        return sendOk(reply, id);
      },
      PUT: async (request, reply, { org }) => {
        const settings = settingsOf(objectBody(request, 'the configuration'));
        const id = await write(db, org.id, { bumpRevision: false }, async (tx) => {
          const existing = await getPortalConfig(tx, org.id);
          if (existing) {
            await updatePortalConfig(tx, { ...existing, config: settings });
            return existing.id;
          }
          const created = objectId();
          await insertPortalConfig(tx, { id: created, org_id: org.id, config: settings });
          return created;
        });
        deps.log.info({ org: org.id, configuration: id }, 'portal configuration updated');
        return sendOk(reply, id);
      },
    },
    { operatorManaged: 'Portal configuration settings' },
  );
}
