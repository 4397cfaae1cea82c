import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../harness/gate-process.js';
import { useGate } from '../harness/use-gate.js';

const { gate } = useGate({ kind: 'in-process' });

const POLICY = /^default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'$/;

describe('GET /app and its bundle under /app/assets/*', () => {
  it('/app is the static shell under a strict same-origin content policy', async () => {
    const res = await gate.http('GET', '/app');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toMatch(POLICY);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    // Its own POSTs carry its real Origin (the session routes refuse `null`); other sites learn nothing.
    expect(res.headers.get('referrer-policy')).toBe('same-origin');
    expect(res.text).toContain('<meta name="referrer" content="same-origin">');
    expect(res.text).toBe(readFileSync(join(ROOT, 'dist', 'app', 'index.html'), 'utf8'));
    // Everything the shell loads is same-origin under /app/assets; nothing inline.
    const loaded = [...res.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(loaded.length).toBeGreaterThan(0);
    // Each asset's name carries its content hash, so a new build is never mixed with a cached old one.
    for (const url of loaded) expect(url).toMatch(/^\/app\/assets\/[a-z]+-[A-Z0-9]{8}\.(js|css|svg)$/);
    expect(res.text).not.toMatch(/<script>|<script [^>]*>[^<]|<style|\son[a-z]+="/);
  });

  it('the bundle is served from the same port with its media type and the same policy', async () => {
    const shell = (await gate.http('GET', '/app')).text;
    const script = /src="\/app\/assets\/([^"]+)"/.exec(shell)![1]!;
    const style = /href="\/app\/assets\/([^"]+\.css)"/.exec(shell)![1]!;
    const icon = /href="\/app\/assets\/([^"]+\.svg)"/.exec(shell)![1]!;
    const js = await gate.http('GET', `/app/assets/${script}`);
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(js.headers.get('content-security-policy')).toMatch(POLICY);
    expect(js.text).toBe(readFileSync(join(ROOT, 'dist', 'app', 'assets', script), 'utf8'));
    const css = await gate.http('GET', `/app/assets/${style}`);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    // The page's icon is one of its assets too, so a browser asks for no /favicon.ico.
    const svg = await gate.http('GET', `/app/assets/${icon}`);
    expect(svg.status).toBe(200);
    expect(svg.headers.get('content-type')).toBe('image/svg+xml');
    expect(svg.headers.get('content-security-policy')).toMatch(POLICY);
  });

  it('anything else under /app/assets is 404, and no path leaves the folder', async () => {
    for (const path of ['/app/assets/none.js', '/app/assets/..%2F..%2Fpackage.json', '/app/assets/%2e%2e', '/app/assets/.hidden.js', '/app/assets/', '/app/assets/a/b.js', '/app/index.html']) {
      const res = await gate.http('GET', path);
      expect(res.status, path).toBe(404);
      expect(res.text, path).not.toContain('"name": "gate"');
    }
  });

  it('GET / still redirects to /app', async () => {
    const res = await gate.http('GET', '/');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/app');
  });
});
