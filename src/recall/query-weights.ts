import { words, type WordWeights } from '../../workers/embed/hashed-ngrams.js';

/**
 * The square root of BM25's inverse document frequency of each query term, keyed by the
 * words the local embedding reads in it: the query's vector weighs its rare words up. A
 * stored vector has no store-wide statistics (it depends on its own text alone), so without
 * this a name said in half the store weighs in a query as much as the one word that tells
 * the answer apart. The root, not the IDF itself: on LoCoMo's dev half the full IDF found
 * more (vector recall@10 0.640 against 0.605), but on our own paraphrased fixtures it found
 * less than no weighting (0.746 against 0.761), and the root finds more on both (0.768).
 * `rows` is how many rows the frequencies were counted over.
 */
export function idfWeights(terms: readonly string[], frequencies: readonly number[], rows: number): WordWeights {
  const weights = new Map<string, number>();
  terms.forEach((term, i) => {
    const df = Math.min(frequencies[i]!, rows);
    const idf = Math.log(1 + (rows - df + 0.5) / (df + 0.5));
    for (const w of words(term)) weights.set(w, Math.sqrt(idf));
  });
  return weights;
}
