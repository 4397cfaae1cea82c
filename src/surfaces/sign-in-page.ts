import { createHash } from 'node:crypto';
import type { AuthorizeRequest } from '../auth/authorize-request.js';

export const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:22rem;margin:4rem auto;padding:0 1rem;color:#1d1d1f}
h1{font-size:1.3rem}label{display:block;margin:.8rem 0 .2rem}input{width:100%;padding:.45rem;font:inherit;box-sizing:border-box}
button{margin-top:1.2rem;padding:.5rem 1.2rem;font:inherit}.problem{color:#a40000}`;
const STYLE_HASH = `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`;

/**
 * The sign-in page's referrer policy. Under `no-referrer` a browser sends `Origin: null` with
 * the page's own form, which cannot be told from a sandboxed or foreign page's; `same-origin`
 * sends the real origin to this gate only, and neither the origin nor the page's address (its
 * query carries state and the challenge) to any other site, the client's /app included.
 */
export const REFERRER_POLICY = 'same-origin';

/**
 * The sign-in page's content policy: nothing loads but its own inline style (by hash); no
 * script at all; the form posts only to this gate, whose answer redirects to the client.
 */
export function signInPolicy(redirectOrigin: string | null): string {
  const formAction = ["'self'", ...(redirectOrigin === null ? [] : [redirectOrigin])].join(' ');
  return `default-src 'none'; style-src ${STYLE_HASH}; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`;
}

export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="referrer" content="${REFERRER_POLICY}"><title>${escape(title)}</title><style>${STYLE}</style></head>
<body>${body}</body></html>
`;
}

/** The form: email and password only, the request's fields carried hidden, one line for a problem. */
export function signInForm(request: AuthorizeRequest, problem: string | null, email = ''): string {
  const hidden = Object.entries(request)
    .map(([name, value]) => `<input type="hidden" name="${escape(name)}" value="${escape(String(value))}">`)
    .join('\n');
  return page(
    'Sign in to Gate',
    `<main><h1>Sign in to Gate</h1>
${problem === null ? '' : `<p class="problem" role="alert">${escape(problem)}</p>`}
<form method="post" action="/oauth/authorize">
${hidden}
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required value="${escape(email)}">
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form></main>`,
  );
}

/** A request that cannot be served: said on the page, never redirected. */
export function signInRefusal(why: string): string {
  return page('Sign-in request refused', `<main><h1>This sign-in request cannot be served</h1><p class="problem" role="alert">${escape(why)}</p></main>`);
}
