import { describe, expect, it } from 'vitest';
import { findCredentialGaps } from '../../workers/scan/credential-gaps.js';
import { scanText } from '../../workers/scan/scan-text.js';

const found = async (text: string) => {
  const result = await scanText(text);
  return { flagged: result.flagged, findings: result.findings.map((f) => [f.kind, f.severity, text.slice(f.start, f.end)]), masked: result.masked };
};

describe("AWS's published example key pair", () => {
  it('is a low example credential: not held, but the reviewer sees it, masked', async () => {
    const text = 'aws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n';
    const r = await found(text);
    expect(r.flagged).toBe(false);
    expect(r.findings).toEqual([
      ['secret.example-credential', 'low', 'AKIAIOSFODNN7EXAMPLE'],
      ['secret.example-credential', 'low', 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY'],
    ]);
    expect(r.masked).not.toContain('EXAMPLE');
  });

  it('counts only as a whole token', () => {
    expect(findCredentialGaps('xAKIAIOSFODNN7EXAMPLE and AKIAIOSFODNN7EXAMPLEZ')).toEqual([]);
  });
});

describe('a ghp_ token of the wrong length', () => {
  it('is a medium malformed GitHub token, held', async () => {
    const short = 'ghp_R8sKq2Zp9Lm4Rv8WxT3nB6cY1dF5hJ7kL0'; // 34 characters after the prefix
    const long = 'ghp_TestOnlyNotARealTokenx7Kq2Zp9Lm4Rv8W9z'; // 38
    for (const token of [short, long]) {
      const r = await found(`GH_PAT=${token}\n`);
      expect(r.flagged).toBe(true);
      expect(r.findings).toEqual([['secret.github-token-malformed', 'medium', token]]);
    }
  });

  it('leaves the right length to secretlint (veto) and prose prefixes alone', async () => {
    expect((await found('token ghp_TestOnlyNotARealTokenx7Kq2Zp9Lm4Rv8W ok')).findings).toEqual([
      ['secret.github-token', 'veto', 'ghp_TestOnlyNotARealTokenx7Kq2Zp9Lm4Rv8W'],
    ]);
    expect(findCredentialGaps('GitHub tokens (ghp_...) start with ghp_ and ghp_token is a variable; ghp_xxxxxxxxxxxxxxxxxxxx is a slot.')).toEqual([]);
    expect(findCredentialGaps('ghp_YOUR_TOKEN_HERE_1234567 is what the docs show')).toEqual([]);
  });
});
