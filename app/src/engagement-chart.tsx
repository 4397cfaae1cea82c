/** The caller's signatures per day as bars: SVG attributes, since the content policy allows no inline style. */
export function EngagementChart({ perDay }: { perDay: { day: string; signed: number; rejected: number; deferred?: number; deferred_in_bulk?: number }[] }) {
  const value = (d: (typeof perDay)[number]) => d.signed + (d.deferred ?? 0) + (d.deferred_in_bulk ?? 0);
  const top = Math.max(1, ...perDay.map(value));
  const w = 18;
  const h = 60;
  return (
    <svg class="chart" viewBox={`0 0 ${perDay.length * w} ${h + 14}`} role="img" aria-label="Your work per day">
      {perDay.map((d, i) => {
        const bar = Math.round((value(d) / top) * h);
        return (
          <g>
            <title>{`${d.day}: ${d.signed} signed, ${d.rejected} rejected, ${(d.deferred ?? 0) + (d.deferred_in_bulk ?? 0)} deferred`}</title>
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
