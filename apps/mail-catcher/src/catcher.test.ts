import nodemailer, { type Transporter } from 'nodemailer';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type MailCatcher, startMailCatcher } from './catcher';
import type { CaughtMessage } from './message-store';

let catcher: MailCatcher;
let transport: Transporter;
let baseUrl: string;

beforeAll(async () => {
  catcher = await startMailCatcher({ smtpPort: 0, httpPort: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${catcher.httpPort}`;
  // pool: smtp-server delays every new connection, one reused connection keeps the tests fast.
  transport = nodemailer.createTransport({
    host: '127.0.0.1',
    port: catcher.smtpPort,
    pool: true,
    ignoreTLS: true,
  });
});

afterAll(async () => {
  transport.close();
  await catcher.close();
});

beforeEach(async () => {
  await fetch(`${baseUrl}/api/messages`, { method: 'DELETE' });
});

async function listMessages(query = ''): Promise<CaughtMessage[]> {
  const response = await fetch(`${baseUrl}/api/messages${query}`);
  expect(response.status).toBe(200);
  return (await response.json()) as CaughtMessage[];
}

const activationLink =
  'http://localhost:8080/verification-complete?email=anna%40example.ch&verificationid=v-1&subdomain=demo';

describe('mail catcher', () => {
  it('reports the ports it really listens on when asked for port 0', () => {
    expect(catcher.smtpPort).toBeGreaterThan(0);
    expect(catcher.httpPort).toBeGreaterThan(0);
    expect(catcher.smtpPort).not.toBe(catcher.httpPort);
  });

  it('shows a message sent over SMTP in the API, with the links of its text and HTML parts', async () => {
    await transport.sendMail({
      from: 'Concierge <noreply@concierge.test>',
      to: 'Anna Muster <Anna@Example.ch>',
      subject: 'Konto aktivieren',
      text: `Bitte aktivieren: ${activationLink}.`,
      html: `<p><a href="${activationLink.replaceAll('&', '&amp;')}">Aktivieren</a> or <a href="https://help.example.ch/faq">FAQ</a></p>`,
    });

    const [message, ...others] = await listMessages();
    expect(others).toEqual([]);
    expect(message).toMatchObject({
      from: 'noreply@concierge.test',
      to: ['Anna@example.ch'],
      subject: 'Konto aktivieren',
      links: [activationLink, 'https://help.example.ch/faq'],
    });
    expect(message?.text).toContain('Bitte aktivieren');
    expect(message?.html).toContain('<a href=');
    expect(Number.isNaN(Date.parse(message?.date ?? ''))).toBe(false);

    const single = await fetch(`${baseUrl}/api/messages/${message?.id}`);
    expect(single.status).toBe(200);
    expect(await single.json()).toEqual(message);
  });

  it('lists the newest message first and filters by recipient ignoring case', async () => {
    await transport.sendMail({ from: 'a@concierge.test', to: 'first@example.ch', subject: 'one', text: 'x' });
    await transport.sendMail({
      from: 'a@concierge.test',
      to: 'second@example.ch',
      subject: 'two',
      text: 'x',
    });
    await transport.sendMail({
      from: 'a@concierge.test',
      to: 'first@example.ch',
      bcc: 'hidden@example.ch',
      subject: 'three',
      text: 'x',
    });

    expect((await listMessages()).map((message) => message.subject)).toEqual(['three', 'two', 'one']);
    expect((await listMessages('?to=FIRST%40example.CH')).map((message) => message.subject)).toEqual([
      'three',
      'one',
    ]);
    expect((await listMessages('?to=hidden%40example.ch')).map((message) => message.subject)).toEqual([
      'three',
    ]);
    expect(await listMessages('?to=nobody%40example.ch')).toEqual([]);
  });

  it('deletes all messages', async () => {
    await transport.sendMail({ from: 'a@concierge.test', to: 'b@example.ch', subject: 'bye', text: 'x' });
    expect(await listMessages()).toHaveLength(1);

    const response = await fetch(`${baseUrl}/api/messages`, { method: 'DELETE' });
    expect(response.status).toBe(204);
    expect(await listMessages()).toEqual([]);
  });

  it('answers 404 for an unknown message id', async () => {
    const api = await fetch(`${baseUrl}/api/messages/does-not-exist`);
    expect(api.status).toBe(404);
    const page = await fetch(`${baseUrl}/messages/does-not-exist`, { headers: { 'accept-language': 'en' } });
    expect(page.status).toBe(404);
    expect(await page.text()).toContain('This message does not exist');
  });

  it('escapes a subject and an HTML part that contain markup', async () => {
    await transport.sendMail({
      from: 'a@concierge.test',
      to: 'b@example.ch',
      subject: '<script>alert("subject")</script>',
      text: '<b>not bold</b>',
      html: '<p>Hallo</p><script>alert("body")</script>',
    });
    const [message] = await listMessages();

    const inbox = await (await fetch(`${baseUrl}/`)).text();
    expect(inbox).toContain('&#60;script&#62;alert(&#34;subject&#34;)&#60;/script&#62;');
    expect(inbox).not.toContain('<script>');

    const view = await (await fetch(`${baseUrl}/messages/${message?.id}`)).text();
    expect(view).not.toContain('<script>');
    expect(view).toContain('&#60;b&#62;not bold&#60;/b&#62;');
    expect(view).toMatch(
      /<iframe sandbox="[^"]*" [^>]*srcdoc="[^"]*&#60;p&#62;Hallo&#60;\/p&#62;&#60;script&#62;/,
    );
    expect(view).not.toMatch(/sandbox="[^"]*allow-(scripts|same-origin)/);
  });

  it('speaks the browser language with German as fallback', async () => {
    const german = await fetch(`${baseUrl}/`, { headers: { 'accept-language': 'es-ES, de-CH;q=0.8' } });
    expect(german.headers.get('content-language')).toBe('de');
    expect(await german.text()).toContain('Alle Nachrichten löschen');

    const french = await fetch(`${baseUrl}/`, { headers: { 'accept-language': 'fr-CH,fr;q=0.9,en;q=0.5' } });
    expect(await french.text()).toContain('Supprimer tous les messages');

    const fallback = await fetch(`${baseUrl}/`, { headers: { 'accept-language': 'ja' } });
    expect(await fallback.text()).toContain('<html lang="de">');
  });

  it('clears the inbox from the page form, but not from another origin', async () => {
    await transport.sendMail({ from: 'a@concierge.test', to: 'b@example.ch', subject: 'keep', text: 'x' });
    const form = { 'content-type': 'application/x-www-form-urlencoded' };

    const foreign = await fetch(`${baseUrl}/clear`, {
      method: 'POST',
      headers: { ...form, origin: 'https://evil.example' },
      body: '',
      redirect: 'manual',
    });
    expect(foreign.status).toBe(403);
    expect(await listMessages()).toHaveLength(1);

    const own = await fetch(`${baseUrl}/clear`, {
      method: 'POST',
      headers: { ...form, origin: baseUrl },
      body: '',
      redirect: 'manual',
    });
    expect(own.status).toBe(303);
    expect(own.headers.get('location')).toBe('/');
    expect(await listMessages()).toEqual([]);
  });

  it('sends security headers with the page', async () => {
    const response = await fetch(`${baseUrl}/`);
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(response.headers.get('content-security-policy')).not.toContain('script-src');
  });
});
