import {
  type BrandFormField,
  type ConsoleFormAgain,
  LANGUAGES,
  type TenantFlags,
} from '@concierge/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { brandEditor, discardBrandDraft, publishBrandDraft, saveBrandDraft } from '../../admin/brand-drafts';
import { AppError } from '../../http/errors';
import { parseInput } from '../../http/parse-input';
import { type BrandDraftInput, BrandInputError } from '../../tenants/brand-input';
import {
  actorOf,
  type ConsoleDeps,
  redirectWithFlash,
  sendPage,
  sessionOf,
  tenantOfPath,
} from './console-context';
import { type Fields, textOf, uploadOf } from './console-fields';

const tenantParams = z.object({ tenant: z.string() });
const FLAGS = [
  'hideRegisterLoginLink',
  'skipFreshRequestIdRedirect',
  'useSpecialLogo',
  'registrationEnabled',
  'inviteEnabled',
] as const satisfies readonly (keyof TenantFlags)[];

/**
 * A tenant's brand in the console: the form edits a draft (each save a new revision, previewed in
 * frames of the portal's own pages), publish makes it the brand of every instance, discard drops it
 * (admin/brand-drafts.ts: checked by the registry file's rules, audited, one transaction each).
 */
export function consoleBrandRoutes(app: FastifyInstance, deps: ConsoleDeps) {
  const { db, registry } = deps;
  const brandPage = (tenant: string) => `/t/${tenant}/brand`;

  async function showEditor(
    request: FastifyRequest,
    reply: FastifyReply,
    form: ConsoleFormAgain<BrandFormField> | null,
  ) {
    const tenant = tenantOfPath(deps, request, parseInput(tenantParams, request.params).tenant);
    const editor = await brandEditor(db, registry, tenant.subdomain);
    return sendPage(deps, request, reply, { page: 'brand', tenant, editor, form }, form ? 400 : 200);
  }

  app.get('/console/t/:tenant/brand', (request, reply) => showEditor(request, reply, null));

  app.post('/console/t/:tenant/brand', async (request, reply) => {
    const tenant = tenantOfPath(deps, request, parseInput(tenantParams, request.params).tenant);
    const fields = (request.body ?? {}) as Fields;
    try {
      await saveBrandDraft(
        db,
        registry,
        tenant.subdomain,
        draftOf(fields, sessionOf(request).email),
        actorOf(request),
      );
    } catch (error) {
      if (!(error instanceof BrandInputError)) throw error;
      const errors = Object.fromEntries(
        Object.entries(error.fields).map(([field, code]) => [field, { code: code ?? 'invalid' }]),
      );
      return showEditor(request, reply, { values: valuesOf(fields), errors });
    }
    return redirectWithFlash(deps, request, reply, brandPage(tenant.subdomain), {
      kind: 'done',
      done: 'brand_draft_saved',
    });
  });

  app.post('/console/t/:tenant/brand/publish', async (request, reply) => {
    const tenant = tenantOfPath(deps, request, parseInput(tenantParams, request.params).tenant);
    const revision = Number(textOf((request.body ?? {}) as Fields, 'revision'));
    try {
      await publishBrandDraft(db, tenant.subdomain, revision, actorOf(request));
    } catch (error) {
      if (
        !(error instanceof AppError) ||
        (error.code !== 'brand_draft_changed' && error.code !== 'no_brand_draft')
      )
        throw error;
      return redirectWithFlash(deps, request, reply, brandPage(tenant.subdomain), {
        kind: 'error',
        code: error.code,
      });
    }
    return redirectWithFlash(deps, request, reply, brandPage(tenant.subdomain), {
      kind: 'done',
      done: 'brand_published',
    });
  });

  app.post('/console/t/:tenant/brand/discard', async (request, reply) => {
    const tenant = tenantOfPath(deps, request, parseInput(tenantParams, request.params).tenant);
    await discardBrandDraft(db, tenant.subdomain, actorOf(request));
    return redirectWithFlash(deps, request, reply, brandPage(tenant.subdomain), {
      kind: 'done',
      done: 'brand_draft_discarded',
    });
  });
}

/** The form's fields as a draft: every flag said (an unticked box sends nothing), a logo only when one was chosen. */
function draftOf(fields: Fields, savedBy: string): BrandDraftInput {
  const logo = uploadOf(fields, 'logo');
  return {
    displayName: textOf(fields, 'displayName'),
    primaryColor: textOf(fields, 'primaryColor'),
    themePreset: textOf(fields, 'themePreset'),
    stylesheet: textOf(fields, 'stylesheet'),
    contact: {
      name: textOf(fields, 'contactName'),
      phone: textOf(fields, 'contactPhone'),
      email: textOf(fields, 'contactEmail'),
      officeHours: Object.fromEntries(
        LANGUAGES.map((language) => [language, textOf(fields, `officeHours.${language}`)]),
      ),
    },
    flags: Object.fromEntries(FLAGS.map((flag) => [flag, textOf(fields, flag) === 'on'])),
    ...(logo ? { logo: { bytes: logo.bytes, mediaType: logo.mediaType } } : {}),
    savedBy,
  };
}

/** What was typed, to show the form again as it was sent (never the logo's bytes). */
function valuesOf(fields: Fields): Partial<Record<BrandFormField, string>> {
  const names: BrandFormField[] = [
    'displayName',
    'primaryColor',
    'themePreset',
    'stylesheet',
    'contactName',
    'contactPhone',
    'contactEmail',
    ...LANGUAGES.map((language) => `officeHours.${language}` as const),
    ...FLAGS,
  ];
  return Object.fromEntries(names.map((name) => [name, textOf(fields, name)]));
}
