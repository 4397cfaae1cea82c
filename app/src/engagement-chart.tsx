import type { VerbAnswer } from '../../src/verbs/verb-types.js';

/** The caller's signatures per day as bars: SVG attributes, since the content policy allows no inline style. */
export function EngagementChart({ perDay }: { perDay: VerbAnswer<'gv.engagement'>['per_day'] }) {
  const value = (d: (typeof perDay)[number]) => d.signed + d.deferred + d.deferred_in_bulk;
  const top = Math.max(1, ...perDay.map(value));
  const w = 18;
  const h = 60;
  return (
    <svg class="chart" viewBox={`0 0 ${perDay.length * w} ${h + 14}`} role="img" aria-label="Your work per day">
      {perDay.map((d, i) => {
        const bar = Math.round((value(d) / top) * h);
        return (
          <g>
            <title>{`${d.day}: ${d.signed} signed, ${d.rejected} rejected, ${d.deferred + d.deferred_in_bulk} deferred`}</title>
            <rect x={i * w + 2} y={h - bar} width={w - 4} height={bar} class="bar" />
            <text x={i * w + w / 2} y={h + 11} text-anchor="middle" class="day">
              {d.day.slice(8)}
            </text>
          </g>
        );
      })}
    </svg>
  );
}
