/** Where the detect pool sends a row's text, and how it reads the answer; plain data, so it crosses to a worker thread as it is. */
export interface DetectTarget {
  /** The server's base URL: the pool posts {url}/predict. */
  url: string;
  /** The NAME of the environment variable holding the key; the worker reads it, so the key never travels in a task. */
  apiKeyEnv: string;
  timeoutMs: number;
  connectTimeoutMs: number;
  maxRetries: number;
  /** Longest part of a text sent as one input. */
  chunkChars: number;
  /** Most parts in one request. */
  batchMax: number;
  /** The classifier's labels that mean an attack, upper-cased. */
  attackLabels: string[];
}

export interface DetectTask {
  target: DetectTarget;
  text: string;
}

/** Where the classifier scored an attack label highest: the label, its score, and the part (UTF-16 offsets, end exclusive). */
export interface DetectTop {
  label: string;
  score: number;
  start: number;
  end: number;
}

export type DetectFailure = 'timeout' | 'connect' | 'http' | 'too_large' | 'malformed' | 'credential' | 'labels';

export type DetectOutcome =
  | {
      ok: true;
      /** The highest attack score over every part, or null for a text with no part to classify (empty or blank). */
      top: DetectTop | null;
      parts: number;
      requests: number;
      ms: number;
    }
  | { ok: false; failure: DetectFailure; detail: string; status?: number; ms: number };
