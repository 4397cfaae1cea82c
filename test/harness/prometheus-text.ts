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

/**
 * A histogram's `_count` per label set. The parser merges a histogram's label sets into one
 * sample (its limitation), so the histogram's series are read again as untyped samples: the
 * same text without the family's TYPE line, through the same parser.
 */
export function histogramCounts(text: string, name: string): Array<{ labels: Record<string, string>; count: number }> {
  const untyped = text
    .split('\n')
    .filter((line) => !line.startsWith(`# TYPE ${name} `) && !line.startsWith(`# HELP ${name} `))
    .join('\n');
  // Untyped, each run of one series name is a family of its own: a label set's _count is one.
  const counts = parseMetrics(untyped).filter((f) => f.name === `${name}_count`);
  if (counts.length === 0) throw new Error(`no ${name}_count series`);
  return counts.flatMap((f) => f.metrics.map((m) => ({ labels: m.labels ?? {}, count: Number(m.value) })));
}
