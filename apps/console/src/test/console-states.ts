import type {
  AdminBatch,
  AdminBatchCode,
  AdminInvitation,
  ConsoleBrand,
  ConsolePage,
  ConsolePageState,
  Language,
  TenantFigures,
} from '@concierge/contracts';

// Realistic states as the server hands them to the console: a property manager of one tenant.

export const TOKEN = 'csrf-token-of-the-session';
export const demo = { subdomain: 'demo', displayName: 'Demo Verwaltung AG' };
export const BATCH_ID = '3f0c7a2e-5b1d-4c8e-9a6f-1d2e3f4a5b6c';

export function stateFor(
  view: ConsolePage,
  language: Language = 'de',
  extra: Partial<ConsolePageState> = {},
) {
  return {
    language,
    user: { email: 'anna.muster@verwaltung.ch', name: 'Anna Muster', role: 'manager' },
    tenants: [demo],
    csrfToken: TOKEN,
    flash: null,
    url: '/console/t/demo',
    sessionEndsAt: null,
    view,
    ...extra,
  } satisfies ConsolePageState;
}

const figures = {
  codes: 20,
  unused: 15,
  pending: 0,
  used: 3,
  activated: 2,
  locked: 1,
  revoked: 1,
  expired: 1,
};

export const tenantFigures: TenantFigures = { tenant: 'demo', ...figures, invitationsOpen: 2 };

export const batch: AdminBatch = {
  id: BATCH_ID,
  tenant: 'demo',
  building: 'Seestrasse 12, 8002 Zürich',
  // 23:30 UTC on 1 March is already 2 March in Zurich.
  createdAt: '2026-03-01T23:30:00.000Z',
  expiresAt: '2026-06-30T21:59:59.000Z',
  revokedAt: null,
  figures,
};

function code(unit: string, overrides: Partial<AdminBatchCode>): AdminBatchCode {
  return {
    code: `0a1b2c3d-4e5f-4a6b-8c7d-${unit.replace('.', '').padStart(12, '0')}`,
    tenant: 'demo',
    status: 'unused',
    claimedEmail: null,
    sub: null,
    createdAt: batch.createdAt,
    usedAt: null,
    revokedAt: null,
    registerUrl: 'https://login.example.ch/register?subdomain=demo',
    unit,
    name: null,
    language: 'de',
    expiresAt: batch.expiresAt,
    state: 'unused',
    ...overrides,
  };
}

export const codes = {
  unused: code('1.1', { name: 'Anna Muster' }),
  unusedFrench: code('1.2', { name: 'Luc Favre', language: 'fr' }),
  used: code('2.1', { status: 'used', state: 'used', claimedEmail: 'luca.rossi@example.ch', language: 'it' }),
  activated: code('2.2', { status: 'used', state: 'activated', claimedEmail: 'eva@example.ch' }),
  revoked: code('3.1', { status: 'revoked', state: 'revoked' }),
};

function invitation(email: string, overrides: Partial<AdminInvitation>): AdminInvitation {
  const id = `9b8a7c6d-5e4f-4a3b-8c2d-${email.length.toString().padStart(12, '0')}`;
  return {
    id,
    tenant: 'demo',
    email,
    code: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
    codeStatus: 'unused',
    language: 'de',
    createdAt: '2026-03-02T08:00:00.000Z',
    expiresAt: '2099-03-16T08:00:00.000Z',
    revokedAt: null,
    registerUrl: 'https://login.example.ch/register?subdomain=demo',
    ...overrides,
  };
}

export const invitations = {
  open: invitation('open@example.ch', {}),
  registered: invitation('registered.person@example.ch', { codeStatus: 'used' }),
  withdrawn: invitation('withdrawn.x@example.ch', {
    revokedAt: '2026-03-03T08:00:00.000Z',
    codeStatus: 'revoked',
  }),
};

export const request = {
  id: 'c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f',
  tenant: 'demo',
  email: 'withdrawn.x@example.ch',
  invitationId: invitations.withdrawn.id,
  createdAt: '2026-03-04T09:15:00.000Z',
};

const published: ConsoleBrand = {
  displayName: 'Demo Verwaltung AG',
  primaryColor: '#1864ab',
  themePreset: 'default',
  logoUrl: '/brand/demo/logo.svg',
  stylesheet: '',
  contact: { name: 'Demo Verwaltung', phone: '+41 44 000 00 00', email: 'kontakt@demo.ch' },
  flags: {
    hideRegisterLoginLink: false,
    skipFreshRequestIdRedirect: false,
    useSpecialLogo: false,
    registrationEnabled: true,
    inviteEnabled: true,
  },
};

/** Every page a signed-in manager sees, with the post actions each of its forms has (sign-out aside). */
export function signedInPages(): { view: ConsolePage; actions: string[] }[] {
  const t = '/console/t/demo';
  return [
    { view: { page: 'home', figures: [tenantFigures] }, actions: [] },
    {
      view: { page: 'tenant', tenant: demo, figures: tenantFigures, batches: [batch], requests: [request] },
      actions: [],
    },
    { view: { page: 'batch-new', tenant: demo, form: null }, actions: [`${t}/batches`] },
    {
      view: {
        page: 'batch',
        tenant: demo,
        detail: { batch, codes: Object.values(codes) },
      },
      actions: [`${t}/batches/${BATCH_ID}/revoke`, `${t}/codes/revoke`],
    },
    {
      view: {
        page: 'invitations',
        tenant: demo,
        invitations: Object.values(invitations),
        requests: [request],
        form: null,
      },
      actions: [
        `${t}/invitations`,
        `${t}/invitations/${invitations.open.id}/resend`,
        `${t}/invitations/${invitations.open.id}/revoke`,
        `${t}/invitations/${invitations.withdrawn.id}/resend`,
        `${t}/invitations/${request.invitationId}/resend`,
      ],
    },
    {
      view: {
        page: 'brand',
        tenant: demo,
        editor: {
          published,
          draft: { ...published, primaryColor: '#c92a2a' },
          draftRevision: 7,
          previewUrls: [
            { page: '/login', url: '/login?subdomain=demo&brandPreview=7' },
            { page: '/register', url: '/register?subdomain=demo&brandPreview=7' },
          ],
          contrastProblems: [],
        },
        form: null,
      },
      actions: [`${t}/brand/publish`, `${t}/brand/discard`, `${t}/brand`],
    },
    {
      view: {
        page: 'audit',
        tenant: demo,
        log: {
          entries: [
            {
              id: 41,
              at: '2026-03-02T08:01:00.000Z',
              token: null,
              user: 'anna.muster@verwaltung.ch',
              requestId: 'req-1',
              action: 'batch.create',
              tenant: 'demo',
              target: BATCH_ID,
              amount: 20,
              outcome: 'changed',
            },
            {
              id: 40,
              at: '2026-03-01T17:00:00.000Z',
              token: 'ab12cd34',
              user: null,
              requestId: 'req-2',
              action: 'code.revoke',
              tenant: 'demo',
              target: codes.revoked.code,
              amount: null,
              outcome: 'unchanged',
            },
          ],
          next: 40,
        },
      },
      actions: [],
    },
    { view: { page: 'forbidden' }, actions: [] },
    { view: { page: 'not-found' }, actions: [] },
  ];
}
