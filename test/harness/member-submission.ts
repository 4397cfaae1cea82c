import { generateKeyPairSync, sign } from 'node:crypto';
import { canonicalJson, sha256Hex } from '../../src/forms/canonical-json.js';
import { SUBMISSION_CONTRACT, SUBMISSION_SIGNING_PREFIX } from '../../src/forms/submission-contract.js';

/**
 * A simulated member gate: its own Ed25519 key (the public half is its deployment id) and
 * submission/1 bodies built as src/submission/submission.ts builds them, with a promote event
 * journaled and signed the way the gate's journal signs one.
 */
export class SimulatedMember {
  readonly deploymentId: string;
  private readonly privateKey;
  /** The seq of its last event: each event a member journals has a place of its own (the organization refuses two ids at one seq). */
  private seq = 0;

  constructor() {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    this.privateKey = privateKey;
    this.deploymentId = publicKey.export({ format: 'jwk' }).x!;
  }

  sign(text: string): string {
    return sign(null, Buffer.from(text), this.privateKey).toString('base64url');
  }

  /** A signed journal event as the gate stores it: canonical envelope bytes, id, signature. */
  event(type: string, data: Record<string, unknown>, seq = ++this.seq) {
    const body = canonicalJson({ v: 1, seq, type, ts: 1_700_000_000_000, prev: null, by: 'key:abcdefabcdef', data });
    return { event_id: sha256Hex(body), event: body, sig: this.sign(body) };
  }

  /** A submission of a made-up promoted row (its content text, or bytes); `over` replaces parts of the submission before it is signed. */
  submission(content: string | Uint8Array, options: { trustClass?: string; humans?: number; promotionType?: string; over?: Record<string, unknown> } = {}) {
    const artifactId = `sha256:${sha256Hex(content)}`;
    const trust = options.trustClass ?? 'T-1';
    const submission: Record<string, unknown> = {
      contract: SUBMISSION_CONTRACT,
      artifact_id: artifactId,
      deployment_id: this.deploymentId,
      envelope: {
        content_hash: artifactId,
        content_type: 'memory',
        kind: 'memory',
        trust_class: trust,
        source_uri: 'test:member',
        writer_identity: 'key:abcdefabcdef',
        deployment_id: this.deploymentId,
        ingest_ts: 1_700_000_000_000,
        size_bytes: Buffer.byteLength(content),
        derives_from: [],
        space: 'main',
        workarea: null,
      },
      content: { encoding: 'base64', bytes: Buffer.from(content).toString('base64') },
      approval: { status: 'human_approved', approved_by: { model: 0, human: options.humans ?? 1, authority: 0 }, signers: [] },
      decisions: [],
      promotions: [this.event(options.promotionType ?? 'promote', { artifact_id: artifactId, space: 'main', leaves: 'L2_SCORED', enters: options.promotionType === 'ratify' ? 'L3_RATIFIED' : 'ACTIVE', trust_class: trust })],
      ingest: this.event(
        'ingest',
        { artifact_id: artifactId, space: 'main', leaves: null, enters: 'L0_RAW', content_hash: artifactId, size_bytes: Buffer.byteLength(content), content_type: 'memory', trust_class: trust },
      ),
      ...options.over,
    };
    const canonical = canonicalJson(submission);
    return { artifactId, body: { submission, id: `sha256:${sha256Hex(canonical)}`, sig: this.sign(SUBMISSION_SIGNING_PREFIX + canonical) } };
  }
}
