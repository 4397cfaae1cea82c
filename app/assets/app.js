// The console shell: signs a person in with the authorization code flow and PKCE against
// this gate, keeps the access token in memory only (the refresh token is an HttpOnly
// cookie the script never sees), and says who is signed in. The console proper is built
// on top of this.

const $ = (id) => document.getElementById(id);
const redirectUri = `${location.origin}/app`;
let accessToken = null;
let clientId = null;

const base64url = (bytes) => btoa(String.fromCharCode(...new Uint8Array(bytes))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const randomText = () => base64url(crypto.getRandomValues(new Uint8Array(32)));

function say(text, problem = false) {
  const status = $('status');
  status.textContent = text;
  status.className = problem ? 'problem' : '';
}

async function token(fields) {
  const res = await fetch('/oauth/token', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: clientId, ...fields }),
  });
  const body = await res.json();
  if (!res.ok) throw new Error(body.error_description ?? body.error ?? `token endpoint answered ${res.status}`);
  return body;
}

async function rpc(method, params = {}) {
  const res = await fetch('/rpc', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = await res.json();
  if (!res.ok || body.error) throw new Error(body.error?.message ?? body.error ?? `rpc answered ${res.status}`);
  return body.result;
}

async function signIn() {
  const verifier = randomText();
  const state = randomText();
  const challenge = base64url(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
  sessionStorage.setItem('gate.pkce', JSON.stringify({ verifier, state }));
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    state,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    scope: 'openid email profile',
  });
  location.assign(`/oauth/authorize?${query}`);
}

async function signOut() {
  await fetch('/oauth/logout', { method: 'POST', credentials: 'same-origin', headers: { authorization: `Bearer ${accessToken}` } });
  accessToken = null;
  show(null);
}

/** The ID token's claims, for saying who this is: it came straight from the token endpoint, so it is not verified again here. */
function claimsOf(idToken) {
  const payload = idToken.split('.')[1].replace(/-/g, '+').replace(/_/g, '/');
  return JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(payload), (c) => c.charCodeAt(0))));
}

function show(you, claims = {}) {
  $('sign-in').hidden = you !== null;
  $('sign-out').hidden = you === null;
  if (you === null) return say('Not signed in.');
  const who = claims.email ?? claims.name;
  say(`Signed in as ${who === undefined ? you.identity : `${who} (${you.identity})`}, role ${you.role}${you.demo ? ' (demo)' : ''}.`);
}

/** Back from the sign-in page with ?code&state: exchange the code; else resume a session from the cookie. */
async function session() {
  const query = new URLSearchParams(location.search);
  if (query.has('code')) {
    const saved = JSON.parse(sessionStorage.getItem('gate.pkce') ?? 'null');
    sessionStorage.removeItem('gate.pkce');
    history.replaceState(null, '', '/app');
    if (saved === null || saved.state !== query.get('state')) throw new Error('the sign-in answer does not match a sign-in this page started');
    return token({ grant_type: 'authorization_code', code: query.get('code'), code_verifier: saved.verifier, redirect_uri: redirectUri });
  }
  const resumed = await token({ grant_type: 'refresh_token' });
  return resumed.session === false ? null : resumed;
}

async function start() {
  const identity = await (await fetch('/identity')).json();
  $('deployment').textContent = `deployment ${identity.deployment_id}`;
  clientId = identity.auth.client_id;
  if (identity.auth.issuer === null) {
    say('This gate signs nobody in: use an API key on /rpc, or the local socket.');
    return;
  }
  $('sign-in').addEventListener('click', () => signIn().catch((e) => say(e.message, true)));
  $('sign-out').addEventListener('click', () => signOut().catch((e) => say(e.message, true)));
  const tokens = await session();
  if (tokens === null) return show(null);
  accessToken = tokens.access_token;
  show((await rpc('gv.describe')).you, claimsOf(tokens.id_token));
}

start().catch((error) => say(error.message, true));
