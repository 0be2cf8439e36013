/**
 * Hand-made SVG charts (no chart library): horizontal bars for counts by a key, and a column
 * histogram. Text through Preact bindings only; sizes through attributes (no inline style).
 */
export interface Bar {
  label: string;
  count: number;
  href?: string;
}

export function Bars({ title, bars }: { title: string; bars: Bar[] }) {
  const max = Math.max(1, ...bars.map((bar) => bar.count));
  const row = 22;
  return (
    <figure class="chart">
      <figcaption>{title}</figcaption>
      <svg
        role="img"
        aria-label={`${title}: ${bars.map((b) => `${b.label} ${b.count}`).join(', ')}`}
        viewBox={`0 0 320 ${Math.max(row, bars.length * row)}`}
        width="320"
        height={Math.max(row, bars.length * row)}
      >
        {bars.map((bar, index) => (
          <g key={bar.label} transform={`translate(0 ${index * row})`}>
            <text x="0" y="15" class="bar-label">
              {bar.label.length > 18 ? `${bar.label.slice(0, 17)}…` : bar.label}
            </text>
            <rect x="130" y="4" height="14" width={Math.max(1, (bar.count / max) * 150)} class="bar" />
            <text x={136 + (bar.count / max) * 150} y="15" class="bar-value">
              {bar.count}
            </text>
          </g>
        ))}
      </svg>
    </figure>
  );
}

export function Histogram({ title, columns }: { title: string; columns: Bar[] }) {
  const max = Math.max(1, ...columns.map((c) => c.count));
  const width = 56;
  return (
    <figure class="chart">
      <figcaption>{title}</figcaption>
      <svg
        role="img"
        aria-label={`${title}: ${columns.map((c) => `${c.label} ${c.count}`).join(', ')}`}
        viewBox={`0 0 ${columns.length * width} 140`}
        width={columns.length * width}
        height="140"
      >
        {columns.map((column, index) => {
          const height = (column.count / max) * 90;
          return (
            <g key={column.label} transform={`translate(${index * width} 0)`}>
              <rect x="6" y={110 - height} width={width - 12} height={Math.max(1, height)} class="bar" />
              <text x={width / 2} y={104 - height} class="bar-value" text-anchor="middle">
                {column.count}
              </text>
              <text x={width / 2} y="128" class="bar-label" text-anchor="middle">
                {column.label}
              </text>
            </g>
          );
        })}
      </svg>
    </figure>
  );
}

/** A stacked bar of a deployment's funnel: failing, running, agreed, proposed, matched. */
export function Funnel({ parts }: { parts: { label: string; count: number; kind: string }[] }) {
  const total = Math.max(1, ...parts.map((p) => p.count));
  return (
    <svg
      role="img"
      aria-label={parts.map((p) => `${p.label} ${p.count}`).join(', ')}
      viewBox="0 0 300 16"
      width="300"
      height="16"
    >
      {parts.map((part, index) => (
        <rect
          key={part.label}
          x="0"
          y={index * 3}
          height="3"
          width={(part.count / total) * 300}
          class={`funnel-${part.kind}`}
        />
      ))}
    </svg>
  );
}
