import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';

/**
 * An issuer the test controls, as a company's sign-in provider is to an organization: a real
 * HTTP server on loopback serving its OpenID discovery document and its key set, and access
 * tokens signed with its Ed25519 key carrying what the test says (an `email` and
 * `email_verified`, or none), which no gate's own provider puts in an access token.
 */
export class TokenIssuer {
  url = '';
  private server!: Server;
  private readonly key: KeyObject;
  private readonly jwk: Record<string, unknown>;

  private constructor() {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    this.key = privateKey;
    this.jwk = { ...publicKey.export({ format: 'jwk' }), kid: 'k1', alg: 'EdDSA', use: 'sig' };
  }

  static async start(): Promise<TokenIssuer> {
    const issuer = new TokenIssuer();
    issuer.server = createServer((req, res) => {
      const body =
        req.url === '/.well-known/openid-configuration'
          ? { issuer: issuer.url, jwks_uri: `${issuer.url}/jwks`, authorization_endpoint: `${issuer.url}/authorize`, token_endpoint: `${issuer.url}/token` }
          : req.url === '/jwks'
            ? { keys: [issuer.jwk] }
            : null;
      res.writeHead(body === null ? 404 : 200, { 'content-type': 'application/json' }).end(JSON.stringify(body ?? { error: 'no such path' }));
    });
    await new Promise<void>((resolve) => issuer.server.listen(0, '127.0.0.1', resolve));
    issuer.url = `http://127.0.0.1:${(issuer.server.address() as AddressInfo).port}`;
    return issuer;
  }

  /** An access token for `sub`, meant for `audience` (an organization's [auth].client_id), with the claims given. */
  token(sub: string, claims: Record<string, unknown> = {}, audience = 'gate-console'): Promise<string> {
    return new SignJWT({ sub, ...claims })
      .setProtectedHeader({ alg: 'EdDSA', kid: 'k1', typ: 'at+jwt' })
      .setIssuer(this.url)
      .setAudience(audience)
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(this.key);
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
