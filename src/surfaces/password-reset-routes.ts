import type { ServerResponse } from 'node:http';
import type { SignInProvider } from '../auth/sign-in-provider.js';
import { personOfResetToken, setPassword } from '../auth/password-set.js';
import type { House } from '../verbs/house.js';
import { sendHtml } from '../http-rpc/http-replies.js';
import { readForm } from './form-body.js';
import { errorBody, jsonContent, type Route } from './route.js';
import { foreignFormPost } from './request-origin.js';
import type { ClientAddresses } from './client-address.js';
import { REFERRER_POLICY, escape, page, signInPolicy } from './sign-in-page.js';

const FORM_LIMIT = 16 * 1024;
const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };
const SPENT = 'This link is used, expired, or not one this gate gave. Ask the operator for a new one (gate people reset EMAIL --link).';
const html = (description: string) => ({ description, content: { 'text/html': { schema: { type: 'string' } } } });
const notIssuer = { description: 'this gate is not a sign-in provider', content: jsonContent(errorBody) };

function send(res: ServerResponse, status: number, text: string): void {
  sendHtml(res, status, text, { 'content-security-policy': signInPolicy(null), 'x-frame-options': 'DENY', 'referrer-policy': REFERRER_POLICY, ...NO_STORE });
}

/** The form of a reset link: the new password twice, the token carried hidden, one line for a problem. */
function resetForm(token: string, email: string, problem: string | null): string {
  return page(
    'Set your password',
    `<main><h1>Set your password</h1><p>For ${escape(email)} at this gate.</p>
${problem === null ? '' : `<p class="problem" role="alert">${escape(problem)}</p>`}
<form method="post" action="/oauth/reset">
<input type="hidden" name="token" value="${escape(token)}">
<label for="password">New password</label><input id="password" name="password" type="password" autocomplete="new-password" minlength="8" required>
<label for="again">The same password again</label><input id="again" name="again" type="password" autocomplete="new-password" minlength="8" required>
<button type="submit">Set password</button>
</form></main>`,
  );
}

const said = (title: string, line: string, problem = false) =>
  page(title, `<main><h1>${escape(title)}</h1><p${problem ? ' class="problem" role="alert"' : ''}>${line}</p></main>`);

/**
 * A one-time reset link's page (`gate people reset EMAIL --link`): GET shows the form while the
 * link is unused and unexpired, POST sets the password (journaled person-password-set, how
 * `link`, by the person; every sign-in session of theirs ended) and spends the link. The form
 * may come only from this page, as the sign-in form (request-origin.ts). The token travels in
 * the query, which the request log never writes (it logs the route's template).
 */
export function passwordResetRoutes(house: House, provider: () => SignInProvider, clients: ClientAddresses): Route[] {
  return [
    {
      method: 'GET',
      path: '/oauth/reset',
      guard: 'local_issuer',
      summary: "A one-time password reset link's page: the new password, asked twice.",
      doc: () => ({
        parameters: [{ name: 'token', in: 'query', required: true, schema: { type: 'string' } }],
        responses: { 200: html('the form'), 400: html('a link used, expired or unknown, said on the page'), 404: notIssuer },
      }),
      handler: ({ res, url }) => {
        const token = url.searchParams.get('token') ?? '';
        const person = personOfResetToken(house, token);
        if (person === undefined) return send(res, 400, said('This link cannot be used', escape(SPENT), true));
        send(res, 200, resetForm(token, person.email, null));
      },
    },
    {
      method: 'POST',
      path: '/oauth/reset',
      guard: 'local_issuer',
      summary: 'Sets the password a reset link is for (token, password, again); the link is spent.',
      doc: () => ({
        requestBody: {
          required: true,
          content: {
            'application/x-www-form-urlencoded': {
              schema: { type: 'object', properties: { token: { type: 'string' }, password: { type: 'string' }, again: { type: 'string' } }, required: ['token', 'password', 'again'] },
            },
          },
        },
        responses: { 200: html('set, or the form again with what is wrong'), 400: html('a link used, expired or unknown, or a form from another page'), 404: notIssuer },
      }),
      handler: async ({ req, res }) => {
        const foreign = foreignFormPost(req.headers, provider().ownOrigins(clients.of(req).loopback));
        if (foreign !== null) return send(res, 400, said('Refused', escape(`the form was posted from another site: ${foreign}`), true));
        const form = await readForm(req, FORM_LIMIT);
        if (!(form instanceof Map)) return send(res, 400, said('Refused', 'the form did not arrive whole', true));
        const token = form.get('token') ?? '';
        const person = personOfResetToken(house, token);
        if (person === undefined) return send(res, 400, said('This link cannot be used', escape(SPENT), true));
        const password = form.get('password') ?? '';
        if (password !== (form.get('again') ?? '')) return send(res, 200, resetForm(token, person.email, 'The two passwords differ.'));
        if (password.length < 8 || password.length > 1024) return send(res, 200, resetForm(token, person.email, 'A password has 8 to 1024 characters.'));
        await setPassword(house, { iss: person.iss, sub: person.sub }, password, 'link', `${person.iss}|${person.sub}`);
        send(res, 200, said('Your password is set', 'Sign in with it: <a href="/app">the console</a>.'));
      },
    },
  ];
}
