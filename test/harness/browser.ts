import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { CHROMIUM, CHROMIUM_MISSING } from './ensure-chromium.mjs';

/** What a browser test holds of its browser: contexts and pages of its own, and their close. */
export type TestBrowser = Pick<Browser, 'newContext' | 'newPage' | 'close'>;

/** The Chromium of this worker process, once a file has asked for one. */
let running: Promise<Browser> | undefined;

function chromiumOfThisProcess(): Promise<Browser> {
  running ??= chromium
    .launch({
      executablePath: CHROMIUM,
      headless: true,
      // No sandbox (tests run as root in CI); nothing of the browser's own reaches the network.
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic', '--no-first-run'],
    })
    .catch((error: unknown) => {
      running = undefined;
      throw error;
    });
  return running;
}

/**
 * Real Chromium for browser tests (Debian's package, driven by playwright-core).
 *
 *   const browser = await launchBrowser();
 *   const page = await browser.newPage();            // a fresh context: no cookies
 *   await page.goto(`${gate.url}/app`);
 *   ...
 *   await browser.close();
 *
 * One Chromium a worker process, launched by the first file that asks and shared by the files
 * after it in that worker (vitest.config.ts, isolate: false): a launch costs about a second of
 * CPU. What a test gets is a browser of its own over it: every context and page it opens is a
 * fresh context (cookies, storage, cache of its own), and its close() closes those, never the
 * shared Chromium, which ends with its worker process. A Chromium that went away is launched
 * again. A missing browser fails the test with the sentence saying how to install it: never a skip.
 */
export async function launchBrowser(): Promise<TestBrowser> {
  if (!existsSync(CHROMIUM)) throw new Error(CHROMIUM_MISSING);
  let shared = await chromiumOfThisProcess();
  if (!shared.isConnected()) {
    running = undefined;
    shared = await chromiumOfThisProcess();
  }
  const contexts = new Set<BrowserContext>();
  const own: TestBrowser = {
    async newContext(options) {
      const context = await shared.newContext(options);
      contexts.add(context);
      context.once('close', () => contexts.delete(context));
      return context;
    },
    async newPage(options) {
      return (await own.newContext(options)).newPage();
    },
    async close() {
      await Promise.all([...contexts].map((context) => context.close()));
    },
  };
  return own;
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
