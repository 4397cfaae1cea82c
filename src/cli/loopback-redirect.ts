import { createServer, type Server } from 'node:http';
import { NATIVE_REDIRECT_PATH } from '../auth/native-client.js';

const PAGE = (line: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Gate</title></head><body><p>${line}</p></body></html>\n`;
const HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'",
  'referrer-policy': 'no-referrer',
};

/**
 * The command line's end of a sign-in (RFC 8252 7.3): a listener on 127.0.0.1 at a port
 * the system picks, where the browser is sent back with `code` and `state`. Only a request
 * carrying this sign-in's state is taken: another page on the host may knock on the port,
 * and is told no without ending the wait. The page the browser lands on says what the
 * command that signed in does next (`next`: `gate sign` reads and signs, `gate org sign-in`
 * says who the organization takes the person for), never another command's step.
 */
export class LoopbackRedirect {
  private constructor(
    private readonly server: Server,
    readonly redirectUri: string,
    private readonly arrived: Promise<string>,
  ) {}

  static async listen(state: string, next: string): Promise<LoopbackRedirect> {
    let settle!: { resolve: (code: string) => void; reject: (error: Error) => void };
    const arrived = new Promise<string>((resolve, reject) => (settle = { resolve, reject }));
    // Nobody waits on it in a scripted sign-in, and an outcome nobody awaits must not end the process.
    arrived.catch(() => undefined);
    const server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (req.method !== 'GET' || url.pathname !== NATIVE_REDIRECT_PATH || url.searchParams.get('state') !== state) {
        res.writeHead(404, HEADERS).end(PAGE('Nothing here.'));
        return;
      }
      const code = url.searchParams.get('code');
      if (code === null) {
        const why = url.searchParams.get('error') ?? 'no code came back';
        res.writeHead(400, HEADERS).end(PAGE('The sign-in did not finish. Go back to the terminal.'));
        settle.reject(new Error(`the sign-in did not finish: ${why}`));
        return;
      }
      res.writeHead(200, HEADERS).end(PAGE(`Signed in. ${next}`));
      settle.resolve(code);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', resolve);
    });
    const { port } = server.address() as { port: number };
    return new LoopbackRedirect(server, `http://127.0.0.1:${port}${NATIVE_REDIRECT_PATH}`, arrived);
  }

  /** The code, once the browser comes back with it; refused after `timeoutMs`. */
  code(timeoutMs: number): Promise<string> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`nobody signed in within ${Math.round(timeoutMs / 1000)} s`)), timeoutMs);
    });
    return Promise.race([this.arrived, late]).finally(() => clearTimeout(timer));
  }

  /**
   * The code from a redirect the command line received itself (a scripted sign-in posts
   * the form and reads the 303): taken only when it names this listener and this state.
   */
  codeFromLocation(location: string, state: string): string {
    const url = new URL(location);
    const code = url.searchParams.get('code');
    if (`${url.origin}${url.pathname}` !== this.redirectUri || url.searchParams.get('state') !== state || code === null) {
      throw new Error('the sign-in answered a redirect that is not to this command');
    }
    return code;
  }

  close(): void {
    this.server.closeAllConnections();
    this.server.close();
  }
}
