import {
  type BatchFormField,
  CONSOLE_ERROR_CODES,
  type ConsoleErrorCode,
  type ConsoleFormAgain,
  type InvitationFormField,
} from '@concierge/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { takeAdminQuota } from '../../admin/admin-quotas';
import { BUILDING_MAX_LENGTH, createInvitationBodySchema } from '../../admin/admin-schemas';
import { createCodeBatch, revokeCodeBatch } from '../../admin/batches-admin';
import { revokeRegistrationCodes } from '../../admin/codes-admin';
import { endOfSwissDay } from '../../admin/invitation-expiry';
import { resendInvitation } from '../../admin/invitation-resend';
import { createInvitation, revokeInvitation } from '../../admin/invitations-admin';
import { parseUnitsList, UnitsListProblem } from '../../admin/units-list';
import { AppError } from '../../http/errors';
import { parseInput } from '../../http/parse-input';
import { actorOf, type ConsoleDeps, redirectWithFlash, sendPage, tenantOfPath } from './console-context';
import { type Fields, textOf, uploadOf } from './console-fields';
import { invitationsView } from './console-page-routes';

const tenantParams = z.object({ tenant: z.string() });
const idParams = z.object({
  tenant: z.string(),
  id: z.uuid({ version: 'v4', error: 'must be an id' }).transform((id) => id.toLowerCase()),
});

/**
 * The console's forms, each posted without JavaScript: checked against the session's form token,
 * then done through the admin functions with the user as the actor (all or nothing, audited, the
 * tenant checked). What a post did is said on the page it redirects to (303); a form with a field
 * wrong is shown again, filled in, with a 400. An admin code the office can act on (quota reached,
 * a code no longer revocable) is said on the page the form was on.
 */
export function consoleFormRoutes(app: FastifyInstance, deps: ConsoleDeps) {
  const { db, config, registry } = deps;

  /** Runs a post's change; an admin refusal is said on `back` instead of answering an error page. */
  async function act(
    request: FastifyRequest,
    reply: FastifyReply,
    back: string,
    change: () => Promise<FastifyReply>,
  ): Promise<FastifyReply> {
    try {
      return await change();
    } catch (error) {
      if (!(error instanceof AppError) || error.status >= 500 || error.status === 403) throw error;
      const known = (CONSOLE_ERROR_CODES as readonly string[]).includes(error.code);
      const code = known ? (error.code as ConsoleErrorCode) : 'invalid_request';
      return redirectWithFlash(deps, request, reply, back, { kind: 'error', code });
    }
  }

  app.post('/console/t/:tenant/batches', async (request, reply) => {
    const tenant = tenantOfPath(deps, request, parseInput(tenantParams, request.params).tenant);
    const fields = (request.body ?? {}) as Fields;
    const form = batchForm(fields);
    if ('errors' in form) {
      return sendPage(deps, request, reply, { page: 'batch-new', tenant, form }, 400);
    }
    const back = `/t/${tenant.subdomain}/batches/new`;
    return act(request, reply, back, async () => {
      await takeAdminQuota(db, config.adminQuotas, {
        what: 'codes',
        tenant: tenant.subdomain,
        amount: form.units.length,
      });
      const created = await createCodeBatch(
        { db, config },
        { tenant: tenant.subdomain, building: form.building, units: form.units, ...form.expiry },
        actorOf(request),
      );
      return redirectWithFlash(deps, request, reply, `/t/${tenant.subdomain}/batches/${created.batch.id}`, {
        kind: 'done',
        done: 'batch_created',
        count: created.codes.length,
      });
    });
  });

  app.post('/console/t/:tenant/batches/:id/revoke', async (request, reply) => {
    const params = parseInput(idParams, request.params);
    const tenant = tenantOfPath(deps, request, params.tenant);
    const back = `/t/${tenant.subdomain}/batches/${params.id}`;
    return act(request, reply, back, async () => {
      const result = await revokeCodeBatch({ db, config }, params.id, actorOf(request));
      return redirectWithFlash(deps, request, reply, back, {
        kind: 'done',
        done: 'batch_revoked',
        count: result.revoked,
      });
    });
  });

  app.post('/console/t/:tenant/codes/revoke', async (request, reply) => {
    const tenant = tenantOfPath(deps, request, parseInput(tenantParams, request.params).tenant);
    const fields = (request.body ?? {}) as Fields;
    const batch = z.uuid().safeParse(fields.batch);
    const back = batch.success ? `/t/${tenant.subdomain}/batches/${batch.data}` : `/t/${tenant.subdomain}`;
    const selected = [fields.codes].flat().filter((code): code is string => typeof code === 'string');
    const codes = z
      .array(z.uuid())
      .min(1)
      .max(1000)
      .safeParse(selected.map((code) => code.toLowerCase()));
    if (!codes.success) {
      return redirectWithFlash(deps, request, reply, back, { kind: 'error', code: 'nothing_selected' });
    }
    return act(request, reply, back, async () => {
      const result = await revokeRegistrationCodes(db, codes.data, actorOf(request));
      return redirectWithFlash(deps, request, reply, back, {
        kind: 'done',
        done: 'codes_revoked',
        count: result.revoked,
      });
    });
  });

  /** The invitations page again with the create form's values and what is wrong with them. */
  async function invitationsAgain(
    request: FastifyRequest,
    reply: FastifyReply,
    tenant: ReturnType<typeof tenantOfPath>,
    form: ConsoleFormAgain<InvitationFormField>,
  ) {
    return sendPage(deps, request, reply, await invitationsView(deps, request, tenant, form), 400);
  }

  app.post('/console/t/:tenant/invitations', async (request, reply) => {
    const tenant = tenantOfPath(deps, request, parseInput(tenantParams, request.params).tenant);
    const fields = (request.body ?? {}) as Fields;
    const values = { email: textOf(fields, 'email'), language: textOf(fields, 'language') };
    const parsed = createInvitationBodySchema.safeParse({
      tenant: tenant.subdomain,
      email: values.email,
      language: values.language,
    });
    if (!parsed.success) {
      const field = parsed.error.issues[0]?.path[0] === 'language' ? 'language' : 'email';
      return invitationsAgain(request, reply, tenant, {
        values,
        errors: { [field]: { code: values[field] ? 'invalid' : 'required' } },
      });
    }
    const back = `/t/${tenant.subdomain}/invitations`;
    return act(request, reply, back, async () => {
      await takeAdminQuota(db, config.adminQuotas, {
        what: 'invitations',
        tenant: tenant.subdomain,
        amount: 1,
      });
      await createInvitation({ db, registry, config }, parsed.data, actorOf(request));
      return redirectWithFlash(deps, request, reply, back, { kind: 'done', done: 'invitation_created' });
    });
  });

  app.post('/console/t/:tenant/invitations/:id/resend', async (request, reply) => {
    const params = parseInput(idParams, request.params);
    const tenant = tenantOfPath(deps, request, params.tenant);
    const back = `/t/${tenant.subdomain}/invitations`;
    return act(request, reply, back, async () => {
      await resendInvitation({ db, registry, config }, params.id, actorOf(request));
      return redirectWithFlash(deps, request, reply, back, { kind: 'done', done: 'invitation_resent' });
    });
  });

  app.post('/console/t/:tenant/invitations/:id/revoke', async (request, reply) => {
    const params = parseInput(idParams, request.params);
    const tenant = tenantOfPath(deps, request, params.tenant);
    const back = `/t/${tenant.subdomain}/invitations`;
    return act(request, reply, back, async () => {
      await revokeInvitation({ db, config }, params.id, actorOf(request));
      return redirectWithFlash(deps, request, reply, back, { kind: 'done', done: 'invitation_revoked' });
    });
  });
}

type BatchForm =
  | { building: string; units: ReturnType<typeof parseUnitsList>; expiry: { expiresAt?: Date } }
  | ConsoleFormAgain<BatchFormField>;

/**
 * The new batch's form: the building, the last day its letters register (optional, a day in the
 * future), and its units — the uploaded file when one was chosen, else the text field.
 */
function batchForm(fields: Fields): BatchForm {
  const values = {
    building: textOf(fields, 'building').trim(),
    expiresOn: textOf(fields, 'expiresOn').trim(),
    units: textOf(fields, 'units'),
  };
  const errors: ConsoleFormAgain<BatchFormField>['errors'] = {};
  if (!values.building) errors.building = { code: 'required' };
  else if (values.building.length > BUILDING_MAX_LENGTH) errors.building = { code: 'too_long' };
  let expiresAt: Date | undefined;
  if (values.expiresOn) {
    expiresAt = endOfSwissDay(values.expiresOn);
    if (!expiresAt || expiresAt.getTime() <= Date.now()) errors.expiresOn = { code: 'invalid' };
  }
  const fileText = uploadOf(fields, 'unitsFile')?.bytes.toString('utf8');
  let units: ReturnType<typeof parseUnitsList> = [];
  const field = fileText === undefined ? 'units' : 'unitsFile';
  try {
    if (fileText === undefined && !values.units.trim()) errors.units = { code: 'required' };
    else units = parseUnitsList(fileText ?? values.units, { header: fileText !== undefined });
  } catch (error) {
    if (!(error instanceof UnitsListProblem)) throw error;
    errors[field] = { code: error.code, ...(error.line === undefined ? {} : { line: error.line }) };
  }
  if (Object.keys(errors).length > 0) return { values, errors };
  return { building: values.building, units, expiry: expiresAt ? { expiresAt } : {} };
}
