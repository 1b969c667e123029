import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { GzipTemplate } from './gzip-template';

describe('a page compressed once with holes for its stand-ins', () => {
  const A = 'StandInA0';
  const B = 'StandInB0';
  it.each([
    ['holes inside, repeated', `<p>Grüezi «${A}»</p><a href="?x=${A}&y=${B}">${'weiter '.repeat(500)}</a>`],
    ['holes at both ends and side by side', `${A}${B}${A} mitte ${B}`],
    ['no hole at all', '<html>ça va</html>'],
    ['nothing', ''],
  ])('gunzips to the page with the values put in: %s', (_name, page) => {
    const template = new GzipTemplate(page, [A, B]);
    const values = new Map([
      [A, 'f3a9c2e1-request'],
      [B, 'ä'.repeat(300)],
    ]);
    const expected = page.replaceAll(A, values.get(A)!).replaceAll(B, values.get(B)!);
    expect(template.text(values)).toBe(expected);
    expect(gunzipSync(template.gzip(values)).toString('utf8')).toBe(expected);
  });

  it('compresses the page, not only wraps it', () => {
    const page = `<main>${'<p>Ihr Konto ist aktiviert.</p>'.repeat(200)}${A}</main>`;
    const gzipped = new GzipTemplate(page, [A]).gzip(new Map([[A, 'x']]));
    expect(gzipped.length).toBeLessThan(page.length / 20);
  });
});
