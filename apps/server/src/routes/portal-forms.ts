import {
  activationForm,
  checkForm,
  FORM_EXPIRED,
  FORM_NAME_FIELD,
  type FormOutcome,
  PORTAL_FORMS,
  type PortalForm,
  passwordSetForm,
} from '@concierge/contracts';
import { noteForLog } from '@concierge/observability';
import fastifyFormbody from '@fastify/formbody';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../http/errors';
import { isFormTokenRefusal } from '../http/form-tokens';
import type { PageStateContext } from '../ssr/page-state';
import type { PortalCalls } from './portal-calls';
import { renderPortalPage } from './portal-pages';

/** A form is a few short fields; anything larger is not one of ours. */
const FORM_BODY_LIMIT = 8 * 1024;

/**
 * Every form of the portal without JavaScript (issue 25): the browser posts it to its own page, and
 * the server checks it as the page's script would (the same rules, contracts' portal-forms.ts),
 * makes the same call as the script's JSON (routes/portal-calls.ts) and renders the page with the
 * outcome — the success in place of the form, or the form again with its messages and the values
 * typed (never a password). The set-new-password form goes on to where its call says, as the script
 * does.
 */
export async function portalFormRoutes(
  app: FastifyInstance,
  { pages, calls }: { pages: PageStateContext; calls: PortalCalls },
) {
  // Form bodies are read here only; the rest of the server takes JSON alone.
  await app.register(fastifyFormbody, { bodyLimit: FORM_BODY_LIMIT });
  for (const [page, forms] of formsByPage()) {
    app.post(
      page,
      {
        bodyLimit: FORM_BODY_LIMIT,
        preHandler: app.csrfProtection,
        errorHandler: (error: FastifyError, request, reply) => {
          if (!isFormTokenRefusal(error)) throw error;
          // Another site's post, or a form whose cookie is gone (cookies off, an old tab): nothing
          // is done, and the form comes again with a fresh token.
          noteForLog(request, { outcome: 'form_token_refused' });
          const form = postedForm(forms, request.body);
          return answer(request, reply, refused(form, valuesOf(request.body), { code: FORM_EXPIRED }), 403);
        },
      },
      (request, reply) => handleForm(postedForm(forms, request.body), request, reply),
    );
  }

  async function handleForm(form: PortalForm, request: FastifyRequest, reply: FastifyReply) {
    const values = valuesOf(request.body);
    const value = (name: string) => values[name] ?? '';
    const fieldErrors = checkForm(form, value);
    if (fieldErrors.length > 0) return answer(request, reply, refused(form, values, { fieldErrors }), 400);
    let data: unknown;
    try {
      data = await calls[form.call](request, form.body(value));
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      if (error.retryAfterSeconds !== undefined) {
        reply.header('retry-after', String(Math.max(1, Math.ceil(error.retryAfterSeconds))));
      }
      return answer(
        request,
        reply,
        refused(form, values, { code: error.code, retryAfterSeconds: error.retryAfterSeconds }),
        error.status,
      );
    }
    if (form === passwordSetForm) {
      // The portal's own success page, built by the call from configuration (never from input).
      return reply.redirect((data as { redirect_uri: string }).redirect_uri, 303);
    }
    return answer(request, reply, {
      page: form.page,
      call: form.call,
      status: 'sent',
      values: kept(form, values),
      ...(form === activationForm
        ? { isAlreadyActivated: (data as { isAlreadyActivated?: boolean }).isAlreadyActivated === true }
        : {}),
    });
  }

  function answer(request: FastifyRequest, reply: FastifyReply, form: FormOutcome, status = 200) {
    return renderPortalPage(pages, request, reply, { form, status });
  }
}

function refused(
  form: PortalForm,
  values: Record<string, string>,
  outcome: Partial<Extract<FormOutcome, { status: 'refused' }>>,
): FormOutcome {
  return {
    fieldErrors: [],
    ...outcome,
    page: form.page,
    call: form.call,
    status: 'refused',
    values: kept(form, values),
  };
}

/** Each page's forms, in PORTAL_FORMS' order: one route per page. */
function formsByPage(): Map<string, PortalForm[]> {
  const pages = new Map<string, PortalForm[]>();
  for (const form of PORTAL_FORMS) pages.set(form.page, [...(pages.get(form.page) ?? []), form]);
  return pages;
}

/**
 * The form of the page that was posted: the one FORM_NAME_FIELD names, else the page's first (a page
 * with one form does not name it).
 */
function postedForm(forms: PortalForm[], body: unknown): PortalForm {
  const name = valuesOf(body)[FORM_NAME_FIELD];
  return forms.find((form) => form.call === name) ?? forms[0]!;
}

/** The inputs a refused or sent form shows again: its kept ones, never a password. */
function kept(form: PortalForm, values: Record<string, string>): Record<string, string> {
  return Object.fromEntries(form.kept.flatMap((name) => (values[name] ? [[name, values[name]]] : [])));
}

/**
 * The posted inputs, each as one string of at most 1,000 characters. A name sent twice (no form of
 * ours does that) counts as not sent: its check or the call refuses it, and nothing is done.
 */
function valuesOf(body: unknown): Record<string, string> {
  const values: Record<string, string> = Object.create(null);
  if (typeof body !== 'object' || body === null) return values;
  return Object.assign(
    values,
    Object.fromEntries(
      Object.entries(body).flatMap(([name, value]) => {
        return typeof value === 'string' ? [[name, value.slice(0, 1000)]] : [];
      }),
    ),
  );
}
