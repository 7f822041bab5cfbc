// One time-series chart (uPlot) with its text alternative: a figure whose caption names it, the drawing marked
// role="img" with a one-sentence summary, and the same numbers as a table under a disclosure (every bucket that
// has a value), so what the chart shows can be read without seeing it. The drawing area has a fixed height that
// is reserved before uPlot draws, so the page never shifts when the data arrives. Must never fetch anything.
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { Group } from '../analytics-series.ts';

const HEIGHT = 220;
/** Distinguishable on white and for the common colour-vision deficiencies (Okabe–Ito). */
const COLOURS = ['#0072b2', '#d55e00', '#009e73', '#cc79a7', '#e69f00', '#56b4e9', '#000000', '#f0e442'];

export interface TimeChartProps {
  id: string;
  title: string;
  unit: string;
  /** Bucket starts, Unix seconds. */
  times: number[];
  groups: Group[];
  /** Per group, one value per bucket. */
  values: (number | null)[][];
  /** A summary for the drawing's accessible name. */
  summary: string;
}

export function TimeChart({ id, title, unit, times, groups, values, summary }: TimeChartProps) {
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const target = box.current;
    if (!target) return undefined;
    const chart = new uPlot(
      {
        width: Math.max(target.clientWidth, 200),
        height: HEIGHT,
        scales: { x: { time: true } },
        legend: { show: groups.length > 0 },
        axes: [{}, { label: unit, size: 60 }],
        series: [{}, ...groups.map((g, i) => ({ label: g.label, stroke: COLOURS[i % COLOURS.length], width: 2, spanGaps: false, points: { size: 5 } }))],
      },
      [times, ...values],
      target,
    );
    const resized = new ResizeObserver(() => chart.setSize({ width: Math.max(target.clientWidth, 200), height: HEIGHT }));
    resized.observe(target);
    return () => {
      resized.disconnect();
      chart.destroy();
    };
  }, [times, groups, values, unit]);

  const rows = times.map((t, i) => ({ t, cells: values.map((v) => v[i] ?? null) })).filter((row) => row.cells.some((c) => c !== null && c !== 0));
  return (
    <figure class="chart" aria-labelledby={`${id}-title`}>
      <figcaption id={`${id}-title`}>
        {title} <span class="unit">({unit})</span>
      </figcaption>
      <div class="chart-area" role="img" aria-label={`${title}: ${summary}`} ref={box} style={{ minHeight: `${HEIGHT + 40}px` }} />
      <details>
        <summary>{title} as a table</summary>
        {rows.length === 0 ? (
          <p>No values in this range.</p>
        ) : (
          <table class="list compact">
            <caption class="visually-hidden">
              {title} per bucket ({unit})
            </caption>
            <thead>
              <tr>
                <th scope="col">Time</th>
                {groups.map((g) => (
                  <th key={g.id} scope="col">
                    {g.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.t}>
                  <th scope="row">{new Date(row.t * 1000).toLocaleString()}</th>
                  {row.cells.map((c, i) => (
                    <td key={groups[i]!.id}>{c ?? '–'}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </details>
    </figure>
  );
}
