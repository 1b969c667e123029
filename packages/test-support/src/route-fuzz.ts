// A bounded, deterministic fuzzer for a Fastify app's routes (issue "Hardening", point 1): every
// route the app has — read from printRoutes, so a route added later is fuzzed too — gets hostile
// path parameters, query strings and bodies through inject(). What must never come back is a 5xx.
// Every route also gets each query parameter repeated and in the bracket form; the parameters a
// route reads are learnt from its handler (recordQueryReads), not only from samples (issue 26).
// Structural types only: this package does not depend on Fastify.

export interface FuzzRoute {
  method: string;
  /** As registered: `/api/admin/codes/:code/revoke`, `/*`. */
  url: string;
}

export interface InjectAnswer {
  statusCode: number;
  body: string;
}

export interface InjectOptions {
  method: string;
  url: string;
  headers?: Record<string, string>;
  payload?: string;
  remoteAddress?: string;
}

export interface FuzzableApp {
  printRoutes(options: { commonPrefix: false }): string;
  inject(options: InjectOptions): Promise<InjectAnswer>;
}

/**
 * The routes in `app.printRoutes({ commonPrefix: false })`: a tree whose lines are
 * `<indent>├── <segment> (<METHODS>)`, each segment continuing its parent's path.
 */
export function routesOf(printed: string): FuzzRoute[] {
  const routes: FuzzRoute[] = [];
  const stack: string[] = [];
  for (const line of printed.split('\n')) {
    const marker = line.search(/[├└]── /);
    if (marker === -1) continue;
    const depth = Math.floor(marker / 4);
    const rest = line.slice(marker + 4);
    const methods = /\s\(([A-Z, ]+)\)\s*$/.exec(rest);
    const segment = methods ? rest.slice(0, methods.index) : rest.trimEnd();
    const parent = depth > 0 ? (stack[depth - 1] ?? '') : '';
    let path = parent + segment;
    if (!path.startsWith('/')) path = `/${path}`;
    stack[depth] = path;
    stack.length = depth + 1;
    for (const method of methods?.[1]?.split(',').map((name) => name.trim()) ?? []) {
      if (method) routes.push({ method, url: path.replace(/\/\/+/g, '/') });
    }
  }
  return routes;
}

/** A small seeded generator: the same run sends the same requests, so a failure reproduces. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const HUGE = 'x'.repeat(100 * 1024);

/** Strings that must be refused (400) wherever they appear. */
export const UNSAFE_STRINGS: readonly string[] = [
  'a\u0000b@x.ch',
  '\u0000',
  'anna\u001b[31m@example.ch',
  'tab\there',
  'line\nbreak',
  'del\u007f',
  'c1\u0085next',
  '\ud800',
  'a\udc00b@x.ch',
  'x\ud83d',
];

/** Strings that are odd but legal text: they may be refused or accepted, never a 5xx. */
export const ODD_STRINGS: readonly string[] = [
  '',
  ' ',
  HUGE,
  'Ünïcødé 😀@exämple.ch',
  "' OR 1=1 --",
  '../../etc/passwd',
  '%00',
  '%E0%A4%A',
  '__proto__',
  '{"$gt":""}',
];

/** JSON values of the wrong type for a text field. */
export const WRONG_TYPES: readonly unknown[] = [
  0,
  -1,
  1.5,
  1e308,
  true,
  false,
  null,
  [],
  ['a', 'b'],
  {},
  { $gt: '' },
  [[[['deep']]]],
];

/** Percent-encoded path segments; the first ones must be refused. */
const UNSAFE_SEGMENTS = ['%00', 'a%00b', '%1B%5B31m', '%C2%85', '%ED%A0%80', '%E0%A4%A', '%', '%C0%80'];
const ODD_SEGMENTS = ['..%2F..%2Fetc%2Fpasswd', '%20', `${'y'.repeat(5000)}`, '__proto__', 'constructor'];

/** Query strings whose text is hostile, and whether they must be refused. */
const QUERY_ATTACKS: readonly { query: string; unsafe: boolean }[] = [
  { query: 'x=%E0%A4%A', unsafe: true },
  { query: '%E0%A4%A=x', unsafe: true },
  { query: 'x=%ED%A0%80', unsafe: true },
  { query: 'x%00=1', unsafe: true },
  { query: 'x=%0d%0aSet-Cookie:%20a=b', unsafe: true },
  { query: '__proto__=x&constructor=y&prototype=z', unsafe: false },
  { query: '__proto__[polluted]=1&a[b][c]=d', unsafe: false },
  { query: `x=${'z'.repeat(20_000)}`, unsafe: false },
  { query: '&&&==&=', unsafe: false },
];

export interface FuzzRequest extends InjectOptions {
  /** What was sent, for the failure report (values abbreviated). */
  label: string;
  /** True when the request carries unsafe text: it must then be refused with a 4xx. */
  mustRefuse: boolean;
}

export interface FuzzPlanOptions {
  /** Headers every request carries (credentials, Origin), by route. */
  headersFor?: (route: FuzzRoute) => Record<string, string>;
  /** Concrete paths to send for a wildcard route (`/*`), e.g. the OIDC endpoints behind it. */
  wildcardPaths?: (route: FuzzRoute) => string[];
  /** Field names known for a route (e.g. discovered from its 400 answer). */
  fieldsFor?: (route: FuzzRoute) => string[];
  /**
   * A plausible request of the route (body fields, or query fields of a GET): each hostile value
   * replaces one of its fields, so the others get past the route's parser.
   */
  sampleFor?: (route: FuzzRoute) => Record<string, unknown> | undefined;
  /**
   * The body fields a route reads, for a route whose body may hold anything in the fields it ignores
   * (the server's webhook intake: cidaas sends fields it does not use). Unsafe text in one of these must
   * still be refused; in any other body field it may be accepted — never with a 5xx. Undefined (every
   * other route): unsafe text anywhere in the body must be refused.
   */
  readFieldsFor?: (route: FuzzRoute) => readonly string[] | undefined;
  /** Field names tried on every route. */
  genericFields?: string[];
  /** How many values of each kind to sample per field. */
  perField?: number;
  seed?: number;
}

export const GENERIC_FIELDS = ['email', 'requestId', 'id', 'code', 'client_id', 'username'];

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE', 'QUERY']);

/** A plausible value for a field, so that the other fields of a request get past a parser. */
export function plausibleValue(name: string, serial: number): string {
  if (/mail|username/i.test(name)) return `fuzz.${serial}@example.ch`;
  if (/password/i.test(name)) return 'Fuzz-Pass-2024!';
  if (/client_?id/i.test(name)) return 'property-portal-demo';
  if (/subdomain/i.test(name)) return 'demo';
  return `fuzz-${serial}`;
}

function abbreviate(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  return text.length > 40 ? `${text.slice(0, 37)}…(${text.length})` : text;
}

function deepObject(levels: number): string {
  return `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
}

function deepArray(levels: number): string {
  return `${'['.repeat(levels)}${']'.repeat(levels)}`;
}

function sample<T>(items: readonly T[], count: number, random: () => number): T[] {
  const pool = [...items];
  const picked: T[] = [];
  while (picked.length < count && pool.length > 0) {
    picked.push(pool.splice(Math.floor(random() * pool.length), 1)[0] as T);
  }
  return picked;
}

function formOf(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString();
}

/** Every request the fuzzer sends to one route. */
export function planRoute(route: FuzzRoute, options: FuzzPlanOptions = {}): FuzzRequest[] {
  const random = seededRandom(
    (options.seed ?? 1) +
      [...`${route.method} ${route.url}`].reduce((sum, char) => sum + char.charCodeAt(0), 0),
  );
  const perField = options.perField ?? 3;
  const headers = options.headersFor?.(route) ?? {};
  const templates = route.url.includes('*')
    ? (options.wildcardPaths?.(route) ?? [route.url.replace('*', 'fuzz')])
    : [route.url];
  const requests: FuzzRequest[] = [];
  let serial = 0;
  const next = () => {
    serial += 1;
    return serial;
  };
  const sampleRequest = options.sampleFor?.(route) ?? {};
  const readFields = options.readFieldsFor?.(route);
  /** Whether unsafe text in this body field must be refused (null: a field nested under another). */
  const isRead = (field: string | null) =>
    readFields === undefined || (field !== null && readFields.includes(field));
  const fields = [
    ...new Set([
      ...Object.keys(sampleRequest),
      ...(readFields ?? []),
      ...(options.fieldsFor?.(route) ?? []),
      ...(options.genericFields ?? GENERIC_FIELDS),
    ]),
  ];
  // With a sample, the other fields are the sample's (a strict parser refuses extra ones); without
  // one, every known field gets a plausible value.
  const baseFields = Object.keys(sampleRequest).length > 0 ? Object.keys(sampleRequest) : fields;
  /** Every base field but `field`, with the sample's value or a plausible one. */
  const othersThan = (field: string): Record<string, unknown> =>
    Object.fromEntries(
      baseFields
        .filter((other) => other !== field)
        .map((other) => [other, sampleRequest[other] ?? plausibleValue(other, next())]),
    );
  const asText = (fields: Record<string, unknown>): Record<string, string> =>
    Object.fromEntries(
      Object.entries(fields).map(([name, value]) => [
        name,
        typeof value === 'string' ? value : JSON.stringify(value),
      ]),
    );
  const hasBody = BODY_METHODS.has(route.method);

  for (const template of templates) {
    const params = [...template.matchAll(/:(\w+)/g)].map((match) => match[1] as string);
    const concrete = (overrides: Record<string, string> = {}) =>
      template.replace(/:(\w+)/g, (_all, name: string) => overrides[name] ?? `fuzz-${name}`);
    const base = concrete();
    const add = (request: Omit<FuzzRequest, 'method'> & { method?: string }) =>
      requests.push({ method: route.method, ...request, headers: { ...headers, ...request.headers } });

    // Path parameters, and a hostile segment after a fixed path.
    for (const name of params) {
      for (const segment of UNSAFE_SEGMENTS)
        add({ url: concrete({ [name]: segment }), label: `:${name}=${segment}`, mustRefuse: true });
      for (const segment of sample(ODD_SEGMENTS, perField, random))
        add({
          url: concrete({ [name]: segment }),
          label: `:${name}=${abbreviate(segment)}`,
          mustRefuse: false,
        });
    }
    if (params.length === 0) {
      add({ url: `${base.replace(/\/$/, '')}/%00`, label: 'trailing /%00', mustRefuse: true });
      add({ url: `${base}%E0%A4%A`, label: 'path %E0%A4%A', mustRefuse: true });
    }

    // Query strings.
    for (const attack of QUERY_ATTACKS) {
      add({
        url: `${base}?${attack.query}`,
        label: `?${abbreviate(attack.query)}`,
        mustRefuse: attack.unsafe,
      });
    }
    // Every parameter of a plausible query repeated, and in the bracket form (issue 26: a route that
    // read a value as a string met an array, `?namespaces=a&namespaces=b`, and answered 500).
    const plausibleQuery = asText(othersThan(''));
    if (Object.keys(plausibleQuery).length > 0) {
      const twice = Object.entries(plausibleQuery).flatMap(([name, value]): [string, string][] => [
        [name, value],
        [name, `${value}-again`],
      ]);
      add({
        url: `${base}?${new URLSearchParams(twice)}`,
        label: '?every parameter twice',
        mustRefuse: false,
      });
      const bracketed = Object.entries(plausibleQuery).flatMap(([name, value]): [string, string][] => [
        [`${name}[]`, value],
        [`${name}[]`, value],
        [`${name}[0]`, value],
      ]);
      add({
        url: `${base}?${new URLSearchParams([...Object.entries(plausibleQuery), ...bracketed])}`,
        label: '?every parameter as name[]',
        mustRefuse: false,
      });
    }
    for (const field of fields) {
      const values = [UNSAFE_STRINGS[0] as string, '\ud800', ...sample(UNSAFE_STRINGS, 1, random)];
      const others = asText(othersThan(field));
      for (const value of values) {
        add({
          url: `${base}?${formOf(others)}&${encodeQueryValue(field, value)}`,
          label: `?${field}=${abbreviate(value)}`,
          mustRefuse: true,
        });
      }
      for (const value of sample(ODD_STRINGS, perField, random)) {
        add({
          url: `${base}?${formOf({ ...others, [field]: value })}`,
          label: `?${field}=${abbreviate(value)}`,
          mustRefuse: false,
        });
      }
      add({
        url: `${base}?${field}=a&${field}=b&${field}[]=c`,
        label: `?${field} duplicated`,
        mustRefuse: false,
      });
    }

    if (!hasBody) continue;
    const json = { 'content-type': 'application/json' };
    const form = { 'content-type': 'application/x-www-form-urlencoded' };

    // Bodies: one field hostile at a time, the others plausible.
    for (const field of fields) {
      const others = othersThan(field);
      const unsafe = [UNSAFE_STRINGS[0] as string, '\ud800', ...sample(UNSAFE_STRINGS, perField - 1, random)];
      for (const value of unsafe) {
        add({
          url: base,
          headers: json,
          payload: JSON.stringify({ ...others, [field]: value }),
          label: `json ${field}=${abbreviate(value)}`,
          mustRefuse: isRead(field),
        });
      }
      add({
        url: base,
        headers: form,
        payload: `${formOf(asText(others))}&${encodeQueryValue(field, 'a\u0000b@x.ch')}`,
        label: `form ${field}="a\\u0000b@x.ch"`,
        mustRefuse: isRead(field),
      });
      add({
        url: base,
        headers: form,
        payload: `${formOf(asText(others))}&${field}=%E0%A4%A`,
        label: `form ${field}=%E0%A4%A`,
        mustRefuse: false,
      });
      for (const value of [
        ...sample(ODD_STRINGS, perField, random),
        ...sample(WRONG_TYPES, perField, random),
      ]) {
        add({
          url: base,
          headers: json,
          payload: JSON.stringify({ ...others, [field]: value }),
          label: `json ${field}=${abbreviate(value)}`,
          mustRefuse: false,
        });
      }
      add({
        url: base,
        headers: json,
        payload: JSON.stringify({ ...others, nested: { deeper: [{ [field]: '\u0000' }] } }),
        label: `json nested ${field}=NUL`,
        mustRefuse: isRead(null),
      });
    }

    // Whole bodies of the wrong shape or type.
    const plausible = asText({ ...othersThan(''), ...sampleRequest });
    const bodies: { headers: Record<string, string>; payload: string; label: string; mustRefuse: boolean }[] =
      [
        { headers: json, payload: deepObject(2000), label: 'json nested 2000 objects', mustRefuse: true },
        { headers: json, payload: deepArray(2000), label: 'json nested 2000 arrays', mustRefuse: true },
        {
          headers: json,
          payload: `{"__proto__":{"polluted":true},${JSON.stringify(plausible).slice(1)}`,
          label: 'json __proto__',
          mustRefuse: false,
        },
        {
          headers: json,
          payload: JSON.stringify({ constructor: { prototype: { polluted: true } }, ...plausible }),
          label: 'json constructor.prototype',
          mustRefuse: false,
        },
        {
          headers: json,
          payload: JSON.stringify({ 'a\u0000': 1 }),
          label: 'json NUL in a key',
          mustRefuse: true,
        },
        { headers: json, payload: '[]', label: 'json []', mustRefuse: false },
        { headers: json, payload: 'null', label: 'json null', mustRefuse: false },
        { headers: json, payload: '"text"', label: 'json string', mustRefuse: false },
        { headers: json, payload: '123', label: 'json number', mustRefuse: false },
        { headers: json, payload: '{', label: 'json broken', mustRefuse: false },
        { headers: json, payload: '', label: 'json empty', mustRefuse: false },
        { headers: json, payload: JSON.stringify({ big: HUGE }), label: 'json 100 kB', mustRefuse: false },
        {
          headers: { 'content-type': 'application/json; charset=utf-16' },
          payload: JSON.stringify(plausible),
          label: 'json utf-16',
          mustRefuse: false,
        },
        {
          headers: { 'content-type': 'text/plain' },
          payload: JSON.stringify(plausible),
          label: 'text/plain',
          mustRefuse: false,
        },
        { headers: form, payload: formOf(plausible), label: 'form plausible', mustRefuse: false },
        {
          headers: form,
          payload: `${formOf(plausible)}&email=a&email=b`,
          label: 'form duplicated',
          mustRefuse: false,
        },
        {
          headers: { 'content-type': 'multipart/form-data; boundary=x' },
          payload: '--x\r\ncontent-disposition: form-data; name="email"\r\n\r\na@b.ch\r\n--x--\r\n',
          label: 'multipart',
          mustRefuse: false,
        },
        { headers: {}, payload: JSON.stringify(plausible), label: 'no content-type', mustRefuse: false },
        {
          headers: { 'content-type': 'application/octet-stream' },
          payload: '\u0000\u0001\u0002',
          label: 'octet-stream NULs',
          mustRefuse: false,
        },
      ];
    for (const body of bodies) add({ url: base, ...body });
  }
  return requests;
}

function encodeQueryValue(name: string, value: string): string {
  // encodeURIComponent refuses lone surrogates: write their UTF-8-looking escape by hand (it does not
  // decode, which the app must refuse just the same).
  const encode = (text: string) =>
    [...text]
      .map((char) => {
        const unit = char.charCodeAt(0);
        return unit >= 0xd800 && unit <= 0xdfff ? '%ED%A0%80' : encodeURIComponent(char);
      })
      .join('');
  return `${encode(name)}=${encode(value)}`;
}

export interface FuzzFinding {
  request: FuzzRequest;
  statusCode: number;
  body: string;
}

export interface FuzzReport {
  sent: number;
  /** Answers with a 5xx. */
  serverErrors: FuzzFinding[];
  /** Requests carrying unsafe text that were not answered with a 4xx. */
  notRefused: FuzzFinding[];
  /** Status counts, for the log. */
  statuses: Record<number, number>;
  /** The slowest requests, for tuning the sample. */
  slowest: { label: string; ms: number }[];
}

/** Sends the requests, a few at a time, from varying client addresses (rate limits are per address). */
export async function runFuzz(
  app: FuzzableApp,
  requests: FuzzRequest[],
  concurrency = 6,
): Promise<FuzzReport> {
  const report: FuzzReport = { sent: 0, serverErrors: [], notRefused: [], statuses: {}, slowest: [] };
  const timings: { label: string; ms: number }[] = [];
  let index = 0;
  async function worker() {
    for (;;) {
      // inject() answers a request that touches no socket (a 400 from a schema, a 415) within one
      // turn of the event loop; worker after worker of those never let it read a socket, so a request
      // waiting for PostgreSQL's answer waited 1.9–5.5 s for the loop, not for the database (seen on
      // /console/callback, whose statement PostgreSQL had finished). A server behind sockets reads
      // them between requests: so does the fuzz.
      await new Promise((resolve) => setImmediate(resolve));
      if (index >= requests.length) return;
      const number = index;
      index += 1;
      const request = requests[number] as FuzzRequest;
      const { label: _label, mustRefuse: _mustRefuse, ...options } = request;
      let answer: InjectAnswer;
      const started = performance.now();
      try {
        answer = await app.inject({
          ...options,
          remoteAddress: `10.${(number >> 16) & 255}.${(number >> 8) & 255}.${number & 255}`,
        });
      } catch (error) {
        answer = { statusCode: 599, body: `inject threw: ${String(error)}` };
      }
      timings.push({
        label: `${request.method} ${request.url.slice(0, 60)} [${request.label}]`,
        ms: Math.round(performance.now() - started),
      });
      report.sent += 1;
      report.statuses[answer.statusCode] = (report.statuses[answer.statusCode] ?? 0) + 1;
      const finding = { request, statusCode: answer.statusCode, body: answer.body };
      if (answer.statusCode >= 500) report.serverErrors.push(finding);
      else if (request.mustRefuse && (answer.statusCode < 400 || answer.statusCode >= 500))
        report.notRefused.push(finding);
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  report.slowest = timings.sort((a, b) => b.ms - a.ms).slice(0, 10);
  return report;
}

/** One line per finding: method, path, what was sent, status and the start of the answer. */
export function describeFindings(findings: FuzzFinding[]): string {
  return findings
    .map(
      ({ request, statusCode, body }) =>
        `${request.method} ${request.url.length > 120 ? `${request.url.slice(0, 117)}…` : request.url} [${request.label}] → ${statusCode} ${body.slice(0, 160)}`,
    )
    .join('\n');
}

/** A request as a hook sees it: its route's pattern, and the parsed query it may replace. */
export interface QueryReadingRequest {
  method: string;
  routeOptions: { url?: string };
  query: unknown;
}

export interface QueryReadingApp {
  addHook(name: 'preHandler', hook: (request: QueryReadingRequest) => Promise<void>): unknown;
}

/** Names that reading an object reads by itself (JSON.stringify, await, printing): not parameters. */
const NOT_PARAMETERS = new Set(['toJSON', 'then', 'constructor', 'valueOf', 'toString', 'inspect']);

/**
 * The query parameters each route reads, found by watching its handler (issue 26): every request's
 * parsed query is handed on behind a Proxy that notes each name read. Send each route one plausible
 * request first (e.g. the field discovery); `fieldsFor` then adds these names, so that a parameter no
 * sample names (`namespaces` of `/messages/:language`) gets hostile, repeated and bracketed values
 * too. Install it before the app is ready.
 */
export function recordQueryReads(app: QueryReadingApp): (route: FuzzRoute) => string[] {
  const read = new Map<string, Set<string>>();
  app.addHook('preHandler', async (request) => {
    const { query } = request;
    const url = request.routeOptions.url;
    if (query === null || typeof query !== 'object' || url === undefined) return;
    const key = `${request.method} ${url}`;
    const names = read.get(key) ?? new Set<string>();
    read.set(key, names);
    request.query = new Proxy(query, {
      get(target, name, receiver) {
        if (typeof name === 'string' && !NOT_PARAMETERS.has(name)) names.add(name);
        return Reflect.get(target, name, receiver);
      },
    });
  });
  return (route) => [...(read.get(`${route.method} ${route.url}`) ?? [])];
}

/**
 * Field names a route names in its 400 answer to an empty request ("Invalid or missing: email,
 * password", "email: Invalid input; password: …").
 */
export function fieldsNamedIn(message: string): string[] {
  const names = new Set<string>();
  const text = message.replace(/^.*?Invalid or missing:\s*/i, '');
  for (const part of text.split(/[;,]/)) {
    const match = /^\s*([A-Za-z_][A-Za-z0-9_]*)(?:[.[][^:]*)?(?::|\s*$)/.exec(part);
    if (match?.[1] && match[1] !== 'body') names.add(match[1]);
  }
  return [...names];
}
