import type { PortalPageState } from '@concierge/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { renderPageDocument } from '../routes/portal-pages';
import { loadTenantRegistry } from '../tenants/load-registry';
import type { TenantRegistry } from '../tenants/tenant-registry';
import type { PageStateContext } from './page-state';
import { PageTemplates, pageTemplateFor, REQUEST_ID_STAND_IN, withRequestId } from './page-templates';
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

describe('a page kept with a stand-in for the request id', () => {
  it('is, with the request id put in, exactly the page rendered for it — every page, tenant and language', async () => {
    const queries = [
      `subdomain=demo&groupname=default&lang=&view_type=login&requestId=${REQUEST_ID}`,
      `requestId=${REQUEST_ID}&subdomain=r5&lang=fr&error=invalid_username_password&username=anna%40example.ch`,
      `subdomain=alpenblick&lang=it&requestId=${REQUEST_ID}`,
    ];
    for (const { path } of build.bundle.routes) {
      for (const query of queries) {
        const url = `${path}?${query}`;
        const subdomain = new URLSearchParams(query).get('subdomain')!;
        const state = stateFor(url, subdomain, (new URLSearchParams(query).get('lang') || 'de') as 'de');
        const template = pageTemplateFor(url, state);
        expect(template, url).toBeDefined();
        const direct = await rendered(url, state);
        expect(direct).toContain(REQUEST_ID);
        const viaTemplate = withRequestId(
          await rendered(template!.url, template!.state),
          template!.requestId,
        );
        expect(viaTemplate, url).toBe(direct);
      }
    }
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
    expect((await templates.page('a', render)).html).toBe('page 1');
    expect((await templates.page('a', render)).html).toBe('page 1');
    for (let i = 0; i < 199; i += 1) await templates.page(`other ${i}`, render);
    // 'a' was used before the others came, so it is the oldest: one more page lets it go.
    await templates.page('one more', render);
    expect((await templates.page('a', render)).html).toBe(`page ${renders}`);
    expect(renders).toBe(202);
  });
});
