// Forgotten passwords and e-mail verification of a developer account (only while the dashboard can send e-mail:
// smtp_host). "Forgot your password?" takes an e-mail and answers the same page whatever it is: when an active
// developer of this organisation has it, a reset link goes out in the background (the look-up, the token and the
// mail: account-mail.ts), so neither the answer nor its timing tells which e-mails are registered. The link
// (account-tokens.ts: single use, expiring after portal_reset_token_ttl_seconds) opens a form for the new password
// (the sign-up rules: schemas.ts); setting it uses the token, hashes the password through the password-check gate,
// and ends the developer's sessions. The verification link of a sign-up (register/verify/) activates the account
// it was sent for. Every post passes forms.ts's CSRF checks, and the sign-in throttle (session/sign-in-throttle.ts)
// counts each forgot-password post and each refused link (opened or posted) per client address: a client over the
// limit gets 429 with Retry-After.
import { queryValue } from '../../../http/routes.ts';
import { changeDeveloperPassword } from '../../portal/developers.ts';
import { PasswordInput } from '../../portal/schemas.ts';
import { developerByEmail, getDeveloper, updateDeveloper } from '../../portal/store/developers.ts';
import { mailConfigured, portalLink, resetPasswordMail, sendAccountMail } from '../account-mail.ts';
import { issueAccountToken, peekAccountToken, useAccountToken } from '../account-tokens.ts';
import { redirectTo, sendPage, type PortalContext } from '../context.ts';
import { checkFormPost, formFields } from '../forms.ts';
import { html } from '../html.ts';
import { fieldInput } from './form-parts.ts';
import { waitText } from './wait-text.ts';

const SENT = 'If a developer account has this e-mail, we sent it a link to reset the password. The link works once; check your inbox (and the spam folder).';

function unavailable(ctx: PortalContext): unknown {
  return sendPage(
    ctx,
    { title: 'Password reset is not available', status: 404 },
    html`<h1>Password reset is not available</h1><p>This portal does not send e-mail: ask the API provider to reset your password.</p>`,
  );
}

function forgotForm(ctx: PortalContext, status = 200, notice = '', problem = ''): unknown {
  return sendPage(
    ctx,
    { title: 'Forgot your password?', current: 'login', status },
    html`<h1>Forgot your password?</h1>
${notice ? html`<p role="status" class="notice">${notice}</p>` : ''}
${problem ? html`<p role="alert" class="alert">${problem}</p>` : ''}
<form class="stack" method="post" action="${ctx.site.base}password/forgot/">
${fieldInput({ id: 'email', name: 'email', label: 'E-mail', type: 'email', autocomplete: 'email', value: '', required: true, hint: 'We send a link to reset your password to this address.' })}
<p><button type="submit">Send me a reset link</button></p>
</form>
<p><a href="${ctx.site.base}login/">Back to sign in</a></p>`,
  );
}

export async function forgotPage(ctx: PortalContext): Promise<unknown> {
  if (!mailConfigured(ctx.deps.config) || ctx.settings.disable_login) return unavailable(ctx);
  return forgotForm(ctx);
}

/** Mails a reset link when an active developer of this organisation has the e-mail (in the background of the post). */
async function sendResetLink(ctx: PortalContext, email: string): Promise<void> {
  const orgId = ctx.site.org.id;
  const developer = await developerByEmail(ctx.deps.db, orgId, email);
  if (!developer || developer.inactive) return;
  const token = await issueAccountToken(ctx.deps.db, { orgId, developerId: developer.id }, 'reset-password', ctx.deps.config.portal_reset_token_ttl_seconds);
  sendAccountMail(ctx, 'reset password', resetPasswordMail(ctx, developer.email, portalLink(ctx, `password/reset/?token=${token}`)));
}

export async function forgotPost(ctx: PortalContext): Promise<unknown> {
  const fields = formFields(ctx.request);
  checkFormPost(ctx.request, fields, ctx.signedIn?.session, ctx.deps.config.session_cookie_secure);
  if (!mailConfigured(ctx.deps.config) || ctx.settings.disable_login) return unavailable(ctx);
  const email = (fields.get('email') ?? '').trim().slice(0, 320);
  // Every request counts as a failure of the client: the answer is the same either way, and each may send a mail.
  const outcome = await ctx.deps.signIn.attempt({ client: ctx.request.ip }, async () => {
    // Not awaited: issuing a token (two writes) only for a registered e-mail would make the answer slower for it.
    if (email !== '')
      void sendResetLink(ctx, email).catch((error: unknown) =>
        ctx.deps.log.warn({ org: ctx.site.org.id, reason: error instanceof Error ? error.message : String(error) }, 'portal reset link not sent'),
      );
    return undefined;
  });
  if (outcome.kind === 'locked-out') {
    ctx.reply.header('retry-after', String(outcome.retryAfterSeconds));
    return forgotForm(ctx, 429, '', `Too many requests from your address. Wait ${waitText(outcome.retryAfterSeconds)}, then try again.`);
  }
  return forgotForm(ctx, 200, SENT);
}

function tooManyAttempts(ctx: PortalContext, retryAfterSeconds: number): unknown {
  ctx.reply.header('retry-after', String(retryAfterSeconds));
  return sendPage(
    ctx,
    { title: 'Too many attempts', status: 429 },
    html`<h1>Too many attempts</h1><p role="alert" class="alert">Too many attempts from your address. Wait ${waitText(retryAfterSeconds)}, then try again.</p>`,
  );
}

function invalidLink(ctx: PortalContext, what: string, status = 400): unknown {
  return sendPage(
    ctx,
    { title: 'This link does not work', status },
    html`<h1>This link does not work</h1><p role="alert" class="alert">The ${what} link is unknown, expired or already used.</p>${
      what === 'password reset' ? html`<p><a href="${ctx.site.base}password/forgot/">Ask for a new link</a></p>` : ''
    }`,
  );
}

function resetForm(ctx: PortalContext, token: string, error?: string, status = 200): unknown {
  return sendPage(
    ctx,
    { title: 'Choose a new password', current: 'login', status },
    html`<h1>Choose a new password</h1>
${error ? html`<p role="alert" class="alert">The form has problems: see the fields marked below.</p>` : ''}
<form class="stack" method="post" action="${ctx.site.base}password/reset/" novalidate>
<input type="hidden" name="token" value="${token}">
${fieldInput({ id: 'password', name: 'password', label: 'New password', type: 'password', autocomplete: 'new-password', value: '', required: true, hint: 'At least 8 characters.', error })}
<p><button type="submit">Set password</button></p>
</form>`,
  );
}

export async function resetPage(ctx: PortalContext): Promise<unknown> {
  if (!mailConfigured(ctx.deps.config)) return unavailable(ctx);
  const token = (queryValue(ctx.request, 'token') ?? '').slice(0, 200);
  const outcome = await ctx.deps.signIn.attempt({ client: ctx.request.ip }, () => peekAccountToken(ctx.deps.db, ctx.site.org.id, 'reset-password', token));
  if (outcome.kind === 'locked-out') return tooManyAttempts(ctx, outcome.retryAfterSeconds);
  if (outcome.kind === 'refused') return invalidLink(ctx, 'password reset');
  return resetForm(ctx, token);
}

export async function resetPost(ctx: PortalContext): Promise<unknown> {
  const fields = formFields(ctx.request);
  checkFormPost(ctx.request, fields, ctx.signedIn?.session, ctx.deps.config.session_cookie_secure);
  if (!mailConfigured(ctx.deps.config)) return unavailable(ctx);
  const token = (fields.get('token') ?? '').slice(0, 200);
  const parsed = PasswordInput.safeParse({ password: fields.get('password') ?? '' });
  if (!parsed.success) return resetForm(ctx, token, parsed.error.issues[0]?.message ?? 'not a valid password', 400);
  const orgId = ctx.site.org.id;
  const { signIn } = ctx.deps;
  const outcome = await signIn.attempt({ client: ctx.request.ip }, () => useAccountToken(ctx.deps.db, orgId, 'reset-password', token));
  if (outcome.kind === 'locked-out') {
    return tooManyAttempts(ctx, outcome.retryAfterSeconds);
  }
  if (outcome.kind === 'refused') return invalidLink(ctx, 'password reset');
  const developerId = outcome.value;
  await signIn.passwordChecks.run(() => changeDeveloperPassword(ctx.deps.db, orgId, developerId, parsed.data.password));
  await ctx.deps.db.query('DELETE FROM portal_developer_sessions WHERE org_id = $1 AND developer_id = $2', [orgId, developerId]);
  ctx.deps.log.info({ org: orgId, developer: developerId }, 'portal developer password reset');
  return redirectTo(ctx, 'login/?reset=1');
}

/** The verification link of a sign-up: activates the account it was sent for. */
export async function verifyEmail(ctx: PortalContext): Promise<unknown> {
  const token = (queryValue(ctx.request, 'token') ?? '').slice(0, 200);
  const orgId = ctx.site.org.id;
  const outcome = await ctx.deps.signIn.attempt({ client: ctx.request.ip }, () => useAccountToken(ctx.deps.db, orgId, 'verify-email', token));
  if (outcome.kind === 'locked-out') {
    return tooManyAttempts(ctx, outcome.retryAfterSeconds);
  }
  if (outcome.kind === 'refused') return invalidLink(ctx, 'e-mail verification');
  const developer = await getDeveloper(ctx.deps.db, orgId, outcome.value);
  // A developer who also awaits an administrator's approval stays inactive until approved.
  if (developer) await updateDeveloper(ctx.deps.db, { ...developer, inactive: developer.awaiting_approval });
  ctx.deps.log.info({ org: orgId, developer: outcome.value }, 'portal developer e-mail verified');
  return redirectTo(ctx, 'login/?verified=1');
}
