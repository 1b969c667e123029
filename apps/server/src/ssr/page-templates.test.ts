import { gunzipSync } from 'node:zlib';
import type { PortalPageState } from '@concierge/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { GzipTemplate } from '../http/gzip-template';
import { renderPageDocument } from '../routes/portal-pages';
import { loadTenantRegistry } from '../tenants/load-registry';
import type { TenantRegistry } from '../tenants/tenant-registry';
import type { PageStateContext } from './page-state';
import {
  FORM_TOKEN_STAND_IN,
  PageTemplates,
  pageTemplateFor,
  REGISTRATION_CODE_STAND_IN,
  REQUEST_ID_STAND_IN,
  STAND_INS,
  withValues,
} from './page-templates';
import { loadPortalBuild, type PortalBuild } from './portal-bundle';

let build: PortalBuild;
let registry: TenantRegistry;
const config = loadConfig({
  CONCIERGE_DEV: 'true',
  PORTAL_URL: 'http://portal.test',
  PROVIDER_URL: 'http://provider.test',
});
beforeAll(async () => {
  build = await loadPortalBuild(config.portalDistDir);
  registry = await loadTenantRegistry(config.tenantsFile);
});

const REQUEST_ID = '3f1c2b9e-7d4a-4c51-9e2f-0a8b6d5c4e21';
const CLIENT_INFO = {
  client_name: 'Demo Immobilien AG',
  logo_uri: 'http://provider.test/logo.png',
  policy_uri: 'http://provider.test/privacy',
  tos_uri: 'http://provider.test/terms',
  login_providers: [],
  passwordless_enabled: false,
};

function stateFor(url: string, subdomain: string, language: 'de' | 'fr' | 'it' | 'en'): PortalPageState {
  const tenant = registry.resolve({ subdomain, host: 'portal.test', fallbackEnvironment: 'dev' });
  const path = url.split('?', 1)[0]!;
  return {
    config: { ...config.runtime, env: tenant.environment },
    tenant,
    language,
    messages: build.bundle.messagesFor(path, language),
    ...(build.bundle.needsSignInRequest(path)
      ? { signInRequest: { requestId: REQUEST_ID, clientInfo: CLIENT_INFO } }
      : {}),
  } as PortalPageState;
}

async function rendered(url: string, state: PortalPageState) {
  const context = { build } as PageStateContext;
  return (await renderPageDocument(context, url, state, build.bundle.serialisePageState(state))).html;
}

const CODE = '9b2e4c1a-6f3d-4e8b-a7c5-1d0f2e3a4b5c';
const FORM_TOKEN = 'a-visitors-form-token.Wq3';

describe("a page kept with stand-ins for the request id and the letter's code", () => {
  it('is, with the values put in, exactly the page rendered for them — every page, tenant and language', async () => {
    const queries = [
      `subdomain=demo&groupname=default&lang=&view_type=login&requestId=${REQUEST_ID}`,
      `requestId=${REQUEST_ID}&subdomain=r5&lang=fr&error=invalid_username_password&username=anna%40example.ch`,
      `subdomain=alpenblick&lang=it&requestId=${REQUEST_ID}`,
      // A letter's link: no request id in the address, the one the server obtained in the state.
      `subdomain=lacleman&lang=fr&registrationcode=${CODE}`,
      // Codes the page shows otherwise than the link has them stay in the kept page's address.
      `subdomain=demo&registrationcode=${CODE.toUpperCase()}`,
      `subdomain=demo&code=${CODE}&registrationcode=${CODE}`,
      // An invitation's link: the code and the e-mail shown as fixed text.
      `subdomain=demo&invite_id=0b6f4f1e-3c2a-4d5b-9e8f-7a6b5c4d3e2f&email=anna%40example.ch&registrationcode=${CODE}`,
    ];
    let keptPages = 0;
    for (const { path } of build.bundle.routes) {
      for (const query of queries) {
        const url = `${path}?${query}`;
        const parameters = new URLSearchParams(query);
        const state = {
          ...stateFor(url, parameters.get('subdomain')!, (parameters.get('lang') || 'de') as 'de'),
          formToken: FORM_TOKEN_STAND_IN,
        };
        const template = pageTemplateFor(url, state);
        // Without a request id in the address, only a page that gets one from the server is kept.
        expect(template !== undefined, url).toBe(
          parameters.has('requestId') || state.signInRequest !== undefined,
        );
        if (!template) continue;
        keptPages += 1;
        // As the server renders a page it does not keep: the visitor's form token put in.
        const direct = (await rendered(url, state)).replaceAll(FORM_TOKEN_STAND_IN, FORM_TOKEN);
        expect(direct).toContain(REQUEST_ID);
        if (path === '/register' && parameters.has('registrationcode')) expect(direct).toContain(CODE);
        // As the server sends it: the first time the kept page filled in, then in pieces compressed once.
        const keptHtml = await rendered(template.url, template.state);
        const values = new Map([...template.values, [FORM_TOKEN_STAND_IN, FORM_TOKEN]]);
        expect(withValues(keptHtml, values), url).toBe(direct);
        const keptPage = new GzipTemplate(keptHtml, STAND_INS);
        expect(keptPage.text(values), url).toBe(direct);
        expect(gunzipSync(keptPage.gzip(values)).toString('utf8'), url).toBe(direct);
      }
    }
    expect(keptPages).toBeGreaterThan(build.bundle.routes.length * 3);
  });

  it('is not used where the request id could not simply be put in', () => {
    const state = stateFor('/login', 'demo', 'de');
    for (const url of [
      '/login?subdomain=demo',
      '/login?subdomain=demo&requestId=',
      '/login?subdomain=demo&requestId=a~b',
      '/login?subdomain=demo&requestId=a%2Db',
      `/login?requestId=${REQUEST_ID}&requestId=other`,
      `/login?requestId=${REQUEST_ID}&username=${REQUEST_ID_STAND_IN}`,
    ]) {
      expect(pageTemplateFor(url, { ...state, signInRequest: undefined }), url).toBeUndefined();
    }
    // A stand-in in the address, where a real request would otherwise make the page a kept one.
    const withRequest = stateFor('/register', 'demo', 'de');
    expect(
      pageTemplateFor(`/register?registrationcode=${REGISTRATION_CODE_STAND_IN}`, withRequest),
    ).toBeUndefined();
    // The page's checked request is another one than the address's.
    expect(pageTemplateFor('/login?requestId=other-id', state)).toBeUndefined();
  });

  it('keeps the most recently used pages and renders each once', async () => {
    const templates = new PageTemplates();
    let renders = 0;
    const render = async () => {
      renders += 1;
      return { status: 200, html: `page ${renders}` };
    };
    const html = async (key: string) => (await templates.page(key, render)).html;
    expect(await html('a')).toBe('page 1');
    expect(await html('a')).toBe('page 1');
    for (let i = 0; i < 199; i += 1) await templates.page(`other ${i}`, render);
    // 'a' was used before the others came, so it is the oldest: one more page lets it go.
    await templates.page('one more', render);
    expect(await html('a')).toBe(`page ${renders}`);
    expect(renders).toBe(202);
    // Compressed from its second use on: a page asked for once is not worth it.
    expect((await templates.page('b', render)).gzip).toBeUndefined();
    expect((await templates.page('b', render)).gzip?.text(new Map())).toBe('page 203');
  });
});
