// /api/portal/developers: the organisation's portal developers (permission `portal`), Tyk\'s payloads
// (docs/compatibility.md). A password is taken in plain text, stored only as its scrypt hash and never answered.
//   GET    /api/portal/developers[?p=][&q=]              {Data: [developer], Pages}; q (gw): e-mails containing it, any case
//   POST   /api/portal/developers                        {email, password, inactive?, fields?} -> {Status: "OK", Message: <id>, Meta: null}
//   GET    /api/portal/developers/{id}                   developer
//   PUT    /api/portal/developers/{id}                   {email, password?, inactive?, fields?} -> Message "Data updated"
//   DELETE /api/portal/developers/{id}                   Message "Data deleted" (their key requests go too; issued keys stay)
//   GET    /api/portal/developers/email/{email}          developer
//   POST   /api/portal/developers/verify_credentials     {username, password} -> 200 Message <id>, or 401; 429 +
//                                                        Retry-After after repeated failures (session/sign-in-throttle.ts)
//   POST   /api/portal/developers/password/{id}          {password} -> Message "Password changed"
//   PUT    /api/portal/developers/approve/{id}           (gw) approves a developer awaiting approval -> Message "Developer
//                                                        approved" (409 when not awaiting); e-mails them with smtp_host
//   POST   /api/portal/developers/{id}/keys              {apply_policies[], fields?} -> {RawKey: <key>, Password: ""}
//   DELETE /api/portal/developers/{id}/keys/{keyId}      Message "Key revoked" ({keyId}: as the developer's `keys` shows it)
// developer = {id, _id, email, date_created, inactive, awaiting_approval (gw), org_id, keys, subscriptions, fields,
// nonce, sso_key}.
import type { FastifyInstance } from 'fastify';
import { orgRoute } from '../../access.ts';
import type { DashboardDeps } from '../../deps.ts';
import { HttpError, notFound, objectBody, param, parseWith, query, sendError, sendJson, sendOk } from '../../http.ts';
import { pageOf, pagesOf } from '../../paging.ts';
import { developerAccount, sendLockedOut } from '../../session/sign-in-throttle.ts';
import { approveDeveloper, changeDeveloperPassword, createDeveloper, developerView, updateDeveloperRecord, verifyDeveloperCredentials } from '../developers.ts';
import { issueDeveloperKey, revokeDeveloperKey } from '../developer-keys.ts';
import { CredentialsInput, DeveloperCreateInput, DeveloperKeyInput, DeveloperUpdateInput, PasswordInput } from '../schemas.ts';
import { deleteDeveloper, developerByEmail, getDeveloper, listDevelopers } from '../store/developers.ts';
import { portalSettings } from '../store/configuration.ts';
import { developerApprovedMail, mailConfigured, portalLink, sendAccountMail } from '../../portal-site/account-mail.ts';
import { portalSiteOf } from '../../portal-site/site.ts';

export const INVALID_CREDENTIALS = 'Invalid developer credentials';

export function registerDeveloperRoutes(app: FastifyInstance, deps: DashboardDeps): void {
  const { db, config, signIn } = deps;

  orgRoute(app, '/api/portal/developers', 'portal', {
    GET: async (request, reply, { org }) => {
      const page = pageOf(request, config.page_size);
      const search = query(request, 'q') ?? '';
      if (search.length > 320) throw new HttpError('invalid', 'q: must be at most 320 characters');
      const { items, total } = await listDevelopers(db, org.id, page, search);
      return sendJson(reply, 200, { Data: items.map(developerView), Pages: pagesOf(total, page) });
    },
    POST: async (request, reply, { org }) => {
      const developer = await createDeveloper(db, org.id, parseWith(DeveloperCreateInput, objectBody(request, 'the developer')));
      deps.log.info({ org: org.id, developer: developer.id }, 'portal developer created');
      return sendOk(reply, developer.id);
    },
  });

  orgRoute(app, '/api/portal/developers/verify_credentials', 'portal', {
    POST: async (request, reply, { org, user }) => {
      const { username, password } = parseWith(CredentialsInput, objectBody(request, 'the credentials'));
      // The client is the API user asking (a portal backend verifies for many developers from one address).
      const outcome = await signIn.attempt({ client: `api user ${user.id}`, account: developerAccount(org.id, username) }, () =>
        signIn.passwordChecks.run(() => verifyDeveloperCredentials(db, org.id, username, password)),
      );
      if (outcome.kind === 'locked-out') return sendLockedOut(reply, outcome.retryAfterSeconds);
      return outcome.kind === 'signed-in' ? sendOk(reply, outcome.value.id) : sendError(reply, 401, INVALID_CREDENTIALS);
    },
  });

  orgRoute(app, '/api/portal/developers/email/:email', 'portal', {
    GET: async (request, reply, { org }) => {
      const developer = await developerByEmail(db, org.id, param(request, 'email'));
      if (!developer) throw notFound('Developer');
      return sendJson(reply, 200, developerView(developer));
    },
  });

  orgRoute(app, '/api/portal/developers/password/:id', 'portal', {
    POST: async (request, reply, { org }) => {
      const { password } = parseWith(PasswordInput, objectBody(request, 'the password'));
      if (!(await changeDeveloperPassword(db, org.id, param(request, 'id'), password))) throw notFound('Developer');
      return sendOk(reply, 'Password changed');
    },
  });

  orgRoute(app, '/api/portal/developers/approve/:id', 'portal', {
    PUT: async (request, reply, { org }) => {
      const developer = await approveDeveloper(db, org.id, param(request, 'id'));
      deps.log.info({ org: org.id, developer: developer.id }, 'portal developer approved');
      if (mailConfigured(config)) {
        const mail = { deps, site: portalSiteOf(org), settings: await portalSettings(db, org.id) };
        sendAccountMail(mail, 'developer approved', developerApprovedMail(mail, developer.email, portalLink(mail, 'login/')));
      }
      return sendOk(reply, 'Developer approved');
    },
  });

  orgRoute(app, '/api/portal/developers/:id', 'portal', {
    GET: async (request, reply, { org }) => {
      const developer = await getDeveloper(db, org.id, param(request, 'id'));
      if (!developer) throw notFound('Developer');
      return sendJson(reply, 200, developerView(developer));
    },
    PUT: async (request, reply, { org }) => {
      await updateDeveloperRecord(db, org.id, param(request, 'id'), parseWith(DeveloperUpdateInput, objectBody(request, 'the developer')));
      return sendOk(reply, 'Data updated');
    },
    DELETE: async (request, reply, { org }) => {
      if (!(await deleteDeveloper(db, org.id, param(request, 'id')))) throw notFound('Developer');
      deps.log.info({ org: org.id, developer: param(request, 'id') }, 'portal developer deleted');
      return sendOk(reply, 'Data deleted');
    },
  });

  orgRoute(app, '/api/portal/developers/:id/keys', 'portal', {
    POST: async (request, reply, { org }) => {
      const { apply_policies: policies } = parseWith(DeveloperKeyInput, objectBody(request, 'the key'));
      const issued = await issueDeveloperKey(deps, org.id, param(request, 'id'), policies);
      deps.log.info({ org: org.id, developer: param(request, 'id') }, 'portal developer key created');
      return sendJson(reply, 200, issued);
    },
  });

  orgRoute(app, '/api/portal/developers/:id/keys/:keyId', 'portal', {
    DELETE: async (request, reply, { org }) => {
      await revokeDeveloperKey(db, org.id, param(request, 'id'), param(request, 'keyId'));
      deps.log.info({ org: org.id, developer: param(request, 'id') }, 'portal developer key revoked');
      return sendOk(reply, 'Key revoked');
    },
  });
}
