import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { CLI } from './gate-process.js';

/** `gate plugin` launched the way a harness launches it, driven by the v2 SDK's stdio client. */
export class PluginProcess {
  private constructor(
    readonly client: Client,
    readonly store: string,
    readonly session: string,
  ) {}

  static async start(options: { home: string; store?: string; session?: string; negotiate?: boolean }): Promise<PluginProcess> {
    const store = options.store ?? join(mkdtempSync(join(tmpdir(), 'gate-plugin-')), 'store');
    const session = options.session ?? `t${process.pid}${Date.now() % 100000}`;
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'plugin', '--store', store, '--session', session, '--home', options.home, '--forward-every', '3600'],
      stderr: 'ignore',
    });
    const client = new Client(
      { name: 'harness', version: '1.0.0' },
      options.negotiate ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
    );
    await client.connect(transport);
    return new PluginProcess(client, store, session);
  }

  /** A tool's structured output; fails loudly on a tool error. */
  async tool(name: string, args: Record<string, unknown>): Promise<any> {
    const r = await this.client.callTool({ name: `gate.${name}`, arguments: args });
    if (r.isError) throw new Error(`gate.${name}: ${JSON.stringify(r.structuredContent)}`);
    return r.structuredContent;
  }

  async refusal(name: string, args: Record<string, unknown>): Promise<any> {
    const r = await this.client.callTool({ name: `gate.${name}`, arguments: args });
    if (!r.isError) throw new Error(`gate.${name} was not refused: ${JSON.stringify(r.structuredContent)}`);
    return (r.structuredContent as any).error;
  }

  async stop(): Promise<void> {
    await this.client.close();
  }
}
