import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLog } from '../../dist/src/log.js';

/** A stream that keeps what is written; `isTTY` makes it look like a terminal to `auto`. */
function capture(isTTY: boolean) {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return { stream: Object.assign(stream, { isTTY }), text: () => chunks.join('') };
}

describe('the log format: auto is pretty on a terminal, JSON elsewhere', () => {
  it('on a terminal: time, level, message, then key=value fields, and an error with its stack', () => {
    const out = capture(true);
    const log = createLog({ level: 'debug', format: 'auto' }, out.stream);
    log.debug('request', { door: 'rpc', verb: 'gv.ingest', status: 200, ms: 1.5, label: 'two words' });
    log.error('a commit listener failed', new Error('boom'));
    const [request, failure] = out.text().split('\n');
    expect(request).toMatch(/^\d\d:\d\d:\d\d\.\d{3} DEBUG request door=rpc verb=gv\.ingest status=200 ms=1\.5 label="two words"$/);
    expect(failure).toMatch(/^\d\d:\d\d:\d\d\.\d{3} ERROR a commit listener failed$/);
    expect(out.text()).toContain('Error: boom\n    at ');
  });

  it('elsewhere, or with format json: one JSON object a line', () => {
    for (const [isTTY, format] of [[false, 'auto'], [true, 'json']] as const) {
      const out = capture(isTTY);
      createLog({ format }, out.stream).info('started', { port: 8480 });
      expect(JSON.parse(out.text())).toMatchObject({ level: 'info', msg: 'started', port: 8480 });
    }
  });

  it('a level that is off writes nothing and says so to callers that gather fields', () => {
    const out = capture(false);
    const log = createLog({ level: 'warn' }, out.stream);
    log.info('not written');
    expect(out.text()).toBe('');
    expect([log.enabled('info'), log.enabled('warn')]).toEqual([false, true]);
  });
});
