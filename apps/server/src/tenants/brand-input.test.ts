import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkLogo } from './brand-input';

// The logo a draft brings is served to every page of the tenant, its e-mails and its letters: only a
// file that is what it says and can do nothing but be drawn is taken (brand-drafts.test.ts has the
// refusal end to end).

const tenantsFolder = fileURLToPath(new URL('../../../../tenants', import.meta.url));
const svg = (inner: string, attributes = '') =>
  Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"${attributes}>${inner}</svg>`);
const problemOf = (bytes: Buffer, type = 'image/svg+xml') => {
  const checked = checkLogo(bytes, type);
  return 'problem' in checked ? checked.problem : 'taken';
};

describe('checkLogo', () => {
  it('takes the shipped logos, and an SVG with local references and an embedded PNG', () => {
    for (const file of ['demo/logo.svg', 'alpenblick/logo.svg', 'shared/special-logo.svg']) {
      expect(problemOf(readFileSync(join(tenantsFolder, file))), file).toBe('taken');
    }
    const local = svg(
      '<defs><linearGradient id="g"/></defs><rect fill="url(#g)" width="10" height="10"/>' +
        '<use href="#g"/><image href="data:image/png;base64,iVBORw0KGgo="/><text>Gérance &#233;</text>',
      ' xmlns:xlink="http://www.w3.org/1999/xlink"',
    );
    expect(problemOf(local)).toBe('taken');
  });

  it.each([
    ['a script', svg('<script>alert(1)</script>')],
    ['a namespaced script', svg('<svg:script>alert(1)</svg:script>')],
    ['an event handler', svg('<rect width="1"/>', ' onload="alert(1)"')],
    ['an external href', svg('<image href="https://evil.example/x.png"/>')],
    ['an external xlink:href', svg('<a xlink:href="javascript:alert(1)"><rect/></a>')],
    ['an encoded javascript: link', svg('<a href="&#106;avascript:alert(1)"><rect/></a>')],
    ['a CSS url() of another site', svg('<style>rect{fill:url(https://evil.example/f)}</style>')],
    ['an encoded url()', svg('<rect style="fill:u&#114;l(https://evil.example/f)"/>')],
    ['a CSS escape', svg('<style>rect{fill:u\\72l(https://evil.example/f)}</style>')],
    ['@import', svg('<style>@import "https://evil.example/a.css";</style>')],
    ['foreignObject', svg('<foreignObject><div/></foreignObject>')],
    [
      'an entity declaration',
      Buffer.from('<!DOCTYPE svg [<!ENTITY x "y">]><svg xmlns="http://www.w3.org/2000/svg"/>'),
    ],
    ['an xml-stylesheet', Buffer.from('<?xml-stylesheet href="https://evil.example/a.css"?><svg/>')],
    ['an animated href', svg('<a href="#a"><set attributeName="href" to="https://evil.example"/></a>')],
    [
      'a non-ASCII namespace prefix',
      svg('<image xmlns:ä="http://www.w3.org/1999/xlink" ä:href="/srv/x.png"/>'),
    ],
    // A file built to make the check backtrack: each of these held the event loop for minutes or
    // hours before the patterns were bounded (the test would time out, not fail).
    ['a run of url( never closed', svg(`<style>${'url('.repeat(100_000)}</style>`)],
  ])('refuses an SVG with %s', (_what, bytes) => {
    expect(problemOf(bytes)).toBe('logo_unsafe');
  });

  it('reads a prologue of many comments as quickly as any other, and a file of them is no SVG', () => {
    expect(problemOf(Buffer.from(`${'<!---->'.repeat(40)}x`))).toBe('logo_type_mismatch');
    expect(problemOf(Buffer.from(`${'<!---->'.repeat(40)}<svg xmlns="http://www.w3.org/2000/svg"/>`))).toBe(
      'taken',
    );
  });

  it('reads the type from the bytes, not from what the upload says', () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    expect(problemOf(png, 'image/png')).toBe('taken');
    expect(problemOf(png, 'image/svg+xml')).toBe('logo_type_mismatch');
    expect(problemOf(png, 'image/jpeg')).toBe('logo_type_mismatch');
    expect(problemOf(svg('<rect/>'), 'image/png')).toBe('logo_type_mismatch');
    expect(problemOf(Buffer.from('hello'), 'image/svg+xml')).toBe('logo_type_mismatch');
    expect(problemOf(png, 'image/webp')).toBe('logo_type_unsupported');
    expect(problemOf(Buffer.alloc(512 * 1024 + 1), 'image/png')).toBe('logo_too_large');
  });
});
