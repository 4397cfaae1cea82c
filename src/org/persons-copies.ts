import type { Piscina } from 'piscina';
import type { CopyTask, PersonsCopy } from '../../workers/org-copy/pool-entry.js';
import { newPool } from '../threads.js';

export type { PersonsCopy };

/** What a reading copy is made from: a submission as the org stores it (content as base64, its envelope's kind). */
export interface CopySource {
  content?: { bytes?: unknown };
  envelope?: { kind?: unknown; content_type?: unknown };
}

const contentTypeOf = (s: CopySource): string => {
  const kind = s.envelope?.kind ?? s.envelope?.content_type;
  return typeof kind === 'string' ? kind : '';
};

/**
 * Persons' copies of submissions (decoded, scanned and masked in a worker, pool-entry of
 * workers/org-copy): what the organization's console shows a reviewer in place of the
 * base64 a submission carries. The one thread starts on the first copy and leaves when
 * idle, so an org that nobody reads in a browser runs none.
 */
export class PersonsCopies {
  private pool: Piscina | null = null;

  copies(submissions: readonly CopySource[]): Promise<Array<PersonsCopy | null>> {
    if (submissions.length === 0) return Promise.resolve([]);
    const items = submissions.map((s) => ({ base64: typeof s.content?.bytes === 'string' ? s.content.bytes : null, contentType: contentTypeOf(s) }));
    return this.started().run({ items } satisfies CopyTask) as Promise<Array<PersonsCopy | null>>;
  }

  private started(): Piscina {
    this.pool ??= newPool({
      entry: new URL('../../workers/org-copy/pool-entry.js', import.meta.url),
      minThreads: 0,
      maxThreads: 1,
      idleTimeout: 30_000,
    });
    return this.pool;
  }

  async close(): Promise<void> {
    await this.pool?.destroy();
  }
}
