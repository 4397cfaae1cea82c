import { Runner, type RunnerLog } from '../runner/runner.js';
import { resolve } from 'node:path';
import { defaultStateDir, RunnerStateError } from '../runner/budget-state-file.js';

export interface RunnerCommandOptions {
  url: string;
  keyEnv: string;
  crews: number;
  members: number;
  harness: string;
  stateDir?: string;
}

/** One JSON object a line on stderr: keys and tokens never reach it (the runner logs none). */
const jsonLog: RunnerLog = (level, message, fields = {}) => {
  process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), level, msg: message, ...fields })}\n`);
};

export async function runnerCommand(options: RunnerCommandOptions): Promise<void> {
  const key = process.env[options.keyEnv];
  if (key === undefined || key === '') {
    process.stderr.write(`gate runner: the environment variable ${options.keyEnv} holds no runner key\n`);
    process.exit(3);
  }
  try {
    const url = new URL(options.url);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('not http(s)');
  } catch {
    process.stderr.write(`gate runner: --url ${options.url} is not an http(s) URL\n`);
    process.exit(3);
  }
  let runner: Runner;
  try {
    runner = new Runner({ url: options.url, key, keyEnv: options.keyEnv, crews: options.crews, members: options.members, harness: options.harness, stateDir: resolve(options.stateDir ?? defaultStateDir()), log: jsonLog });
  } catch (error) {
    if (!(error instanceof RunnerStateError)) throw error;
    process.stderr.write(`gate runner: ${error.message}\n`);
    process.exit(3);
  }
  process.once('SIGTERM', () => runner.stop());
  process.once('SIGINT', () => runner.stop());
  await runner.run();
  process.exit(0);
}
