import parsePrometheusTextFormat from 'parse-prometheus-text-format';

/** One metric family as the parser reads it from the Prometheus text format. */
export interface MetricFamily {
  name: string;
  help: string;
  type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
  metrics: Array<{ value?: string; labels?: Record<string, string>; buckets?: Record<string, string>; count?: string; sum?: string }>;
}

/**
 * The Prometheus text format read by a parser that is not ours (parse-prometheus-text-format,
 * which follows Prometheus's own text parser): a family prom-client wrote wrongly fails here.
 */
export function parseMetrics(text: string): MetricFamily[] {
  return parsePrometheusTextFormat(text) as MetricFamily[];
}

/** The family named, or an error naming the families there are. */
export function familyOf(families: readonly MetricFamily[], name: string): MetricFamily {
  const found = families.find((f) => f.name === name);
  if (found === undefined) throw new Error(`no metric family ${name}; there are ${families.map((f) => f.name).join(', ')}`);
  return found;
}

/** The sum of a counter's or gauge's samples whose labels include `labels`. */
export function sampleSum(family: MetricFamily, labels: Record<string, string> = {}): number {
  return family.metrics
    .filter((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v))
    .reduce((n, m) => n + Number(m.value ?? m.count ?? 0), 0);
}
