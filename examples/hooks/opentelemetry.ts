/**
 * OpenTelemetry tracing through the client's hooks: every request the SDK sends becomes a CLIENT
 * span, as OpenTelemetry's HTTP semantic conventions ask: named `GET /v1/users/{id}`, with the
 * method, URL, template, server, status, the request id to quote to support and, on a retry,
 * `http.request.resend_count`. An error status or a connection failure marks it as an error.
 *
 * Only `@opentelemetry/api` is needed here; the tracer provider (the OpenTelemetry SDK, an
 * exporter) is your application's. Spans take the active context as parent, so a call made
 * inside your own span (`tracer.startActiveSpan`) shows its attempts beneath it.
 *
 *   const client = new Client({ hooks: tracingHooks() });
 */
import {
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  context,
  trace,
} from '@opentelemetry/api';
import { type AttemptContext, type Hooks, VERSION } from '@employee-recognition/sdk';

// The contract's ids are UUIDs; the template keeps span names to one per operation.
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** Hooks that trace each attempt with `tracer` (by default the global provider's). */
export function tracingHooks(
  tracer: Tracer = trace.getTracer('@employee-recognition/sdk', VERSION),
): Hooks {
  // Every hook of one attempt sees that attempt's `headers` object: it ties them to one span.
  const spans = new WeakMap<Headers, Span>();
  const end = (attempt: AttemptContext, errorType?: string, exception?: Error) => {
    const span = spans.get(attempt.headers);
    if (!span) return; // already ended with its answer
    spans.delete(attempt.headers);
    if (errorType !== undefined) {
      span.setAttribute('error.type', errorType);
      if (exception) span.recordException(exception);
      span.setStatus({ code: SpanStatusCode.ERROR, message: exception?.message });
    }
    span.end();
  };

  return {
    beforeRequest: [
      (attempt) => {
        const template = attempt.path.replace(UUID, '{id}');
        const url = new URL(attempt.url);
        const span = tracer.startSpan(
          `${attempt.method} ${template}`,
          {
            kind: SpanKind.CLIENT,
            attributes: {
              'http.request.method': attempt.method,
              'url.full': attempt.url,
              'url.template': template,
              'server.address': url.hostname,
              'server.port': Number(url.port) || (url.protocol === 'https:' ? 443 : 80),
              ...(attempt.attempt > 1 && { 'http.request.resend_count': attempt.attempt - 1 }),
            },
          },
          context.active(),
        );
        spans.set(attempt.headers, span);
      },
    ],
    afterResponse: [
      (answer) => {
        const span = spans.get(answer.headers);
        span?.setAttribute('http.response.status_code', answer.status);
        const requestId = answer.responseHeaders.get('x-request-id');
        if (requestId) span?.setAttribute('employee_recognition.request_id', requestId);
        end(answer, answer.status >= 400 ? String(answer.status) : undefined);
      },
    ],
    // A failure without an answer (refused, reset, timed out) ends its span here or below.
    beforeRetry: [(retry) => end(retry, retry.error.name, retry.error)],
    beforeError: [(error, attempt) => end(attempt, error.name, error)],
  };
}
