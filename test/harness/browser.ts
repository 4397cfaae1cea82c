import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM, CHROMIUM_MISSING } from './ensure-chromium.mjs';

/**
 * Real Chromium for browser tests (Debian's package, driven by playwright-core).
 *
 *   const browser = await launchBrowser();
 *   const page = await browser.newPage();            // a fresh context: no cookies
 *   await page.goto(`${gate.url}/app`);
 *   ...
 *   await browser.close();
 *
 * A missing browser fails the test with the sentence saying how to install it: never a skip.
 */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(CHROMIUM_MISSING);
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // No sandbox (tests run as root in CI); nothing of the browser's own reaches the network.
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic', '--no-first-run'],
  });
}

/**
 * Pages of another origin on loopback: an HTTP server on its own port serving the HTML a
 * test puts at a path (whatever the query), so a test can load it in the browser and see what the gate does with
 * the requests such a page makes. It differs from the gate's origin by its port (the same
 * site, another origin). Its port is known before the gate starts, so a test can list it in
 * `auth.app_origins`.
 */
export class ForeignSite {
  private readonly pages = new Map<string, string>();

  private constructor(
    private readonly server: Server,
    readonly origin: string,
  ) {}

  static async start(): Promise<ForeignSite> {
    let site: ForeignSite | undefined;
    const server = createServer((req, res) => {
      const html = site?.pages.get(new URL(req.url ?? '/', 'http://x').pathname);
      res.writeHead(html === undefined ? 404 : 200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(html ?? 'no such page');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    site = new ForeignSite(server, `http://127.0.0.1:${(server.address() as { port: number }).port}`);
    return site;
  }

  /** Serves `html` at `path` and answers its URL. */
  page(path: string, html: string): string {
    this.pages.set(path, html);
    return `${this.origin}${path}`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
