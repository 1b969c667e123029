import { randomUUID } from 'node:crypto';
import type { LogEvent } from '@concierge/database';
import {
  type Attributes,
  type Context,
  type ContextManager,
  defaultTextMapGetter,
  defaultTextMapSetter,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TextMapPropagator,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import type { ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter, SpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import {
  ATTR_DB_OPERATION_NAME,
  ATTR_DB_QUERY_SUMMARY,
  ATTR_DB_QUERY_TEXT,
  ATTR_DB_RESPONSE_STATUS_CODE,
  ATTR_DB_SYSTEM_NAME,
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_REQUEST_RESEND_COUNT,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
  ATTR_SERVICE_INSTANCE_ID,
  ATTR_SERVICE_NAME,
  ATTR_SERVICE_VERSION,
  DB_SYSTEM_NAME_VALUE_POSTGRESQL,
} from '@opentelemetry/semantic-conventions';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import type { ServerConfig } from '../config';
import type { ProviderCallTracing, TracedProviderRequest } from '../provider-client/provider-http';

/** The request's id (X-Request-Id, nginx's `$request_id`), as its log line has it. */
export const ATTR_REQUEST_ID = 'concierge.request_id';
/** Semantic conventions' `url.template`, still experimental there (so copied, as they advise). */
const ATTR_URL_TEMPLATE = 'url.template';
/** A provider call's name in the metrics (`register`, `token`, …). */
export const ATTR_PROVIDER_OPERATION = 'concierge.provider.operation';

/** Where the traces go (config.ts): the OTLP/HTTP endpoint of the collector, and this service's name. */
export type TracingConfig = NonNullable<ServerConfig['tracing']>;

export interface TracingOptions {
  /** Where ended spans go: the OTLP exporter behind a batch (tracingToCollector), a test's in-memory exporter. */
  spanProcessor: SpanProcessor;
  serviceName: string;
  /** The server package's version, as `concierge_build_info` has it (build-info.ts). */
  serviceVersion: string;
}

/**
 * The server's OpenTelemetry traces (docs/operations.md, "Traces"; docs/decisions.md, "Traces: a
 * span at the owner of each protocol"). Spans are made by hand where each protocol has its one
 * owner: a SERVER span per request (installRequestSpans, Fastify's hooks), a CLIENT span per request
 * to the identity provider (provider-http.ts, through ProviderCallTracing) and one per PostgreSQL
 * statement (statementLog, Kysely's `log` in openDatabase). Nothing is global: the tracer provider,
 * the context (an AsyncLocalStorage of its own) and the W3C propagator belong to this object, so that
 * several servers in one process (the tests) keep their spans apart, and a server without tracing
 * (no OTLP endpoint) has no SDK, no hooks and no Kysely log at all.
 *
 * What goes into a span: methods, route and path templates, status codes, the request id, statement
 * texts with their parameters as placeholders, error kinds. Never a URL or its query, a header, a
 * body, a parameter's value or an error message: those carry e-mails, registration codes, tokens
 * and passwords.
 */
export class Tracing implements ProviderCallTracing {
  readonly #provider: TracerProvider;
  readonly #tracer: Tracer;
  readonly #contexts: ContextManager;
  readonly #propagator: TextMapPropagator;

  /**
   * Loads the SDK and starts a tracer provider. The SDK's packages are imported here and nowhere
   * else, so a server without tracing never loads them (about 7 MiB and 0.1–0.3 s of its start);
   * only the API package's few functions, which do nothing on their own, are always there.
   */
  static async start(options: TracingOptions): Promise<Tracing> {
    const [
      { AsyncLocalStorageContextManager },
      { W3CTraceContextPropagator },
      resources,
      { TracerProvider },
    ] = await Promise.all([
      import('@opentelemetry/context-async-hooks'),
      import('@opentelemetry/core'),
      import('@opentelemetry/resources'),
      import('@opentelemetry/sdk-trace'),
    ]);
    const provider = new TracerProvider({
      resource: resources.defaultResource().merge(
        resources.resourceFromAttributes({
          [ATTR_SERVICE_NAME]: options.serviceName,
          [ATTR_SERVICE_VERSION]: options.serviceVersion,
          // Which of the instances behind the load balancer, for this process's life.
          [ATTR_SERVICE_INSTANCE_ID]: randomUUID(),
        }),
      ),
      spanProcessors: [options.spanProcessor],
    });
    return new Tracing(
      provider,
      provider.getTracer('concierge-server', options.serviceVersion),
      new AsyncLocalStorageContextManager(),
      new W3CTraceContextPropagator(),
    );
  }

  private constructor(
    provider: TracerProvider,
    tracer: Tracer,
    contexts: ContextManager,
    propagator: TextMapPropagator,
  ) {
    this.#provider = provider;
    this.#tracer = tracer;
    this.#contexts = contexts;
    this.#propagator = propagator;
  }

  /**
   * One SERVER span per request, continuing the trace of an incoming W3C `traceparent` (nginx sends
   * one always: the client's, or one of its `$request_id`). The span is the active context from the
   * first hook to the handler, so the statements and provider calls made for the request are its
   * children. The health probes, which poll all day, make none.
   */
  installRequestSpans(app: FastifyInstance, options: { skipRoutes: readonly string[] }): void {
    const skipped = new Set(options.skipRoutes);
    const contexts = new WeakMap<FastifyRequest, Context>();
    const end = (request: FastifyRequest, statusCode: number | undefined) => {
      const context = contexts.get(request);
      if (!context) return;
      contexts.delete(request);
      const span = trace.getSpan(context);
      if (statusCode === undefined) {
        span?.setStatus({ code: SpanStatusCode.ERROR, message: 'client closed the connection' });
      } else {
        span?.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, statusCode);
        if (statusCode >= 500) {
          span?.setAttribute(ATTR_ERROR_TYPE, String(statusCode));
          span?.setStatus({ code: SpanStatusCode.ERROR });
        }
      }
      span?.end();
    };
    // A callback hook: the rest of the request's hooks and its handler run inside `with`. Fastify
    // keeps that context across reading the body (an AsyncResource of the request's hooks).
    app.addHook('onRequest', (request, _reply, done) => {
      const route = request.routeOptions.url;
      if (route !== undefined && skipped.has(route)) return done();
      const parent = this.#propagator.extract(ROOT_CONTEXT, request.headers, defaultTextMapGetter);
      // The route pattern, never the URL: paths and queries carry codes, e-mails and request ids.
      const attributes: Attributes = {
        [ATTR_HTTP_REQUEST_METHOD]: request.method,
        [ATTR_REQUEST_ID]: request.id,
      };
      if (route !== undefined) attributes[ATTR_HTTP_ROUTE] = route;
      const span = this.#tracer.startSpan(
        route === undefined ? request.method : `${request.method} ${route}`,
        { kind: SpanKind.SERVER, attributes },
        parent,
      );
      const context = trace.setSpan(parent, span);
      contexts.set(request, context);
      this.#contexts.with(context, done);
    });
    app.addHook('onResponse', async (request, reply) => end(request, reply.statusCode));
    app.addHook('onRequestAbort', async (request) => end(request, undefined));
  }

  /**
   * Kysely's `log` (openDatabase's option): a CLIENT span per statement that ran for a traced
   * request, timed as Kysely measured it. The text is Kysely's, with `$1`, `$2`, … for the values,
   * which it never holds; an error is named by its SQLSTATE, whose message may quote a row. A
   * statement outside a request (the background jobs' polling, the migrations) makes no span: that
   * would be a trace of its own every second.
   */
  readonly statementLog = (event: LogEvent): void => {
    const parent = this.#contexts.active();
    if (!trace.getSpan(parent)?.isRecording()) return;
    const endTime = performance.now();
    const text = event.query.sql;
    const operation = /^\s*([a-z]+)/i.exec(text)?.[1]?.toUpperCase();
    const table = /\b(?:from|into|update)\s+"?([a-z_][a-z0-9_]*)/i.exec(text)?.[1];
    const summary = operation && table ? `${operation} ${table}` : (operation ?? 'postgresql');
    const attributes: Attributes = {
      [ATTR_DB_SYSTEM_NAME]: DB_SYSTEM_NAME_VALUE_POSTGRESQL,
      [ATTR_DB_QUERY_TEXT]: text,
      [ATTR_DB_QUERY_SUMMARY]: summary,
    };
    if (operation) attributes[ATTR_DB_OPERATION_NAME] = operation;
    const span = this.#tracer.startSpan(
      summary,
      { kind: SpanKind.CLIENT, attributes, startTime: endTime - event.queryDurationMillis },
      parent,
    );
    if (event.level === 'error') {
      const code = (event.error as { code?: unknown } | undefined)?.code;
      const sqlState = typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
      if (sqlState) span.setAttribute(ATTR_DB_RESPONSE_STATUS_CODE, sqlState);
      span.setAttribute(ATTR_ERROR_TYPE, sqlState ?? errorName(event.error));
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
    span.end(endTime);
  };

  /**
   * A CLIENT span for one request to the identity provider (each attempt of a call its own), child
   * of the active span, and the `traceparent` that carries it to the provider. The path goes in as
   * its template: the provider's fixed words kept, anything else (a sub, a request id) `{id}`.
   */
  startProviderRequest(request: {
    method: string;
    url: string;
    operation: string;
    attempt: number;
  }): TracedProviderRequest {
    const url = new URL(request.url);
    const template = pathTemplate(url.pathname);
    const attributes: Attributes = {
      [ATTR_HTTP_REQUEST_METHOD]: request.method,
      [ATTR_URL_TEMPLATE]: template,
      [ATTR_SERVER_ADDRESS]: url.hostname,
      [ATTR_SERVER_PORT]: Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
      [ATTR_PROVIDER_OPERATION]: request.operation,
    };
    if (request.attempt > 1) attributes[ATTR_HTTP_REQUEST_RESEND_COUNT] = request.attempt - 1;
    const parent = this.#contexts.active();
    const span = this.#tracer.startSpan(
      `${request.method} ${template}`,
      { kind: SpanKind.CLIENT, attributes },
      parent,
    );
    const headers: Record<string, string> = {};
    this.#propagator.inject(trace.setSpan(parent, span), headers, defaultTextMapSetter);
    return {
      headers,
      end: (outcome) => endProviderSpan(span, outcome),
    };
  }

  /** Exports what is still queued and stops (main.ts, at the end of the shutdown). */
  shutdown(): Promise<void> {
    return this.#provider.shutdown();
  }
}

function endProviderSpan(span: Span, outcome: { status: number } | { error: string }): void {
  if ('status' in outcome) {
    span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, outcome.status);
    // A refusal (4xx: "no such user", a taken e-mail) is an answer the server reads and acts on
    // (provider-result.ts), not a failed call; a 5xx is no answer (the breaker counts it).
    if (outcome.status >= 500) {
      span.setAttribute(ATTR_ERROR_TYPE, String(outcome.status));
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
  } else {
    span.setAttribute(ATTR_ERROR_TYPE, outcome.error);
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end();
}

/** `/user-srv/users/{id}/status`: segments of lower-case words and dashes kept, any other one replaced. */
export function pathTemplate(pathname: string): string {
  return pathname
    .split('/')
    .map((segment) => (segment === '' || /^[a-z][a-z-]*$/.test(segment) ? segment : '{id}'))
    .join('/');
}

function errorName(error: unknown): string {
  return error instanceof Error ? error.name : '_OTHER';
}

/**
 * Production's tracing: spans in batches (at most every 5 s, 512 at a time) to the collector's
 * OTLP/HTTP endpoint (protobuf-free JSON). The exporter itself reads the other standard variables
 * (OTEL_EXPORTER_OTLP_HEADERS, _TIMEOUT, _COMPRESSION, the certificates). An export that fails is
 * logged once at warn, and when exports go through again at info: spans are dropped meanwhile,
 * requests never wait for the collector.
 */
export async function tracingToCollector(
  config: TracingConfig,
  options: { serviceVersion: string; log: () => FastifyBaseLogger | undefined },
): Promise<Tracing> {
  const [{ OTLPTraceExporter }, { BatchSpanProcessor }, { ExportResultCode }] = await Promise.all([
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/sdk-trace'),
    import('@opentelemetry/core'),
  ]);
  const exporter = reportingFailures(
    new OTLPTraceExporter({ url: config.tracesEndpoint }),
    ExportResultCode.SUCCESS,
    options.log,
  );
  return Tracing.start({
    serviceName: config.serviceName,
    serviceVersion: options.serviceVersion,
    spanProcessor: new BatchSpanProcessor({ exporter }),
  });
}

function reportingFailures(
  exporter: SpanExporter,
  success: ExportResult['code'],
  log: () => FastifyBaseLogger | undefined,
): SpanExporter {
  let isFailing = false;
  return {
    export(spans: ReadableSpan[], done: (result: ExportResult) => void) {
      exporter.export(spans, (result) => {
        if (result.code !== success && !isFailing) {
          isFailing = true;
          const { name, message } = result.error ?? new Error('unknown');
          log()?.warn({ err: { name, message } }, 'traces not exported: the collector did not take them');
        } else if (result.code === success && isFailing) {
          isFailing = false;
          log()?.info('traces exported again');
        }
        done(result);
      });
    },
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
  };
}
