/**
 * The `runtime` and `connection` checks: the SDK's and Node's versions against the support table
 * of docs/versioning.md, proxy variables that `fetch` ignores, then DNS, TCP and TLS to the
 * service measured one by one, so a failure names its layer. Node's own modules are imported when
 * the check runs: in another runtime the layers are skipped, and the HTTP probe still tells.
 */
import type * as NodeDns from 'node:dns';
import type * as NodeNet from 'node:net';
import type * as NodeTls from 'node:tls';
import { isLoopbackHost } from '../internal/loopback.js';
import { later } from '../internal/timers.js';
import type { DoctorCheck } from './report.js';

/**
 * Node.js majors 1.x supports and until when (docs/versioning.md, "Supported Node.js, TypeScript
 * and runtimes"): a major stays a year past its own end of life.
 */
const NODE_SUPPORT: Readonly<Record<number, string>> = {
  20: '2027-04-30',
  22: '2028-04-30',
  24: '2029-04-30',
};
/** A support end this close (days) is a `warn`, so the upgrade is planned, not forced. */
const SUPPORT_WARNING_DAYS = 90;
const DAY_MS = 86_400_000;
/** Each layer's own bound: a black-holed address must not hold the whole run. */
const SOCKET_TIMEOUT_MS = 5_000;
/** A certificate this close to its end (days) is a `warn`. */
const CERTIFICATE_WARNING_DAYS = 14;

const PROXY_VARIABLES = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'];

/** The `runtime` check: versions, support dates, and proxy variables that fetch ignores. */
export function runtimeCheck(
  sdk: string,
  node: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
  now: number,
): DoctorCheck {
  const details: Record<string, unknown> = { sdk, node: node ?? null };
  if (node === undefined) {
    return {
      id: 'runtime',
      status: 'ok',
      summary: `SDK ${sdk}, not on Node.js: docs/runtimes.md lists what runs where`,
      details,
    };
  }
  const major = Number(node.split('.')[0]);
  const supportedUntil = NODE_SUPPORT[major];
  details.supportedUntil = supportedUntil ?? null;
  const proxy = PROXY_VARIABLES.find((name) => env[name]);
  const honoured = env.NODE_USE_ENV_PROXY === '1';
  details.proxyVariable = proxy ?? null;
  details.proxyHonoured = proxy ? honoured : null;
  const proxyProblem =
    proxy && !honoured
      ? {
          summary: `${proxy} is set, but Node's fetch ignores it: requests go direct`,
          fix: `Set NODE_USE_ENV_PROXY=1 (Node 24, 22.21 and later), or give the client a proxy: new Client({ fetchOptions: { dispatcher: new EnvHttpProxyAgent() } }) with EnvHttpProxyAgent from undici (docs/runtimes.md).`,
        }
      : undefined;
  const head = `SDK ${sdk}, Node ${node}`;
  if (!(major >= 20)) {
    return {
      id: 'runtime',
      status: 'fail',
      summary: `${head}: the SDK needs Node 20 or later`,
      fix: 'Upgrade Node.js to 22 or 24 (docs/versioning.md).',
      details,
    };
  }
  if (supportedUntil === undefined) {
    return {
      id: 'runtime',
      status: proxyProblem ? 'warn' : 'ok',
      summary: `${head}, newer than the majors docs/versioning.md lists${proxyProblem ? `; ${proxyProblem.summary}` : ''}`,
      fix: proxyProblem?.fix,
      details,
    };
  }
  const daysLeft = Math.floor((Date.parse(`${supportedUntil}T00:00:00Z`) - now) / DAY_MS);
  details.daysOfSupportLeft = daysLeft;
  const ending =
    daysLeft < 0
      ? `Node ${major} is past 1.x's support (ended ${supportedUntil})`
      : daysLeft < SUPPORT_WARNING_DAYS
        ? `Node ${major} leaves 1.x's support on ${supportedUntil}`
        : undefined;
  if (ending || proxyProblem) {
    return {
      id: 'runtime',
      status: 'warn',
      summary: [head, ending, proxyProblem?.summary].filter(Boolean).join('; '),
      fix: [ending && 'Plan the move to Node 22 or 24 (docs/versioning.md).', proxyProblem?.fix]
        .filter(Boolean)
        .join(' '),
      details,
    };
  }
  return {
    id: 'runtime',
    status: 'ok',
    summary: `${head}, supported until ${supportedUntil}`,
    details,
  };
}

/** What the socket layers found; `failure` names the first that failed. */
export interface SocketLayers {
  details: Record<string, unknown>;
  failure?: { summary: string; fix: string } | undefined;
  warning?: { summary: string; fix: string } | undefined;
  /** The layers' summary, such as `DNS 2 ms, TCP 1 ms, TLS 14 ms`. */
  summary: string;
}

// Node's names for a certificate it cannot trust, by what they mean to a customer.
const SELF_SIGNED = new Set(['DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN']);
const UNKNOWN_CA = new Set([
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'CERT_UNTRUSTED',
]);
const EXPIRED = new Set(['CERT_HAS_EXPIRED']);
const NOT_YET_VALID = new Set(['CERT_NOT_YET_VALID']);

/** DNS, TCP and (for https) TLS to the service, each timed; undefined outside Node. */
export async function probeSockets(
  baseUrl: string,
  now: () => number,
  signal: AbortSignal | undefined,
): Promise<SocketLayers | undefined> {
  if (!(globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node) {
    return undefined;
  }
  const url = new URL(baseUrl);
  const secure = url.protocol === 'https:';
  const port = Number(url.port || (secure ? 443 : 80));
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const details: Record<string, unknown> = { host: url.hostname, port };
  const parts: string[] = [];
  // Bundlers must leave Node's modules alone: the entry stays importable everywhere.
  const [dns, net, tls] = (await Promise.all([
    import(/* webpackIgnore: true */ /* @vite-ignore */ 'node:dns'),
    import(/* webpackIgnore: true */ /* @vite-ignore */ 'node:net'),
    import(/* webpackIgnore: true */ /* @vite-ignore */ 'node:tls'),
  ])) as [typeof NodeDns, typeof NodeNet, typeof NodeTls];

  let started = now();
  let address: string;
  try {
    address = net.isIP(host)
      ? host
      : (await bounded(dns.promises.lookup(host), signal, 'DNS lookup')).address;
  } catch (error) {
    return {
      details,
      summary: `DNS: ${url.hostname} does not resolve`,
      failure: {
        summary: `DNS: ${url.hostname} does not resolve (${codeOf(error)})`,
        fix: 'Check the base URL (--base-url, RECOGNITION_BASE_URL) and this machine’s DNS.',
      },
    };
  }
  details.dnsMs = now() - started;
  parts.push(`DNS ${String(details.dnsMs)} ms`);

  started = now();
  try {
    await bounded(
      new Promise<void>((resolve, reject) => {
        const socket = net.connect({ host: address, port });
        socket.once('connect', () => {
          socket.destroy();
          resolve();
        });
        watch(socket, signal, reject);
      }),
      signal,
      'TCP connect',
    );
  } catch (error) {
    return {
      details,
      summary: `TCP: no connection to ${url.hostname}:${port}`,
      failure: {
        summary: `TCP: no connection to ${url.hostname}:${port} (${codeOf(error)})`,
        fix: 'Check that the service is up, the port is right, and no firewall blocks it.',
      },
    };
  }
  details.tcpMs = now() - started;
  parts.push(`TCP ${String(details.tcpMs)} ms`);
  if (!secure) {
    details.tls = null;
    const plain = isLoopbackHost(url.hostname)
      ? undefined
      : {
          summary: 'plain http to a host that is not this machine: the credential travels in clear',
          fix: 'Use the https base URL of the service.',
        };
    return { details, summary: parts.join(', '), warning: plain };
  }

  started = now();
  let certificate: { authorized: boolean; error: string | undefined; validTo: string | undefined };
  try {
    certificate = await bounded(
      new Promise((resolve, reject) => {
        const socket = tls.connect({
          host: address,
          port,
          servername: net.isIP(host) ? undefined : host,
          // Read the verdict rather than throw it: the check names the certificate's problem.
          rejectUnauthorized: false,
        });
        socket.once('secureConnect', () => {
          const peer = socket.getPeerCertificate();
          // Node gives the code itself (a string), some versions an Error carrying it.
          const refused = socket.authorizationError as unknown;
          let error = refused
            ? typeof refused === 'string'
              ? refused
              : codeOf(refused)
            : undefined;
          if (!error) {
            const mismatch = tls.checkServerIdentity(host, peer);
            if (mismatch) error = codeOf(mismatch);
          }
          resolve({ authorized: !error, error, validTo: peer?.valid_to || undefined });
          socket.destroy();
        });
        watch(socket, signal, reject);
      }),
      signal,
      'TLS handshake',
    );
  } catch (error) {
    return {
      details,
      summary: 'TLS: the handshake failed',
      failure: {
        summary: `TLS: the handshake with ${url.hostname} failed (${codeOf(error)})`,
        fix: 'Check that the port serves https, and that no proxy intercepts it.',
      },
    };
  }
  details.tlsMs = now() - started;
  details.certificateError = certificate.error ?? null;
  const validTo = certificate.validTo ? Date.parse(certificate.validTo) : Number.NaN;
  details.certificateValidTo = Number.isFinite(validTo) ? new Date(validTo).toISOString() : null;
  parts.push(`TLS ${String(details.tlsMs)} ms`);
  if (certificate.error) {
    const kind = SELF_SIGNED.has(certificate.error)
      ? 'self-signed'
      : UNKNOWN_CA.has(certificate.error)
        ? 'issued by an unknown certificate authority'
        : EXPIRED.has(certificate.error)
          ? 'expired'
          : NOT_YET_VALID.has(certificate.error)
            ? 'not valid yet'
            : `refused (${certificate.error})`;
    details.certificate = SELF_SIGNED.has(certificate.error)
      ? 'self-signed'
      : UNKNOWN_CA.has(certificate.error)
        ? 'unknown-ca'
        : EXPIRED.has(certificate.error)
          ? 'expired'
          : 'invalid';
    const extraCa = SELF_SIGNED.has(certificate.error) || UNKNOWN_CA.has(certificate.error);
    return {
      details,
      summary: parts.join(', '),
      failure: {
        summary: `TLS: ${url.hostname}'s certificate is ${kind}`,
        fix: extraCa
          ? 'If a proxy or your company re-signs TLS, give Node its CA: NODE_EXTRA_CA_CERTS=/path/to/ca.pem (a PEM file, read at start). Otherwise the address is not the service.'
          : EXPIRED.has(certificate.error)
            ? "The service's certificate has expired: tell its operator; do not turn verification off."
            : 'Check the base URL and this machine’s clock; do not turn verification off.',
      },
    };
  }
  details.certificate = 'valid';
  const daysLeft = Number.isFinite(validTo) ? Math.floor((validTo - now()) / DAY_MS) : undefined;
  const warning =
    daysLeft !== undefined && daysLeft < CERTIFICATE_WARNING_DAYS
      ? {
          summary: `the certificate expires in ${daysLeft} days`,
          fix: "Tell the service's operator: calls fail once it has expired.",
        }
      : undefined;
  return { details, summary: parts.join(', '), warning };
}

/** Rejects at the socket's error; destroys it at `signal`'s abort or after its own timeout. */
function watch(
  socket: NodeNet.Socket,
  signal: AbortSignal | undefined,
  reject: (error: unknown) => void,
): void {
  socket.once('error', reject);
  signal?.addEventListener('abort', () => socket.destroy(), { once: true });
  socket.setTimeout(SOCKET_TIMEOUT_MS, () => {
    socket.destroy();
    reject(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' }));
  });
}

/** Rejects when `signal` aborts or after {@link SOCKET_TIMEOUT_MS}, whichever comes first. */
async function bounded<T>(
  work: Promise<T>,
  signal: AbortSignal | undefined,
  what: string,
): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const stop = new Promise<never>((_, reject) => {
    timer = later(
      () => reject(Object.assign(new Error(`${what} timed out`), { code: 'ETIMEDOUT' })),
      SOCKET_TIMEOUT_MS,
    );
    onAbort = () => reject(Object.assign(new Error(`${what} aborted`), { code: 'ABORTED' }));
    if (signal?.aborted) onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([work, stop]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
}

/** The system's code of an error (`ECONNREFUSED`, `CERT_HAS_EXPIRED`), or its name. */
export function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^[A-Z0-9_]{2,64}$/.test(code)) return code;
  return error instanceof Error ? error.name : 'error';
}
