import { randomBytes } from 'node:crypto';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { GateClient } from '@gate/client';
import { resolveHome } from '../config/home.js';
import { isNameSegment } from '../domain/names.js';
import { LocalStore } from '../plugin/local-store.js';
import { PluginTier } from '../plugin/plugin-tier.js';
import { toolServer } from '../surfaces/mcp-tool-server.js';

export interface PluginOptions {
  store?: string;
  session?: string;
  home?: string;
  url?: string;
  keyEnv?: string;
  forwardEvery: number;
}

/** A session name is one work-area segment; unnamed sessions get a fresh one. */
function sessionName(given: string | undefined): string {
  const name = given ?? process.env['GATE_PLUGIN_SESSION'] ?? `s${new Date().toISOString().replace(/\D/g, '').slice(0, 14)}-${randomBytes(3).toString('hex')}`;
  if (!isNameSegment(name)) throw new Error(`--session must be one work-area segment (1-64 of A-Z a-z 0-9 . _ -), not ${JSON.stringify(name)}`);
  return name;
}

function gateLink(o: PluginOptions): GateClient {
  // The plugin writes (knowledge scope) and never decides; a short deadline keeps tools quick while no gate runs.
  if (o.url !== undefined) {
    const bearer = o.keyEnv ? process.env[o.keyEnv] : undefined;
    return new GateClient({ transport: 'rpc', baseUrl: o.url, ...(bearer ? { bearer } : {}), allowPlainHttpLoopback: true, scope: 'knowledge', deadlineMs: 5_000 });
  }
  return new GateClient({ transport: 'socket', socketPath: resolveHome(o.home).socket, scope: 'knowledge', deadlineMs: 5_000 });
}

/**
 * `gate plugin`: the plugin tier's MCP server over stdio, launched by an agent harness.
 * Stdout is the protocol; anything said to a person goes to stderr.
 */
export async function pluginCommand(o: PluginOptions): Promise<void> {
  const session = sessionName(o.session);
  const store = new LocalStore(resolve(o.store ?? process.env['GATE_PLUGIN_HOME'] ?? join(homedir(), '.local', 'share', 'gate-plugin')));
  const tier = new PluginTier(store, gateLink(o), session, () => Date.now());
  const handle = serveStdio(() => toolServer('plugin', (name, args) => tier.call(name, args)), {
    legacy: 'serve',
    onerror: (error) => process.stderr.write(`gate plugin: ${error.message}\n`),
  });
  process.stderr.write(`gate plugin: session ${session}, work area ${tier.sessionArea}\n`);
  // What was remembered while no gate ran goes out when one appears, even between tool calls.
  const timer = setInterval(() => void tier.forwarder.forward().catch((e: Error) => process.stderr.write(`gate plugin: ${e.message}\n`)), o.forwardEvery * 1000);
  void tier.forwarder.forward();
  const stop = async () => {
    clearInterval(timer);
    await handle.close();
    store.close();
    process.exit(0);
  };
  process.stdin.on('end', () => void stop());
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
}
