/**
 * A real OAuth 2.0 authorization server no one here wrote (oauth2-mock-server), on 127.0.0.1 at a
 * free port, serving the contract's paths: RFC 8414 metadata and `/oauth/token`.
 */
import { randomUUID } from 'node:crypto';
import { OAuth2Server } from 'oauth2-mock-server';
import { OAUTH_METADATA_PATH, OAUTH_TOKEN_PATH } from '../../src/contract.js';

/** One request the token endpoint received. */
interface TokenRequest {
  /** The `Authorization` header, if any. */
  authorization: string | undefined;
  /** The form body, parsed. */
  body: Record<string, string>;
}

/** What a test may change about the next answers of the token endpoint. */
interface TokenAnswer {
  statusCode: number;
  body: Record<string, unknown> | string;
}

export interface OAuthTestServer {
  /** The issuer, such as `http://127.0.0.1:41234`. */
  issuer: string;
  /** The token endpoint. */
  tokenUrl: string;
  /** Every token request so far, oldest first. */
  tokenRequests: TokenRequest[];
  /** Lets a test shape every following answer of the token endpoint (`beforeResponse`). */
  shape(change: (answer: TokenAnswer, request: TokenRequest) => void): void;
  server: OAuth2Server;
  close(): Promise<void>;
}

/**
 * The RSA key every server of a test process signs with: generating one takes one to three
 * seconds on a loaded machine, and the tests start a server each. The SDK never verifies a token's
 * signature (it is opaque to a client), so sharing the key changes nothing they check.
 */
let signingKey: Promise<Record<string, unknown>> | undefined;

export async function startOAuthServer(): Promise<OAuthTestServer> {
  const server = new OAuth2Server(undefined, undefined, {
    endpoints: { wellKnownDocument: OAUTH_METADATA_PATH, token: OAUTH_TOKEN_PATH },
  });
  signingKey ??= (async () => {
    const { keys } = new OAuth2Server().issuer;
    await keys.generate('RS256');
    return keys.toJSON(true)[0] as unknown as Record<string, unknown>;
  })();
  await server.issuer.keys.add(await signingKey);
  await server.start(0, '127.0.0.1');
  const issuer = `http://127.0.0.1:${server.address().port}`;
  server.issuer.url = issuer;
  const tokenRequests: TokenRequest[] = [];
  let shapers: ((answer: TokenAnswer, request: TokenRequest) => void)[] = [];
  // Each token unique, as a real server's are: under a frozen clock two would otherwise be equal.
  server.service.on('beforeTokenSigning', (token) => {
    token.payload.jti = randomUUID();
  });
  server.service.on('beforeResponse', (answer: TokenAnswer, incoming) => {
    const request = {
      authorization: incoming.headers.authorization,
      body: { ...(incoming.body as Record<string, string>) },
    };
    tokenRequests.push(request);
    for (const shape of shapers) shape(answer, request);
  });
  return {
    issuer,
    tokenUrl: `${issuer}${OAUTH_TOKEN_PATH}`,
    tokenRequests,
    shape: (change) => void shapers.push(change),
    server,
    async close() {
      shapers = [];
      await server.stop();
    },
  };
}

/** The client id and secret a `client_secret_basic` header carries (RFC 6749 §2.3.1). */
export function basicCredentials(authorization: string | undefined): [string, string] {
  const encoded = /^Basic (.+)$/.exec(authorization ?? '')?.[1] ?? '';
  const [id = '', secret = ''] = atob(encoded).split(':');
  const decode = (value: string) => decodeURIComponent(value.replace(/\+/g, ' '));
  return [decode(id), decode(secret)];
}
