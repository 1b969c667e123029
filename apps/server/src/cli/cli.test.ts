import { execFile } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildNodeApps } from '../../../../scripts/build-node-apps.mjs';
import { parseCsv } from '../admin/csv';
import { postPortalCall, register, uniqueEmail } from '../test-support/account-fixtures';
import { countCodes as codesOf } from '../test-support/admin-api';
import { seedAccountProtection } from '../test-support/protection-fixtures';
import { providerUserOf, userAtProvider } from '../test-support/provider-users';
import { startTestServer } from '../test-support/test-server';
import { runCli } from './run-cli';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const CODE_QUOTA = 20;
const INVITATION_QUOTA = 2;
let server: Awaited<ReturnType<typeof startTestServer>>;
let url: string;
let folder: string;
beforeAll(async () => {
  // The compiled CLI, as `npm run admin` runs it: rebuilt first when its sources changed.
  await buildNodeApps({ apps: ['server'], ifStale: true, quiet: true });
  // The server's development token: the CLI's default for a server on this machine. Small quotas,
  // so that a test reaches them. The run's embedded provider, for the accounts to unlock.
  server = await startTestServer(
    {
      ADMIN_CODES_PER_TENANT_PER_HOUR: String(CODE_QUOTA),
      ADMIN_INVITATIONS_PER_TENANT_PER_HOUR: String(INVITATION_QUOTA),
    },
    { provider: true },
  );
  url = await server.app.listen({ host: '127.0.0.1', port: 0 });
  folder = mkdtempSync(join(tmpdir(), 'concierge-cli-'));
}, 60_000);
afterAll(async () => {
  await server?.close();
  rmSync(folder, { recursive: true, force: true });
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The CLI as `npm run admin` runs it, in this process: arguments, environment and output in, exit
 * code out — what dist/cli.js does around runCli is the compiled CLI's test below (spawnCli). A
 * process per call cost about half a CPU-second each, 40 calls a run.
 */
async function cli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(
    args,
    { PATH: process.env.PATH, CONCIERGE_URL: url, INIT_CWD: root, ...env },
    {
      out: (text) => {
        stdout += text;
      },
      info: (text) => {
        stderr += `${text}\n`;
      },
    },
  );
  return { code, stdout, stderr };
}

/** The compiled CLI in its own process, as `npm run admin` starts it (`node dist/cli.js`). */
function spawnCli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['apps/server/dist/cli.js', ...args],
      { cwd: root, env: { PATH: process.env.PATH, CONCIERGE_URL: url, ...env }, timeout: 30_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** The admin API itself, to compare what the CLI prints with what the server answers. */
async function adminCall(path: string) {
  const response = await server.app.inject({
    url: `/api/admin${path}`,
    headers: { authorization: 'Bearer concierge-dev-admin-token' },
  });
  return response.json().data;
}

const countCodes = (tenant: string) => codesOf(server.db, tenant);

describe('the admin CLI', () => {
  it('explains itself, and its compiled form says what went wrong with its exit code', async () => {
    const help = await spawnCli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('codes create --tenant T [--count N] [--csv FILE]');
    expect(help.stdout).toContain(
      'batches create --tenant T --building B --units FILE [--expires DATE-TIME]',
    );
    expect((await spawnCli([])).code).toBe(2);
    const refused = await spawnCli(['codes', 'revoke', randomUUID()]);
    expect(refused).toMatchObject({ code: 1, stdout: '' });
    expect(refused.stderr).toContain('(code_not_found)');
  });

  it('checks a tenant registry as the server would load it, naming what is wrong', async () => {
    const valid = await cli(['tenants', 'check']);
    expect(valid.code).toBe(0);
    expect(valid.stdout).toMatch(/tenants\.json: 5 tenants, valid \(demo, it2, r5, alpenblick, lacleman\)/);
    const registry = JSON.parse(readFileSync(join(root, 'tenants/tenants.json'), 'utf8'));
    registry.tenants.push({ ...registry.tenants[0], displayName: 'Zweimal' });
    const broken = join(root, 'tenants', `check-${Date.now()}.json`);
    writeFileSync(broken, JSON.stringify(registry));
    try {
      const refused = await cli(['tenants', 'check', broken]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('tenant "demo", field subdomain: appears twice');
    } finally {
      rmSync(broken);
    }
  });

  it('creates codes into a CSV file with the URL a letter prints', async () => {
    const file = join(folder, 'codes.csv');
    // npm starts the script in apps/server and says in INIT_CWD where the user typed the command.
    const run = await cli(['codes', 'create', '--tenant', 'it2', '--count', '5', '--csv', 'codes.csv'], {
      INIT_CWD: folder,
    });
    expect(run).toMatchObject({ code: 0, stdout: '' });
    expect(run.stderr).toContain(`Created 5 codes for it2 in ${file}.`);
    const lines = readFileSync(file, 'utf8').trimEnd().split('\r\n');
    expect(lines[0]).toBe('code,tenant,register_url');
    expect(lines).toHaveLength(6);
    for (const line of lines.slice(1)) {
      const [code, tenant, registerUrl] = line.split(',');
      expect(tenant).toBe('it2');
      expect(registerUrl).toBe(`http://portal.test/register?registrationcode=${code}&subdomain=it2`);
    }
    expect(await countCodes('it2')).toBe(5);
  });

  it('refuses to overwrite a file before creating anything', async () => {
    const file = join(folder, 'taken.csv');
    writeFileSync(file, 'keep me');
    const before = await countCodes('r5');
    const run = await cli(['codes', 'create', '--tenant', 'r5', '--count', '3', '--csv', file]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('exists already');
    expect(readFileSync(file, 'utf8')).toBe('keep me');
    expect(await countCodes('r5')).toBe(before);
  });

  it('prints the CSV without --csv, lists and revokes codes', async () => {
    const created = await cli(['codes', 'create', '--tenant', 'alpenblick', '--count', '2']);
    expect(created.code).toBe(0);
    const codes = created.stdout
      .trimEnd()
      .split('\r\n')
      .slice(1)
      .map((line) => line.split(',')[0]!);
    expect(codes).toHaveLength(2);

    const revoked = await cli(['codes', 'revoke', codes[0]!]);
    expect(revoked).toMatchObject({ code: 0 });
    expect(revoked.stderr).toContain('is revoked');

    const listed = await cli(['codes', 'list', '--tenant', 'alpenblick', '--status', 'unused']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/^CODE\s+TENANT\s+STATUS/);
    expect(listed.stdout).toContain(codes[1]);
    expect(listed.stdout).not.toContain(codes[0]);
    expect(listed.stderr).toContain('1 of 1 codes.');

    // The audit log of those changes, newest first, a page at a time.
    const token = createHash('sha256').update('concierge-dev-admin-token').digest('hex').slice(0, 8);
    const newest = await cli(['audit', 'list', '--tenant', 'alpenblick', '--limit', '1']);
    expect(newest.code).toBe(0);
    const [header, row, ...more] = newest.stdout.trimEnd().split('\n');
    expect(header).toMatch(/^ID\s+TIME\s+BY\s+ACTION\s+TENANT\s+TARGET\s+OUTCOME\s+REQUEST$/);
    expect(row).toMatch(
      new RegExp(
        `^\\d+\\s+\\S+\\s+token ${token}\\s+code\\.revoke\\s+alpenblick\\s+${codes[0]}\\s+changed\\s`,
      ),
    );
    expect(more).toEqual([]);
    const before = /older ones with --before (\d+)\./.exec(newest.stderr)?.[1];
    const older = await cli(['audit', 'list', '--tenant', 'alpenblick', '--before', String(before)]);
    expect(older.stdout).toMatch(/codes\.create\s+alpenblick\s+2 codes\s+changed/);
    expect(older.stderr).toContain('Listed 1; no older ones.');
  });

  it('makes a batch from a file of units (naming a bad line first), shows, exports and revokes it, and shows figures', async () => {
    const bad = join(folder, 'units-bad.csv');
    writeFileSync(bad, 'unit,name,language\r\nEG links,Anna Muster,de\r\n1. OG,"Rossi, Marco",es\r\n');
    const before = await countCodes('demo');
    const batch = ['batches', 'create', '--tenant', 'demo', '--building', 'Seestrasse 12'];
    const refused = await cli([...batch, '--units', bad]);
    expect(refused).toMatchObject({ code: 2, stdout: '' });
    expect(refused.stderr).toContain(`${bad}: line 3: the language "es" is not one of de, en, fr, it.`);
    expect(await countCodes('demo')).toBe(before);

    // As a spreadsheet saves it: a byte-order mark, a language left empty, one in capitals.
    writeFileSync(
      join(folder, 'units.csv'),
      '\uFEFFunit,name,language\r\nEG links,Anna Muster,\r\n1. OG,"Rossi, Marco",IT\r\n',
    );
    const expires = ['--expires', '2099-03-31T23:59:59+02:00'];
    const created = await cli([...batch, '--units', 'units.csv', '--csv', 'letters.csv', ...expires], {
      INIT_CWD: folder,
    });
    expect(created).toMatchObject({ code: 0, stdout: '' });
    const id = /Created batch ([0-9a-f-]{36}) with 2 codes for Seestrasse 12 \(demo\)/.exec(
      created.stderr,
    )?.[1];
    expect(id).toBeDefined();
    const letters = parseCsv(readFileSync(join(folder, 'letters.csv'), 'utf8')).map(
      (record) => record.fields,
    );
    expect(letters[0]).toEqual(['unit', 'name', 'language', 'code', 'register_url', 'state', 'email']);
    expect(
      letters.slice(1).map(([unit, name, language, , , state]) => [unit, name, language, state]),
    ).toEqual([
      ['EG links', 'Anna Muster', 'de', 'unused'],
      ['1. OG', 'Rossi, Marco', 'it', 'unused'],
    ]);
    const [unused, registered] = [letters[1]![3]!, letters[2]![3]!];

    const listed = await cli(['batches', 'list', '--tenant', 'demo']);
    expect(listed.stdout).toMatch(
      /^ID\s+TENANT\s+BUILDING\s+CREATED\s+EXPIRES\s+CODES\s+UNUSED\s+PENDING\s+USED/,
    );
    expect(listed.stdout).toMatch(
      new RegExp(`${id}\\s+demo\\s+Seestrasse 12\\s+\\S+\\s+2099-03-31T21:59:59.000Z\\s+2\\s+2\\s`),
    );

    const email = uniqueEmail('cli.batch');
    expect((await register(server.app, { email, code: registered })).statusCode).toBe(200);
    const shown = await cli(['batches', 'show', id!]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/^UNIT\s+NAME\s+LANGUAGE\s+CODE\s+STATE\s+E-MAIL\n/);
    expect(shown.stdout).toMatch(
      new RegExp(`\\n1\\. OG\\s+Rossi, Marco\\s+it\\s+${registered}\\s+used\\s+${email}\\n`),
    );
    expect(shown.stderr).toContain(
      '2 codes: 1 unused, 0 pending, 1 used (0 activated, 0 locked), 0 revoked, 0 expired.',
    );

    // The letter still to post, as a PDF into a new file; an existing file is never overwritten.
    const pdfFile = join(folder, 'letters.pdf');
    const printed = await cli(['batches', 'letters', id!, '--pdf', pdfFile]);
    expect(printed.code).toBe(0);
    expect(printed.stderr).toContain(`Wrote the letters of batch ${id} to ${pdfFile}`);
    expect(readFileSync(pdfFile).subarray(0, 5).toString()).toBe('%PDF-');
    expect((await cli(['batches', 'letters', id!, '--pdf', pdfFile])).code).toBe(2);

    // Several codes at once: all or none.
    const selection = await cli(['codes', 'revoke', unused, registered]);
    expect(selection.code).toBe(1);
    expect(selection.stderr).toContain(`${registered} (used)`);
    expect(selection.stderr).toContain('(code_not_revocable)');

    const revoked = await cli(['batches', 'revoke', id!]);
    expect(revoked).toMatchObject({ code: 0, stdout: '' });
    expect(revoked.stderr).toContain(`Batch ${id} (Seestrasse 12): revoked 1 unused codes.`);
    const again = await cli(['batches', 'revoke', id!]);
    expect(again.stderr).toContain('no unused codes left to revoke');

    const exported = await cli(['batches', 'export', id!]);
    expect(exported.code).toBe(0);
    expect(parseCsv(exported.stdout).map(({ fields }) => [fields[0], fields[5], fields[6]])).toEqual([
      ['unit', 'state', 'email'],
      ['1. OG', 'used', email],
      ['EG links', 'revoked', ''],
    ]);

    const figures = await cli(['figures', '--tenant', 'demo']);
    expect(figures.code).toBe(0);
    const [header, row] = figures.stdout.trimEnd().split('\n');
    expect(header).toMatch(
      /^TENANT\s+CODES\s+UNUSED\s+PENDING\s+USED\s+ACTIVATED\s+LOCKED\s+REVOKED\s+EXPIRED\s+INVITATIONS OPEN$/,
    );
    const { tenants } = await adminCall('/figures?tenant=demo');
    const { tenant, invitationsOpen, ...counts } = tenants[0];
    expect(row!.split(/\s+/)).toEqual([
      tenant,
      ...Object.values(counts).map(String),
      String(invitationsOpen),
    ]);
  });

  it('creates, lists, withdraws and sends invitations again, and lists the requests for new ones', async () => {
    const created = await cli([
      'invitations',
      'create',
      '--tenant',
      'demo',
      '--email',
      'cli.invitee@example.ch',
      '--language',
      'it',
    ]);
    expect(created.code).toBe(0);
    const id = created.stdout.trim();
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const [mail] = await server.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('recipient', '=', 'cli.invitee@example.ch')
      .execute();
    expect(mail).toMatchObject({
      kind: 'invitation',
      subject: 'Invito al portale inquilini Demo Immobilien AG',
    });

    const listed = await cli(['invitations', 'list', '--tenant', 'demo']);
    expect(listed.stdout).toContain(id);
    expect(listed.stdout).toContain('cli.invitee@example.ch');

    const revoked = await cli(['invitations', 'revoke', id]);
    expect(revoked.code).toBe(0);
    expect(revoked.stderr).toContain('is withdrawn');

    // Issue 30: the invitee asks for a new one from the withdrawn invitation's page …
    const { code } = await server.db
      .selectFrom('invitations')
      .select('code')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    await postPortalCall(server.app, 'request-new-invitation', {
      invite_id: id,
      registrationcode: code,
      email: 'cli.invitee@example.ch',
    });
    const asked = await cli(['invitations', 'requests', '--tenant', 'demo']);
    expect(asked.code).toBe(0);
    expect(asked.stdout).toMatch(new RegExp(`demo\\s+cli\\.invitee@example\\.ch\\s+${id}`));
    // … and the office sends it again, which answers the request.
    const resent = await cli(['invitations', 'resend', id]);
    expect(resent.code).toBe(0);
    const newId = resent.stdout.trim();
    expect(newId).toMatch(/^[0-9a-f-]{36}$/);
    expect(newId).not.toBe(id);
    expect(resent.stderr).toContain(`invitation ${id} is withdrawn`);
    expect((await cli(['invitations', 'requests', '--tenant', 'demo'])).stdout).not.toContain(id);
    expect((await cli(['invitations', 'resend'])).code).toBe(2);
  });

  it('unlocks an account the office names by its e-mail', async () => {
    const email = `cli.locked.${Date.now()}@example.ch`;
    const { sub } = await userAtProvider(server.provider, email, { declined: true });
    await seedAccountProtection(server.db, email, { failures: 3, lock: 'locked', sub });

    const run = await cli(['accounts', 'unlock', '--email', email]);
    expect(run).toMatchObject({ code: 0, stdout: '' });
    expect(run.stderr).toContain(`Unlocked ${email} (it was locked; 3 failed sign-ins cleared).`);
    expect((await providerUserOf(server.provider, email))?.status).toBe('VERIFIED');
    const unknown = await cli(['accounts', 'unlock', '--email', 'nobody.here@example.ch']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('(account_not_found)');
  });

  it('says what the server refused, with exit code 1', async () => {
    const unknownTenant = await cli(['codes', 'create', '--tenant', 'nobody']);
    expect(unknownTenant.code).toBe(1);
    expect(unknownTenant.stderr).toContain('No tenant with the subdomain "nobody". (unknown_tenant)');
    const unknownCode = await cli(['codes', 'revoke', '3f0e4a53-4a8e-4d2b-9c7e-0d1c2b3a4f5e']);
    expect(unknownCode.code).toBe(1);
    expect(unknownCode.stderr).toContain('code_not_found');
    const wrongToken = await cli(['codes', 'list'], { ADMIN_API_TOKEN: 'a-wrong-token-123456' });
    expect(wrongToken.code).toBe(1);
    expect(wrongToken.stderr).toContain('refused the admin API token');
    const down = await cli(['codes', 'list'], { CONCIERGE_URL: 'http://127.0.0.1:9' });
    expect(down.code).toBe(1);
    expect(down.stderr).toContain('Cannot reach http://127.0.0.1:9');
  });

  // Issue 26: 50,000 codes were made in 16 s. The quota counts per tenant and clock hour.
  it('stops at the hourly quota of codes and of invitations, making nothing more, with exit code 1', async () => {
    // Not at the end of a clock hour: the quota would renew between the calls.
    const toNextHour = 3_600_000 - (Date.now() % 3_600_000);
    if (toNextHour < 10_000) await new Promise((resolve) => setTimeout(resolve, toNextHour + 100));
    const filled = await cli(['codes', 'create', '--tenant', 'lacleman', '--count', String(CODE_QUOTA - 1)]);
    expect(filled.code).toBe(0);
    const beyond = await cli(['codes', 'create', '--tenant', 'lacleman', '--count', '2']);
    expect(beyond).toMatchObject({ code: 1, stdout: '' });
    expect(beyond.stderr).toContain(
      `HTTP 429: Quota reached: at most ${CODE_QUOTA} registration codes per tenant an hour ` +
        `(ADMIN_CODES_PER_TENANT_PER_HOUR); ${CODE_QUOTA - 1} made for "lacleman" this hour, 1 left, 2 asked for.`,
    );
    expect(await countCodes('lacleman')).toBe(CODE_QUOTA - 1);
    // What is left can still be had; another tenant's quota is its own.
    expect((await cli(['codes', 'create', '--tenant', 'lacleman', '--count', '1'])).code).toBe(0);
    expect((await cli(['codes', 'create', '--tenant', 'lacleman', '--count', '1'])).code).toBe(1);
    // Like every 429, with the wait: the rest of the clock hour.
    const refusedCall = await server.app.inject({
      method: 'POST',
      url: '/api/admin/codes',
      headers: { authorization: 'Bearer concierge-dev-admin-token', 'content-type': 'application/json' },
      payload: { tenant: 'lacleman', count: 1 },
    });
    expect(refusedCall.statusCode).toBe(429);
    const untilNextHour = (3_600_000 - (Date.now() % 3_600_000)) / 1000;
    expect(Number(refusedCall.headers['retry-after'])).toBeGreaterThanOrEqual(Math.floor(untilNextHour));
    expect(Number(refusedCall.headers['retry-after'])).toBeLessThanOrEqual(Math.ceil(untilNextHour) + 1);
    expect((await cli(['codes', 'create', '--tenant', 'r5', '--count', '1'])).code).toBe(0);

    const invite = (email: string) =>
      cli(['invitations', 'create', '--tenant', 'lacleman', '--email', email]);
    for (let index = 0; index < INVITATION_QUOTA; index += 1) {
      expect((await invite(`quota.${index}@example.ch`)).code).toBe(0);
    }
    const refused = await invite('quota.beyond@example.ch');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`at most ${INVITATION_QUOTA} invitations per tenant an hour`);
    const mails = await server.db
      .selectFrom('mail_outbox')
      .select('recipient')
      .where('recipient', '=', 'quota.beyond@example.ch')
      .execute();
    expect(mails).toEqual([]);
  });

  it('answers wrong usage with exit code 2', async () => {
    for (const args of [
      ['codes', 'create'],
      ['codes', 'create', '--tenant', 'demo', '--count', 'many'],
      ['codes', 'create', '--tenant', 'demo', '--count', '10001'],
      ['codes', 'revoke'],
      ['codes', 'shred'],
      ['codes', 'list', '--colour'],
      ['invitations', 'create', '--tenant', 'demo'],
      ['accounts', 'unlock'],
      ['audit', 'list', '--before', 'yesterday'],
      ['batches', 'create', '--tenant', 'demo', '--units', 'units.csv'],
      [
        'batches',
        'create',
        '--tenant',
        'demo',
        '--building',
        'B',
        '--units',
        'u.csv',
        '--expires',
        'tomorrow',
      ],
      ['batches', 'create', '--tenant', 'demo', '--building', 'B', '--units', join(folder, 'missing.csv')],
      ['batches', 'show'],
    ]) {
      const run = await cli(args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr, args.join(' ')).toMatch(/^Error: /);
    }
    const remote = await cli(['codes', 'list'], { CONCIERGE_URL: 'https://login.example.ch' });
    expect(remote.code).toBe(2);
    expect(remote.stderr).toContain('Set ADMIN_API_TOKEN');
    // The server's list during a rotation, copied as it is: the CLI sends one token.
    const list = await cli(['codes', 'list'], {
      ADMIN_API_TOKEN: 'old-admin-token-12345,new-admin-token-12345',
    });
    expect(list.code).toBe(2);
    expect(list.stderr).toContain('give the CLI one token');
  });
});
