// Developer sign-up, sign-in and sign-out of one organisation's portal. Sign-up (closed with disable_signup)
// asks for an e-mail, a password and the configuration's signup_fields, refuses a taken e-mail at its field, and
// signs the developer in unless disable_auto_login; with require_developer_approval the developer is created
// inactive and told to wait for an administrator. Sign-in (closed with disable_login) checks the password
// through the portal store (portal/developers.ts verifyDeveloperCredentials: an unknown e-mail costs the same time) and answers one
// message for every failure, so it never tells which e-mails exist (the right password of a developer awaiting
// approval is told so: only someone who knows the password learns it). Repeated failures (per client address and per
// e-mail) lock sign-in out: 429 with Retry-After and the form's alert saying how long to wait, the same for an
// unknown e-mail (session/sign-in-throttle.ts); password hashing, at sign-in and sign-up, passes its concurrency gate
// (a burst waits, then gets 503). Sign-ups are throttled per client address (session/sign-in-throttle.ts
// signUp: 429 with Retry-After and the form's alert). Every post passes forms.ts's CSRF checks.
// Passwords are never echoed into a page nor logged.
import type { z } from 'zod';
import { queryValue } from '../../../http/routes.ts';
import { HttpError } from '../../../http/errors.ts';
import { checkDeveloperSignIn, createDeveloper } from '../../portal/developers.ts';
import { developerAccount, type SignUpOutcome } from '../../session/sign-in-throttle.ts';
import { DeveloperCreateInput } from '../../portal/schemas.ts';
import { redirectTo, sendPage, type PortalContext } from '../context.ts';
import { signInDeveloper, signOutDeveloper } from '../developer-session.ts';
import { checkFormPost, formFields } from '../forms.ts';
import { html, type Html } from '../html.ts';
import { fieldInput, fieldLabel, type FieldErrors } from './form-parts.ts';
import { waitText } from './wait-text.ts';
import { mailConfigured, portalLink, sendAccountMail, verifyEmailMail } from '../account-mail.ts';
import { issueAccountToken } from '../account-tokens.ts';

/** Where to go after signing in: a path inside the portal given as ?next=, else the developer's keys. */
function nextPath(value: string | undefined): string {
  return value !== undefined && /^(apis|member)\/[A-Za-z0-9._~%/-]*$/.test(value) && !value.includes('..') && !value.includes('//') ? value : 'member/';
}

const AWAITING_APPROVAL = 'An administrator approves new accounts of this portal: you can sign in once yours is approved.';

function registerForm(ctx: PortalContext, values: Record<string, string>, errors: FieldErrors, status = 200, problem?: string): unknown {
  const custom = ctx.settings.signup_fields;
  return sendPage(
    ctx,
    { title: 'Register', current: 'register', status },
    html`<h1>Register as a developer</h1>
${problem ? html`<p role="alert" class="alert">${problem}</p>` : Object.keys(errors).length > 0 ? html`<p role="alert" class="alert">The form has problems: see the fields marked below.</p>` : ''}
<form class="stack" method="post" action="${ctx.site.base}register/" novalidate>
${fieldInput({ id: 'email', name: 'email', label: 'E-mail', type: 'email', autocomplete: 'email', value: values.email ?? '', error: errors.email, required: true })}
${fieldInput({ id: 'password', name: 'password', label: 'Password', type: 'password', autocomplete: 'new-password', value: '', error: errors.password, required: true, hint: 'At least 8 characters.' })}
${custom.map((name, i) => fieldInput({ id: `signup-field-${i}`, name: `field.${name}`, label: fieldLabel(name), type: 'text', value: values[`field.${name}`] ?? '', error: errors[`field.${name}`] }))}
<p><button type="submit">Register</button></p>
</form>
<p>Already registered? ${ctx.settings.disable_login ? '' : html`<a href="${ctx.site.base}login/">Sign in</a>`}</p>`,
  );
}

function closedPage(ctx: PortalContext, what: string): unknown {
  return sendPage(ctx, { title: `${what} is closed`, status: 404 }, html`<h1>${what} is closed</h1><p>This portal does not offer ${what.toLowerCase()}.</p>`);
}

export async function registerPage(ctx: PortalContext): Promise<unknown> {
  if (ctx.settings.disable_signup) return closedPage(ctx, 'Sign-up');
  if (ctx.signedIn) return redirectTo(ctx, 'member/');
  return registerForm(ctx, {}, {});
}

export async function register(ctx: PortalContext): Promise<unknown> {
  const fields = formFields(ctx.request);
  checkFormPost(ctx.request, fields, undefined, ctx.deps.config.session_cookie_secure);
  if (ctx.settings.disable_signup) return closedPage(ctx, 'Sign-up');
  const values = Object.fromEntries([...fields].filter(([name]) => name !== 'password'));
  const custom = Object.fromEntries(ctx.settings.signup_fields.map((name) => [name, (fields.get(`field.${name}`) ?? '').trim()]));
  const verify = ctx.settings.require_email_verification;
  const approval = ctx.settings.require_developer_approval;
  // A developer who must verify their e-mail is created inactive; the link activates them (password-reset.ts).
  const parsed = DeveloperCreateInput.safeParse({
    email: (fields.get('email') ?? '').trim(),
    password: fields.get('password') ?? '',
    fields: custom,
    inactive: verify,
  });
  if (!parsed.success) return registerForm(ctx, values, errorsByField(parsed.error), 400);
  const orgId = ctx.site.org.id;
  const { signIn } = ctx.deps;
  let outcome: SignUpOutcome<string>;
  try {
    outcome = await signIn.signUp(
      ctx.request.ip,
      async () => (await signIn.passwordChecks.run(() => createDeveloper(ctx.deps.db, orgId, parsed.data, approval))).id,
    );
  } catch (error) {
    if (error instanceof HttpError && error.code === 'conflict')
      return registerForm(ctx, values, { email: 'This e-mail is already registered here: sign in instead' }, 409);
    throw error;
  }
  if (outcome.kind === 'locked-out') {
    ctx.deps.log.warn({ org: orgId, event: 'portal sign-up locked out' }, 'portal sign-up locked out after repeated sign-ups from one client');
    ctx.reply.header('retry-after', String(outcome.retryAfterSeconds));
    return registerForm(ctx, values, {}, 429, `Too many sign-ups from your address. Wait ${waitText(outcome.retryAfterSeconds)}, then try again.`);
  }
  const id = outcome.value;
  ctx.deps.log.info({ org: orgId, developer: id }, 'portal developer registered');
  if (verify) {
    if (!mailConfigured(ctx.deps.config))
      ctx.deps.log.error({ org: orgId }, 'require_email_verification is set but smtp_host is not: the developer cannot verify');
    const token = await issueAccountToken(ctx.deps.db, { orgId, developerId: id }, 'verify-email', ctx.deps.config.portal_verify_token_ttl_seconds);
    sendAccountMail(ctx, 'verify e-mail', verifyEmailMail(ctx, parsed.data.email, portalLink(ctx, `register/verify/?token=${token}`)));
    return sendPage(
      ctx,
      { title: 'Confirm your e-mail', current: 'register' },
      html`<h1>Confirm your e-mail</h1><p role="status" class="notice">We sent a link to ${parsed.data.email}. Open it to ${approval ? 'confirm your e-mail' : 'activate your account, then sign in'}.${approval ? ` ${AWAITING_APPROVAL}` : ''}</p>`,
    );
  }
  if (approval)
    return sendPage(ctx, { title: 'Registered', current: 'register' }, html`<h1>Registered</h1><p role="status" class="notice">${AWAITING_APPROVAL}</p>`);
  if (ctx.settings.disable_auto_login || ctx.settings.disable_login) return redirectTo(ctx, 'login/?registered=1');
  await signInDeveloper(ctx.deps.db, ctx.deps.config, ctx.site, id, ctx.request, ctx.reply);
  return redirectTo(ctx, 'member/');
}

function errorsByField(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const [first, second] = issue.path;
    const field = first === 'fields' ? `field.${String(second)}` : String(first);
    errors[field] ??= issue.message;
  }
  return errors;
}

function loginForm(ctx: PortalContext, email: string, problem: string | undefined, notice: Html | string, status = 200): unknown {
  const next = queryValue(ctx.request, 'next');
  return sendPage(
    ctx,
    { title: 'Sign in', current: 'login', status },
    html`<h1>Sign in</h1>
${notice ? html`<p role="status" class="notice">${notice}</p>` : ''}
${problem ? html`<p role="alert" class="alert" id="sign-in-problem">${problem}</p>` : ''}
<form class="stack" method="post" action="${ctx.site.base}login/${next ? `?next=${encodeURIComponent(nextPath(next))}` : ''}">
${fieldInput({ id: 'email', name: 'email', label: 'E-mail', type: 'email', autocomplete: 'username', value: email, required: true, invalid: problem !== undefined, describedBy: problem ? 'sign-in-problem' : undefined })}
${fieldInput({ id: 'password', name: 'password', label: 'Password', type: 'password', autocomplete: 'current-password', value: '', required: true, invalid: problem !== undefined })}
<p><button type="submit">Sign in</button></p>
</form>
${mailConfigured(ctx.deps.config) ? html`<p><a href="${ctx.site.base}password/forgot/">Forgot your password?</a></p>` : ''}
${ctx.settings.disable_signup ? '' : html`<p>New here? <a href="${ctx.site.base}register/">Register</a></p>`}`,
  );
}

export async function loginPage(ctx: PortalContext): Promise<unknown> {
  if (ctx.settings.disable_login) return closedPage(ctx, 'Sign-in');
  if (ctx.signedIn) return redirectTo(ctx, nextPath(queryValue(ctx.request, 'next')));
  const notice =
    queryValue(ctx.request, 'registered') === '1'
      ? 'You are registered: sign in with your e-mail and password.'
      : queryValue(ctx.request, 'signed_out') === '1'
        ? 'You are signed out.'
        : queryValue(ctx.request, 'reset') === '1'
          ? 'Your password is changed: sign in with the new one.'
          : queryValue(ctx.request, 'verified') === '1'
            ? 'Your e-mail is confirmed: sign in with your e-mail and password.'
            : '';
  return loginForm(ctx, '', undefined, notice);
}

export async function login(ctx: PortalContext): Promise<unknown> {
  const fields = formFields(ctx.request);
  checkFormPost(ctx.request, fields, undefined, ctx.deps.config.session_cookie_secure);
  if (ctx.settings.disable_login) return closedPage(ctx, 'Sign-in');
  const email = (fields.get('email') ?? '').trim().slice(0, 320);
  const password = (fields.get('password') ?? '').slice(0, 1024);
  const { signIn } = ctx.deps;
  const orgId = ctx.site.org.id;
  const outcome = await signIn.attempt({ client: ctx.request.ip, account: developerAccount(orgId, email) }, () =>
    signIn.passwordChecks.run(() => checkDeveloperSignIn(ctx.deps.db, orgId, email, password)),
  );
  if (outcome.kind === 'locked-out') {
    ctx.deps.log.warn({ org: orgId, event: 'portal sign-in locked out' }, 'portal sign-in locked out after repeated failures');
    ctx.reply.header('retry-after', String(outcome.retryAfterSeconds));
    return loginForm(ctx, email, `Too many failed sign-in attempts. Wait ${waitText(outcome.retryAfterSeconds)}, then try again.`, '', 429);
  }
  if (outcome.kind === 'refused') {
    ctx.deps.log.info({ org: orgId, event: 'portal sign-in refused' }, 'portal sign-in refused');
    return loginForm(ctx, email, 'That e-mail and password do not match an active developer account.', '', 401);
  }
  if (outcome.value.awaitingApproval) {
    ctx.deps.log.info({ org: orgId, developer: outcome.value.developer.id }, 'portal sign-in of a developer awaiting approval');
    return loginForm(ctx, email, 'Your account is waiting for an administrator’s approval: you can sign in once it is approved.', '', 403);
  }
  await signInDeveloper(ctx.deps.db, ctx.deps.config, ctx.site, outcome.value.developer.id, ctx.request, ctx.reply);
  return redirectTo(ctx, nextPath(queryValue(ctx.request, 'next')));
}

export async function logout(ctx: PortalContext): Promise<unknown> {
  const fields = formFields(ctx.request);
  // Anonymous (an expired session): only the Origin check applies, and clearing the cookie is all there is to do.
  checkFormPost(ctx.request, fields, ctx.signedIn?.session, ctx.deps.config.session_cookie_secure);
  await signOutDeveloper(ctx.deps.db, ctx.deps.config, ctx.site, ctx.request, ctx.reply);
  return redirectTo(ctx, 'login/?signed_out=1');
}
