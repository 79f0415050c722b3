import { niceMax, type AgentBar } from '../../../lib/usage';

const BAR = 22;
const GAP = 10;
const LABEL = 140;
const WIDTH = 520;

/**
 * Tasks created and completed per agent as horizontal bars, in plain SVG. It is an image with a
 * title and description for screen readers; the table beside it carries the same figures.
 */
export function UsageChart({ bars, month }: { bars: AgentBar[]; month: string }) {
  const max = niceMax(Math.max(...bars.map((bar) => bar.created)));
  const plot = WIDTH - LABEL - 40;
  const height = bars.length * (BAR * 2 + GAP) + 24;
  const scale = (value: number) => (value / max) * plot;
  const summary = bars.map((bar) => `${bar.agent}: ${bar.created} created, ${bar.completed} completed`).join('; ');
  return (
    <figure className="chart">
      <svg viewBox={`0 0 ${WIDTH} ${height}`} role="img" aria-labelledby="usage-chart-title usage-chart-desc" preserveAspectRatio="xMinYMin meet">
        <title id="usage-chart-title">Tasks by agent, {month}</title>
        <desc id="usage-chart-desc">{summary}</desc>
        {bars.map((bar, index) => {
          const y = index * (BAR * 2 + GAP);
          return (
            <g key={bar.agent} transform={`translate(0 ${y})`}>
              <text x={LABEL - 8} y={BAR} textAnchor="end" className="chart-label">
                {bar.agent}
              </text>
              <rect x={LABEL} y={2} width={Math.max(scale(bar.created), 1)} height={BAR - 4} className="bar-created" />
              <text x={LABEL + scale(bar.created) + 4} y={BAR - 6} className="chart-value">
                {bar.created}
              </text>
              <rect x={LABEL} y={BAR} width={Math.max(scale(bar.completed), 1)} height={BAR - 4} className="bar-completed" />
              <text x={LABEL + scale(bar.completed) + 4} y={BAR * 2 - 8} className="chart-value">
                {bar.completed}
              </text>
            </g>
          );
        })}
        <line x1={LABEL} x2={LABEL} y1={0} y2={height - 20} className="chart-axis" />
        <text x={LABEL} y={height - 4} className="chart-value">
          0
        </text>
        <text x={LABEL + plot} y={height - 4} textAnchor="end" className="chart-value">
          {max}
        </text>
      </svg>
      <figcaption className="chart-legend">
        <span className="swatch swatch-created" aria-hidden="true" /> Tasks created <span className="swatch swatch-completed" aria-hidden="true" /> Tasks completed
      </figcaption>
    </figure>
  );
}
