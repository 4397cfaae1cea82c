import { AuthorizationCodes } from './authorization-codes.js';
import { LoginThrottle, type Attempt } from './login-throttle.js';
import { DeviceCookies } from './device-cookies.js';
import { publicUrl } from '../config/public-url.js';
import { normalEmail, type PersonCredential } from './people-file.js';
import { verifyAgainstDecoy, verifyPassword } from './password-hash.js';
import { TokenMinter } from './token-minting.js';
import { PersonTokens } from '../credentials/person-tokens.js';
import { TrustedIssuers } from '../credentials/trusted-issuers.js';
import { NATIVE_CLIENT_ID, nativeRedirectAllowed } from './native-client.js';
import { emailPseudonym } from './email-pseudonym.js';
import type { AuthPart } from './auth-part.js';
import type { Deployment } from '../journal/deployment.js';
import type { GateConfig } from '../config/keys.js';
import type { Log } from '../log.js';
import type { Clock } from '../clock.js';

export const TOKEN_EXCHANGE_GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';
export const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token';
export const SCOPES = ['openid', 'email', 'profile'] as const;

export type SignInOutcome =
  /** `device`: the device cookie's value to set, renewed or new. */
  | { kind: 'signed_in'; person: PersonCredential; device: string }
  | { kind: 'wrong' }
  | { kind: 'throttled'; retryAfterS: number };

/** The names a browser on this host reaches the gate's loopback port by. */
const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

const stripSlash = (url: string) => url.replace(/\/+$/, '');

/**
 * The gate as its own sign-in provider (`[auth].issuer`): what the oauth routes share.
 * Its state is small: codes and the throttle in memory, sessions in the journal, people
 * in the people file.
 */
export class SignInProvider {
  readonly issuer: string;
  readonly clientId: string;
  readonly minter: TokenMinter;
  readonly codes: AuthorizationCodes;
  readonly throttle: LoginThrottle;
  readonly devices: DeviceCookies;
  /** Verifies this provider's own access tokens only (token exchange's subject, logout's bearer). */
  readonly ownTokens: PersonTokens;
  /** The exact answer origin of token exchange, or null when exchange is off. */
  readonly answerOrigin: string | null;
  private readonly base: string;

  constructor(
    readonly house: { readonly auth: AuthPart; readonly deployment: Deployment; readonly config: GateConfig; readonly clock: Clock; readonly log: Log },
    issuer: string,
  ) {
    const auth = house.config.auth;
    this.issuer = issuer;
    this.base = stripSlash(issuer);
    this.clientId = auth.client_id;
    this.minter = new TokenMinter(house.deployment.key, issuer, auth.client_id, house.clock);
    this.codes = new AuthorizationCodes(house.clock);
    this.throttle = new LoginThrottle(
      {
        slowAfter: auth.login_slow_after,
        refuseAfter: auth.login_refuse_after,
        windowMs: auth.login_window_s * 1000,
        delayMs: auth.login_delay_ms,
      },
      house.clock,
    );
    this.devices = new DeviceCookies(house.deployment.key.seed(), house.clock);
    this.ownTokens = new PersonTokens({ issuer, publicKey: house.deployment.key.publicKey }, new TrustedIssuers([]), auth.client_id, house.clock);
    this.answerOrigin = auth.answer_origin === '' ? null : stripSlash(auth.answer_origin);
  }

  endpoint(path: string): string {
    return `${this.base}${path}`;
  }

  /** The clients this provider serves: the console (`auth.client_id`) and the command line. */
  knowsClient(clientId: string): boolean {
    return clientId === this.clientId || clientId === NATIVE_CLIENT_ID;
  }

  /**
   * Each client has its own redirects, never the other's: the console this service's /app
   * (at one of its own origins) or a listed console origin's /app; the command line a
   * loopback IP literal at any port (native-client.ts).
   */
  redirectAllowed(clientId: string, uri: string): boolean {
    if (clientId === NATIVE_CLIENT_ID && clientId !== this.clientId) return nativeRedirectAllowed(uri);
    return this.consoleOrigins().some((origin) => uri === `${origin}/app`);
  }

  /** Where a console may run: the gate's own origins and the listed app origins. */
  consoleOrigins(): string[] {
    return [...this.ownOrigins(), ...this.house.config.auth.app_origins.map((o) => new URL(o).origin)];
  }

  /**
   * The gate's own origins: its issuer's (its public URL's), and where it listens under each
   * loopback name a browser may have been given (`localhost:8480` is the same gate as
   * `127.0.0.1:8480`, but another origin to the browser). Its console runs there and its
   * sign-in form is posted from there. The loopback ones only for a client on this host
   * (`loopbackClient`): from a client behind a proxy, a loopback origin is its own machine.
   */
  ownOrigins(loopbackClient = true): string[] {
    const origins = [new URL(this.issuer).origin];
    const url = publicUrl(this.house.config);
    if (url !== null) origins.push(new URL(url).origin);
    const listening = this.house.deployment.endpoints.http;
    if (listening !== undefined && loopbackClient) {
      const port = new URL(listening).port;
      for (const name of LOOPBACK_NAMES) origins.push(new URL(`http://${name}:${port}`).origin);
    }
    return [...new Set(origins)];
  }

  /**
   * Checks an email and password under the throttle. An unknown email costs the same
   * scrypt work and gives the same outcome as a wrong password.
   */
  async signIn(emailTyped: string, password: string, client: string, deviceCookie?: string): Promise<SignInOutcome> {
    const email = normalEmail(emailTyped);
    const person = this.house.auth.people.localByEmail(email);
    // The cookie counts only for the person it was issued to: for another email it is no device of theirs.
    const known = this.devices.read(deviceCookie);
    const device = known !== null && person !== undefined && known.sub === person.sub ? known.device : undefined;
    const attempt: Attempt = { email, client, device };
    const verdict = this.throttle.check(attempt);
    const log = this.house.log;
    const said = { email: emailPseudonym(this.house.deployment.key.seed(), email), client, known_device: device !== undefined };
    if (verdict.refused) {
      log.warn('sign-in refused: throttled', { ...said, retry_after_s: verdict.retryAfterS });
      return { kind: 'throttled', retryAfterS: verdict.retryAfterS };
    }
    if (verdict.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, verdict.delayMs));
    const right = person === undefined ? await verifyAgainstDecoy(password) : await verifyPassword(password, person.password);
    if (!right || person === undefined) {
      this.throttle.failed(attempt);
      // An unknown email and a wrong password are one outcome here as on the form.
      log.info('sign-in failed: wrong email or password', { ...said, delayed_ms: verdict.delayMs });
      return { kind: 'wrong' };
    }
    this.throttle.succeeded(attempt);
    log.info('signed in', { identity: `${person.iss}|${person.sub}`, client, known_device: device !== undefined });
    return { kind: 'signed_in', person, device: this.devices.issue(person.sub, device) };
  }

  /** Whether cookies set for this request carry Secure: the public URL is https, or a trusted proxy says the client used https. */
  secureCookies(clientProtocol: 'http' | 'https'): boolean {
    return (publicUrl(this.house.config) ?? this.issuer).startsWith('https:') || clientProtocol === 'https';
  }

  discovery() {
    const grants = ['authorization_code', 'refresh_token', ...(this.answerOrigin === null ? [] : [TOKEN_EXCHANGE_GRANT])];
    return {
      issuer: this.issuer,
      authorization_endpoint: this.endpoint('/oauth/authorize'),
      token_endpoint: this.endpoint('/oauth/token'),
      revocation_endpoint: this.endpoint('/oauth/logout'),
      end_session_endpoint: this.endpoint('/oauth/logout'),
      jwks_uri: this.endpoint('/oauth/jwks'),
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: grants,
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['EdDSA'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
      revocation_endpoint_auth_methods_supported: ['none'],
      scopes_supported: [...SCOPES],
      claims_supported: ['iss', 'sub', 'aud', 'exp', 'iat', 'auth_time', 'nonce', 'sid', 'azp', 'email', 'email_verified', 'name'],
    };
  }

  /** The key that signs tokens now: the deployment key, or after `gate key rotate` the new one (a token of the old key is refused). */
  jwks() {
    const current = this.house.deployment.key.deploymentId;
    return { keys: [{ kty: 'OKP', crv: 'Ed25519', x: current, kid: current, alg: 'EdDSA', use: 'sig' }] };
  }
}
