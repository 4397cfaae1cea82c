/**
 * The attack classifier's model: a logistic regression over hashed features
 * (attack-features.ts), its weights quantised to one signed byte each. The trained model is
 * committed as attack-weights.ts (written by training/attack-model.js), so a fresh clone
 * scans without the data it was trained on.
 */
import { FeatureExtractor } from './attack-features.js';

export interface SerializedAttackModel {
  /** Names the weights: a finding says which model spoke. */
  label: string;
  bits: number;
  bias: number;
  /** A weight is its byte times `scale`. */
  scale: number;
  /** Probability at or above which a window holding an attack cue (attack-cues.ts) reads as an attack. */
  threshold: number;
  /** Probability at or above which the finding is high rather than medium. */
  high: number;
  /** The best window's probability, cue or not, from which the built-in reviewer finds a text suspicious. */
  suspicion: number;
  /** The `2^bits` signed bytes, base64. */
  weights: string;
}

export class AttackModel {
  readonly label: string;
  readonly threshold: number;
  readonly high: number;
  readonly suspicion: number;
  private readonly bias: number;
  private readonly scale: number;
  /** Kept as the signed bytes they are stored as: 64 KB stays in cache, 256 KB of floats did not. */
  private readonly weights: Int8Array;
  private readonly extractor: FeatureExtractor;

  constructor(model: SerializedAttackModel) {
    const bytes = Buffer.from(model.weights, 'base64');
    if (bytes.length !== 1 << model.bits) throw new Error(`attack model ${model.label}: ${bytes.length} weights for ${model.bits} bits`);
    this.weights = Int8Array.from(new Int8Array(bytes.buffer, bytes.byteOffset, bytes.length));
    this.scale = model.scale;
    this.bias = model.bias;
    this.label = model.label;
    this.threshold = model.threshold;
    this.high = model.high;
    this.suspicion = model.suspicion;
    this.extractor = new FeatureExtractor(model.bits);
  }

  /** The probability that text[start, end) is written to attack an agent that reads it. */
  probability(text: string, start = 0, end = text.length): number {
    const count = this.extractor.extract(text, start, end);
    if (count === 0) return 1 / (1 + Math.exp(-this.bias));
    const features = this.extractor.indices;
    let sum = 0;
    for (let i = 0; i < count; i++) sum += this.weights[features[i]!]!;
    return 1 / (1 + Math.exp(-(this.bias + (sum * this.scale) / Math.sqrt(count))));
  }
}
