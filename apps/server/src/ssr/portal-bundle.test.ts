import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadPortalBuild } from './portal-bundle';

// The built portal (npm run build), as the server tests that render pages use it.
const distDir = fileURLToPath(new URL('../../../portal/dist', import.meta.url));
const copies: string[] = [];
afterAll(() => Promise.all(copies.map((copy) => rm(copy, { recursive: true, force: true }))));

describe('the portal build', () => {
  it('names the pages the server answers for, each with its chunk to preload', async () => {
    const build = await loadPortalBuild(distDir);
    const paths = build.bundle.routes.map((route) => route.path);
    expect(paths).toContain('/login');
    expect(paths).toContain('/resend-account-activation-email');
    expect(paths).not.toContain('*');
    const login = build.bundle.routes.find((route) => route.path === '/login')!;
    expect(login.needsSignInRequest).toBe(true);
    expect(build.preloadsFor(login.source).some((file) => /\/Login-[\w-]+\.js$/.test(file))).toBe(true);
  });

  it("links the entry's stylesheet on every page, and the register page's own only on it", async () => {
    const build = await loadPortalBuild(distDir);
    const sourceOf = (path: string) => build.bundle.routes.find((route) => route.path === path)!.source;
    const login = build.stylesheetsFor(sourceOf('/login'));
    const register = build.stylesheetsFor(sourceOf('/register'));
    expect(login).toEqual([expect.stringMatching(/^\/assets\/entry-client-[\w-]+\.css$/)]);
    // The entry's first, so that the page's rules come after it as when a link loads the page.
    expect(register).toEqual([login[0], expect.stringMatching(/^\/assets\/Register-[\w-]+\.css$/)]);
    const registerCss = await readFile(join(distDir, 'client', register[1]!), 'utf8');
    const loginCss = await readFile(join(distDir, 'client', login[0]!), 'utf8');
    expect(registerCss).toContain('.mantine-Checkbox-input');
    expect(loginCss).not.toContain('.mantine-Checkbox-input');
  });

  it('refuses to start with a manifest that lacks a page’s chunk', async () => {
    const copy = await mkdtemp(join(tmpdir(), 'portal-dist-'));
    copies.push(copy);
    await cp(distDir, copy, { recursive: true });
    const manifestPath = join(copy, 'client', '.vite', 'manifest.json');
    const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as Record<string, unknown>;
    delete manifest['src/pages/Register/index.tsx'];
    await writeFile(manifestPath, JSON.stringify(manifest));
    await expect(loadPortalBuild(copy)).rejects.toThrow('/register (src/pages/Register/index.tsx)');
  });
});
