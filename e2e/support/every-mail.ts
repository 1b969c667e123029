import { fileURLToPath } from 'node:url';
import { DEFAULT_RESET_LINK_LIFETIME_MINUTES, LANGUAGES, type Language } from '@concierge/contracts';
import { renderPasswordChangedMail } from '../../apps/provider/src/mail/password-changed-mail';
import { renderResetMail } from '../../apps/provider/src/mail/reset-mail';
import { renderActivationMail } from '../../apps/server/src/mail/activation-mail';
import { renderAlreadyActiveMail } from '../../apps/server/src/mail/already-active-mail';
import { renderInvitationMail } from '../../apps/server/src/mail/invitation-mail';
import { renderInvitationRequestNotice } from '../../apps/server/src/mail/invitation-request-notice';
import {
  activationLink,
  customerLoginLink,
  invitationLink,
  passwordResetLink,
} from '../../apps/server/src/mail/links';
import { mailBrand } from '../../apps/server/src/mail/mail-brand';
import { loadTenantRegistry } from '../../apps/server/src/tenants/load-registry';

export interface RenderedMail {
  /** e.g. "reset (fr, alpenblick)" */
  name: string;
  html: string;
}

/**
 * Every e-mail both apps send — the server's activation, "already active" and invitation, the
 * provider's reset and "password changed" — rendered by the apps' own code with the demo tenants as
 * the stack configures them (scripts/stack.mjs gives the provider each tenant's name and colour):
 * every mail in every language in the default brand, and in each other brand in one language.
 */
export async function renderEveryMail(portalUrl: string): Promise<RenderedMail[]> {
  const registry = await loadTenantRegistry(
    fileURLToPath(new URL('../../tenants/tenants.json', import.meta.url)),
  );
  const to = 'anna.muster@example.ch';
  return registry.tenants.flatMap((tenant) => {
    const { subdomain } = tenant;
    const brand = mailBrand(registry, tenant, portalUrl);
    const provider = { to, tenantName: tenant.displayName, brandColor: tenant.brand.primaryColor };
    const languages: readonly Language[] =
      subdomain === registry.defaultFor('dev').subdomain ? LANGUAGES : ['fr'];
    return languages.flatMap((language) => {
      const mails = {
        activation: renderActivationMail({
          to,
          language,
          brand,
          link: activationLink(portalUrl, { email: to, verificationId: 'v-1', subdomain }),
          validHours: 48,
        }),
        'already active': renderAlreadyActiveMail({
          to,
          language,
          brand,
          signInLink: customerLoginLink(tenant.portalUrl),
          resetLink: passwordResetLink(portalUrl, { email: to, subdomain }),
        }),
        invitation: renderInvitationMail({
          to,
          language,
          brand,
          code: 'K7P-2XQ-9MF',
          link: invitationLink(portalUrl, { code: 'K7P-2XQ-9MF', email: to, inviteId: 'i-1', subdomain }),
          lastValidDay: new Date('2027-01-31T12:00:00Z'),
        }),
        'request for a new invitation': renderInvitationRequestNotice({
          to: 'verwaltung@example.ch',
          language,
          brand,
          inviteeEmail: to,
          invitationId: '3f0e4a53-4a8e-4d2b-9c7e-0d1c2b3a4f5e',
          tenant: subdomain,
        }),
        reset: renderResetMail({
          ...provider,
          language,
          link: `${portalUrl}/password-set?subdomain=${subdomain}&exchangeid=x-1&rprq=p-1`,
          lifetimeMinutes: DEFAULT_RESET_LINK_LIFETIME_MINUTES,
        }),
        'password changed': renderPasswordChangedMail({
          ...provider,
          language,
          changedAt: new Date('2026-07-01T12:05:00Z'),
        }),
      };
      return Object.entries(mails).map(([kind, mail]) => ({
        name: `${kind} (${language}, ${subdomain})`,
        html: mail.html,
      }));
    });
  });
}
