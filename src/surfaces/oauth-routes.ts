import type { ServerResponse } from 'node:http';
import { parseAuthorizeRequest, type AuthorizeRequest } from '../auth/authorize-request.js';
import type { SignInProvider } from '../auth/sign-in-provider.js';
import { REFRESH_COOKIE, clearRefreshCookie, tokenGrant } from '../auth/token-grants.js';
import { cookiesOf, sendHtml, sendJson } from '../http-rpc/http-replies.js';
import { readForm } from './form-body.js';
import { DEVICE_COOKIE } from '../auth/device-cookies.js';
import type { ClientAddresses } from './client-address.js';
import { errorBody, jsonContent, type Route } from './route.js';
import { foreignFormPost, foreignSessionCaller } from './request-origin.js';
import { REFERRER_POLICY, signInForm, signInPolicy, signInRefusal } from './sign-in-page.js';

const FORM_LIMIT = 64 * 1024;
const WRONG = 'The email or password is not right.';
const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };
/** Why /oauth/logout refuses a body it cannot read whole. */
const LOGOUT_BODY_REFUSED = {
  repeated: 'a field is given more than once',
  malformed: 'the body is not one JSON object read strictly (UTF-8, no repeated key, at most 64 levels deep)',
  too_large: 'the body is larger than a sign-out needs',
} as const;
const formBody = (properties: Record<string, unknown>, required: string[]) => ({
  required: true,
  content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', properties, required } } },
});
const str = { type: 'string' };
const AUTHORIZE_PARAMS = {
  response_type: { type: 'string', enum: ['code'] },
  client_id: str,
  redirect_uri: { type: 'string', format: 'uri' },
  state: str,
  code_challenge: str,
  code_challenge_method: { type: 'string', enum: ['S256'] },
  scope: str,
  nonce: str,
};
const AUTHORIZE_REQUIRED = ['response_type', 'client_id', 'redirect_uri', 'state', 'code_challenge', 'code_challenge_method'];
const html = (description: string) => ({ description, content: { 'text/html': { schema: { type: 'string' } } } });
const notIssuer = { description: 'this gate is not a sign-in provider', content: jsonContent(errorBody) };
const tokenError = {
  type: 'object',
  properties: { error: { type: 'string', enum: ['invalid_request', 'invalid_grant', 'unsupported_grant_type', 'invalid_target'] }, error_description: str },
  required: ['error'],
};

function refusePage(res: ServerResponse, status: number, why: string): void {
  sendHtml(res, status, signInRefusal(why), { 'content-security-policy': signInPolicy(null), 'x-frame-options': 'DENY', 'referrer-policy': REFERRER_POLICY, ...NO_STORE });
}

function formPage(res: ServerResponse, status: number, request: AuthorizeRequest, problem: string | null, email = '', extra: Record<string, string> = {}): void {
  sendHtml(res, status, signInForm(request, problem, email), {
    'content-security-policy': signInPolicy(new URL(request.redirect_uri).origin),
    'x-frame-options': 'DENY',
    'referrer-policy': REFERRER_POLICY,
    ...NO_STORE,
    ...extra,
  });
}

/** The sign-in provider's routes (docs/protocol.md#the-sign-in-provider), all guarded `local_issuer`. */
export function oauthRoutes(provider: () => SignInProvider, clients: ClientAddresses): Route[] {
  return [
    {
      method: 'GET',
      path: '/.well-known/openid-configuration',
      guard: 'local_issuer',
      summary: 'OpenID Connect discovery document of this gate as sign-in provider.',
      doc: () => ({ responses: { 200: { description: 'discovery document', content: jsonContent({ type: 'object' }) }, 404: notIssuer } }),
      handler: ({ res }) => sendJson(res, 200, provider().discovery(), { 'cache-control': 'max-age=300' }),
    },
    {
      method: 'GET',
      path: '/oauth/jwks',
      guard: 'local_issuer',
      summary: 'The signing key: one OKP Ed25519 JWK whose kid is the deployment id.',
      doc: () => ({ responses: { 200: { description: 'the key set', content: jsonContent({ type: 'object', properties: { keys: { type: 'array' } } }) }, 404: notIssuer } }),
      handler: ({ res }) => sendJson(res, 200, provider().jwks(), { 'cache-control': 'max-age=300' }),
    },
    {
      method: 'GET',
      path: '/oauth/authorize',
      guard: 'local_issuer',
      summary: 'The sign-in page: email and password, no third-party script.',
      doc: () => ({
        parameters: Object.entries(AUTHORIZE_PARAMS).map(([name, schema]) => ({ name, in: 'query', required: AUTHORIZE_REQUIRED.includes(name), schema })),
        responses: { 200: html('the sign-in page'), 400: html('a malformed request, said on the page, never redirected'), 404: notIssuer },
      }),
      handler: ({ res, url }) => {
        const q = url.searchParams;
        const parsed = parseAuthorizeRequest((n) => q.get(n) ?? undefined, (n) => q.getAll(n).length > 1, provider());
        if (!parsed.ok) return refusePage(res, 400, parsed.why);
        formPage(res, 200, parsed.request, null);
      },
    },
    {
      method: 'POST',
      path: '/oauth/authorize',
      guard: 'local_issuer',
      summary: 'Signs in with email and password; 303 to redirect_uri with code and state.',
      doc: () => ({
        requestBody: formBody({ ...AUTHORIZE_PARAMS, email: str, password: str }, [...AUTHORIZE_REQUIRED, 'email', 'password']),
        responses: {
          303: { description: 'signed in: Location <redirect_uri>?code=...&state=...; Set-Cookie gate_device (this browser is known: others\' failures never throttle it)' },
          200: html('the page again with one line: a wrong password or an unknown email alike'),
          400: html('a malformed request, or a form posted from a page other than this gate'),
          429: html('too many wrong passwords; Retry-After says when to try again'),
          404: notIssuer,
        },
      }),
      handler: async ({ req, res }) => {
        const p = provider();
        const client = clients.of(req);
        const foreign = foreignFormPost(req.headers, p.ownOrigins(client.loopback));
        if (foreign !== null) return refusePage(res, 400, `the sign-in form was posted from another site: ${foreign}`);
        const form = await readForm(req, FORM_LIMIT);
        if (!(form instanceof Map)) return refusePage(res, 400, 'the sign-in form did not arrive whole');
        const parsed = parseAuthorizeRequest((n) => form.get(n), () => false, p);
        if (!parsed.ok) return refusePage(res, 400, parsed.why);
        const email = form.get('email') ?? '';
        const password = form.get('password') ?? '';
        if (email === '' || password === '') return formPage(res, 400, parsed.request, 'Both email and password are needed.', email);
        const outcome = await p.signIn(email, password, client.address, cookiesOf(req).get(DEVICE_COOKIE));
        if (outcome.kind === 'throttled') {
          return formPage(res, 429, parsed.request, `Too many attempts. Try again in ${outcome.retryAfterS} seconds.`, email, {
            'retry-after': String(outcome.retryAfterS),
          });
        }
        if (outcome.kind === 'wrong') return formPage(res, 200, parsed.request, WRONG, email);
        const r = parsed.request;
        const code = p.codes.issue({
          clientId: r.client_id,
          redirectUri: r.redirect_uri,
          challenge: r.code_challenge,
          sub: outcome.person.sub,
          scope: r.scope,
          ...(r.nonce === undefined ? {} : { nonce: r.nonce }),
          authTime: p.house.clock.now(),
        });
        const location = new URL(r.redirect_uri);
        location.searchParams.set('code', code);
        location.searchParams.set('state', r.state);
        res.writeHead(303, { location: location.href, 'content-length': 0, ...NO_STORE, 'set-cookie': p.devices.header(outcome.device, p.secureCookies(client.protocol)) });
        res.end();
      },
    },
    {
      method: 'POST',
      path: '/oauth/token',
      guard: 'local_issuer',
      cors: 'credentials',
      summary: 'Tokens: authorization_code with PKCE, refresh_token (rotated; field or gate_refresh cookie), token exchange.',
      doc: () => ({
        requestBody: formBody(
          {
            grant_type: { type: 'string', enum: ['authorization_code', 'refresh_token', 'urn:ietf:params:oauth:grant-type:token-exchange'] },
            code: str,
            code_verifier: str,
            client_id: str,
            redirect_uri: str,
            refresh_token: str,
            subject_token: str,
            subject_token_type: str,
            requested_token_type: str,
            resource: str,
          },
          ['grant_type'],
        ),
        responses: {
          200: { description: 'a token set (the refresh token in the gate_refresh cookie), {session: false}, or an answer ticket', content: jsonContent({ type: 'object' }) },
          400: { description: 'RFC 6749 error', content: jsonContent(tokenError) },
          404: notIssuer,
          503: { description: 'server_error', content: jsonContent(tokenError) },
        },
      }),
      handler: async ({ req, res }) => {
        const p = provider();
        const foreign = foreignSessionCaller(req.headers, p.consoleOrigins());
        if (foreign !== null) return sendJson(res, 400, { error: 'invalid_request', error_description: foreign }, NO_STORE);
        const form = await readForm(req, FORM_LIMIT);
        if (!(form instanceof Map)) {
          const why = form === 'repeated' ? 'a field is given more than once' : 'the body must be form-encoded (application/x-www-form-urlencoded)';
          return sendJson(res, 400, { error: 'invalid_request', error_description: why }, NO_STORE);
        }
        const answer = await tokenGrant(p, form, cookiesOf(req).get(REFRESH_COOKIE));
        sendJson(res, answer.status, answer.body, { ...NO_STORE, ...(answer.cookies.length > 0 ? { 'set-cookie': answer.cookies } : {}) });
      },
    },
    {
      method: 'POST',
      path: '/oauth/logout',
      guard: 'local_issuer',
      summary: 'Signs out: forgets the named refresh token (or the session of the bearer access token) and clears the cookie.',
      doc: () => ({
        requestBody: {
          content: {
            'application/x-www-form-urlencoded': { schema: { type: 'object', properties: { refresh_token: str, token: str } } },
            'application/json': { schema: { type: 'object', properties: { refresh_token: str } } },
          },
        },
        responses: {
          200: { description: 'signed out', content: jsonContent({ type: 'object', properties: { signed_out: { const: true }, forgotten: { type: 'boolean' } }, required: ['signed_out', 'forgotten'] }) },
          400: {
            description: 'invalid_request: a browser page of an origin that is neither this gate nor a listed app origin, a field given twice, or JSON that is not one object read strictly',
            content: jsonContent(tokenError),
          },
          404: notIssuer,
        },
      }),
      handler: async ({ req, res }) => {
        const p = provider();
        const foreign = foreignSessionCaller(req.headers, p.consoleOrigins());
        if (foreign !== null) return sendJson(res, 400, { error: 'invalid_request', error_description: foreign }, NO_STORE);
        const form = await readForm(req, FORM_LIMIT, { json: true });
        // A body it cannot read whole is refused, as the token door refuses one: nothing is forgotten on a guess.
        if (form === 'repeated' || form === 'malformed' || form === 'too_large') {
          return sendJson(res, 400, { error: 'invalid_request', error_description: LOGOUT_BODY_REFUSED[form] }, NO_STORE);
        }
        // No body, or one of another type: nothing named, so only the bearer's session is ended.
        const fields = form ?? new Map<string, string>();
        // RFC 7009 clients name it `token`; the console names it refresh_token.
        const named = fields.get('refresh_token') ?? fields.get('token');
        let forgotten = named !== undefined && named !== '' ? await p.house.auth.signinSessions.endByToken(named, 'logout') : false;
        const bearer = /^Bearer (\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
        if (!forgotten && bearer !== undefined) {
          const sid = await p.ownTokens.verify(bearer).then((v) => v.claims['sid'], () => undefined);
          if (typeof sid === 'string') forgotten = await p.house.auth.signinSessions.end(sid, 'logout');
        }
        sendJson(res, 200, { signed_out: true, forgotten }, { ...NO_STORE, 'set-cookie': [clearRefreshCookie(p)] });
      },
    },
  ];
}
