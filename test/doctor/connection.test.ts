/**
 * The connection check against real TLS servers on 127.0.0.1, with certificates made by openssl:
 * self-signed, expired, issued by an unknown authority. Each is named, with NODE_EXTRA_CA_CERTS
 * suggested where it applies; DNS names the host that does not resolve.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:tls';
import { Client } from '@employee-recognition/sdk';
import { diagnose } from '@employee-recognition/sdk/doctor';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

let dir: string;
const servers: Server[] = [];

function openssl(...args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'doctor-tls-'));
  const subject = ['-subj', '/CN=127.0.0.1'];
  // Self-signed, valid today.
  openssl(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'self.key',
    '-out',
    'self.pem',
    '-days',
    '2',
    ...subject,
    '-addext',
    'subjectAltName=IP:127.0.0.1',
  );
  // Expired yesterday.
  openssl(
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'old.key',
    '-out',
    'old.csr',
    ...subject,
  );
  openssl(
    'x509',
    '-req',
    '-in',
    'old.csr',
    '-signkey',
    'old.key',
    '-out',
    'old.pem',
    '-days',
    '-1',
  );
  // Issued by an authority no trust store has.
  openssl(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '2',
    '-subj',
    '/CN=Doctor Test CA',
  );
  openssl(
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'leaf.key',
    '-out',
    'leaf.csr',
    ...subject,
  );
  openssl(
    'x509',
    '-req',
    '-in',
    'leaf.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'leaf.pem',
    '-days',
    '2',
  );
});
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))),
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function serve(name: string): Promise<string> {
  const server = createServer(
    { key: readFileSync(join(dir, `${name}.key`)), cert: readFileSync(join(dir, `${name}.pem`)) },
    (socket) => socket.end(),
  );
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function connection(baseUrl: string) {
  const key = `rk_test_${'t'.repeat(24)}`;
  const report = await diagnose(new Client({ apiKey: key, baseUrl, logLevel: 'off' }), {
    credential: key,
    env: {},
  });
  expect(report.ok).toBe(false);
  expect(report.checks[2]).toMatchObject({ id: 'credential', status: 'skip' });
  return report.checks.find((check) => check.id === 'connection')!;
}

describe('the connection check names the certificate problem', () => {
  it('self-signed: NODE_EXTRA_CA_CERTS suggested', async () => {
    const check = await connection(await serve('self'));
    expect(check).toMatchObject({
      status: 'fail',
      details: { certificate: 'self-signed', certificateError: 'DEPTH_ZERO_SELF_SIGNED_CERT' },
    });
    expect(check.summary).toBe("TLS: 127.0.0.1's certificate is self-signed");
    expect(check.fix).toContain('NODE_EXTRA_CA_CERTS');
  });

  it('expired: named, and no CA file suggested', async () => {
    const check = await connection(await serve('old'));
    expect(check).toMatchObject({ status: 'fail', details: { certificate: 'expired' } });
    expect(check.summary).toBe("TLS: 127.0.0.1's certificate is expired");
    expect(check.fix).not.toContain('NODE_EXTRA_CA_CERTS');
  });

  it('an unknown certificate authority: NODE_EXTRA_CA_CERTS suggested', async () => {
    const check = await connection(await serve('leaf'));
    expect(check).toMatchObject({ status: 'fail', details: { certificate: 'unknown-ca' } });
    expect(check.summary).toContain('issued by an unknown certificate authority');
    expect(check.fix).toContain('NODE_EXTRA_CA_CERTS');
  });

  it('a host that does not resolve: DNS is the layer named', async () => {
    const check = await connection('https://doctor-test.invalid');
    expect(check.status).toBe('fail');
    expect(check.summary).toMatch(/^DNS: doctor-test\.invalid does not resolve/);
  });
});
