import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { guideCommands, Walkthrough } from '../harness/walkthrough.js';

/** The guides' block-runner itself: how it reads a block, and that a failing step fails with its command and output. */
const dir = mkdtempSync(join(tmpdir(), 'walkthrough-'));
const guide = (block: string): string => {
  const file = join(dir, `guide-${Math.random().toString(36).slice(2)}.md`);
  writeFileSync(file, `# A guide\n\n<!-- guide:t -->\n\`\`\`sh\n${block}\`\`\`\n<!-- /guide:t -->\n`);
  return file;
};
const walks: Walkthrough[] = [];
const walk = () => {
  const w = new Walkthrough({ ports: { '8480': 18480 }, password: 'pw', ready: () => /ready/ });
  walks.push(w);
  return w;
};
afterAll(async () => {
  for (const w of walks) await w.close();
});

describe('walkthrough', () => {
  it('reads comments, continued lines and here-documents as a person pastes them', () => {
    const file = guide(
      [
        '# 1. a heading comment',
        'echo one      # a comment after a command',
        'curl -s http://127.0.0.1:8480 \\',
        "  -d '{}'",
        "cat > ~/x.sh <<'EOF'",
        '#!/bin/sh',
        'echo kept # as written',
        'EOF',
        '',
      ].join('\n'),
    );
    expect(guideCommands(file, 't')).toEqual(['echo one', "curl -s http://127.0.0.1:8480   -d '{}'", "cat > ~/x.sh <<'EOF'\n#!/bin/sh\necho kept # as written\nEOF"]);
    expect(() => guideCommands(file, 'other')).toThrow(/no guide:other block/);
  });

  it('substitutes ports, the home and printed values, and runs background jobs until killed', async () => {
    const w = walk();
    await w.run(
      guideCommands(
        guide(
          [
            'export WHERE=~/place',
            'echo \'{"result": {"key": "gk_abc", "key_id": "k1", "artifact_id": "sha256:ff"}}\'',
            'export KEY=gk_... ID=key:... ROW=sha256:...',
            '(echo ready; sleep 60) &',
            'kill %1 && wait %1',
            'echo "$WHERE $KEY $ID $ROW 8480"',
            '',
          ].join('\n'),
        ),
        't',
      ),
    );
    expect(w.ran.at(-1)!.out.trim()).toBe(`${w.home('~/place')} gk_abc key:k1 sha256:ff 18480`);
  });

  it('fails on a step that exits non-zero, or prints a JSON-RPC error, naming the command and its output', async () => {
    await expect(walk().run(['echo said; echo worse >&2; exit 4'])).rejects.toThrow(/exit 4\): echo said; echo worse >&2; exit 4\n--- stdout\nsaid\n--- stderr\nworse/);
    await expect(walk().run([`echo '{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"no"}}'`])).rejects.toThrow(/exit 0\).*\n--- stdout\n.*"message":"no"/);
  });
});
