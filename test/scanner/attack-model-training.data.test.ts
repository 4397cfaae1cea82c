import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sharedData } from '../harness/shared-data.js';

// The committed weights are what a fresh clone scans with; retraining from the same data
// must give them back, or nobody can say what the scanner was trained on.
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const COMMITTED = join(ROOT, 'workers', 'scan', 'attack-weights.ts');

// The Node.js version the file records is the one thing allowed to differ between machines.
const withoutNode = (file: string) => readFileSync(file, 'utf8').replace(/"node": "v[\d.]+"/, '"node": "…"');

describe('training/attack-model.js', () => {
  it('reproduces the committed weights byte for byte from the shared data', () => {
    const data = sharedData();
    const dir = mkdtempSync(join(tmpdir(), 'gate-attack-model-'));
    try {
      const out = join(dir, 'attack-weights.ts');
      const printed = execFileSync(process.execPath, [join(ROOT, 'training', 'attack-model.js'), '--data', data, '--out', out], { cwd: ROOT, encoding: 'utf8' });
      // Thresholds out of fold by source family: each benign family is scored by models that never saw it.
      for (const family of ['own-notes', 'awesome-chatgpt-prompts', 'promptshield']) expect(printed).toContain(`fold ${family}: training on`);
      expect(printed).toMatch(/thresholds: classifier 0\.\d+/);
      expect(withoutNode(out)).toBe(withoutNode(COMMITTED));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 600_000);

  it('explains itself and refuses a bad option', () => {
    expect(execFileSync(process.execPath, [join(ROOT, 'training', 'attack-model.js'), '--help'], { encoding: 'utf8' })).toMatch(/Trains the scanner's two learned parts/);
    let status = 0;
    let stderr = '';
    try {
      execFileSync(process.execPath, [join(ROOT, 'training', 'attack-model.js'), '--bits', '40'], { encoding: 'utf8', stdio: 'pipe' });
    } catch (error) {
      status = (error as { status: number }).status;
      stderr = String((error as { stderr: string }).stderr);
    }
    expect(status).toBe(2);
    expect(stderr).toMatch(/--bits must be an integer from 10 to 22/);
  });
});
