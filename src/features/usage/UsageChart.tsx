import { useIntl } from 'react-intl';
import { Bar, BarChart, CartesianGrid, Legend, Pie, PieChart, Tooltip, XAxis, YAxis } from 'recharts';
import { formatCredits, formatDay, formatMonth } from './format';
import type { UsageSummary } from './usageApi';

// The charts themselves, its own download (recharts is large): the billing page loads it only
// when there is a summary to draw. Which chart and which summary are the page's choice.

export type ChartKind = 'time' | 'bar' | 'pie';

/** Chakra's palette, so the charts follow the theme (light and dark). */
const COLORS = ['blue', 'teal', 'orange', 'purple', 'pink', 'green', 'cyan', 'yellow', 'red', 'gray'].map((c) => `var(--chakra-colors-${c}-500)`);
const colorOf = (index: number) => COLORS[index % COLORS.length];

const CHART_HEIGHT = 300;
const axisTick = { fontSize: 12, fill: 'var(--chakra-colors-fg-muted)' };
const tooltipStyle = { background: 'var(--chakra-colors-bg-panel)', borderColor: 'var(--chakra-colors-border)', borderRadius: 8 };

export function UsageChart({ summary, kind }: { summary: UsageSummary; kind: ChartKind }) {
  const intl = useIntl();
  const credits = (value: unknown) => formatCredits(intl, Number(value));
  const style = { width: '100%', height: CHART_HEIGHT };

  if (kind === 'time') {
    // One bar per bucket, stacked by group (workflow or step type).
    const label = (start: string) => (summary.period === 'month' ? formatMonth(intl, start) : formatDay(intl, start));
    const data = summary.buckets.map((bucket) => ({ label: label(bucket.start), ...bucket.groups }));
    return (
      <BarChart responsive style={style} data={data}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="var(--chakra-colors-border-muted)" />
        <XAxis dataKey="label" tick={axisTick} />
        <YAxis tick={axisTick} tickFormatter={credits} width={48} />
        <Tooltip formatter={credits} contentStyle={tooltipStyle} />
        <Legend />
        {summary.groups.map((group, index) => (
          <Bar key={group.key} dataKey={group.key} name={group.label} stackId="credits" fill={colorOf(index)} isAnimationActive={false} />
        ))}
      </BarChart>
    );
  }

  const data = summary.groups.map((group, index) => ({ name: group.label, credits: group.credits, fill: colorOf(index) }));
  if (kind === 'bar') {
    return (
      <BarChart responsive style={style} data={data} layout="vertical" margin={{ left: 16 }}>
        <CartesianGrid strokeDasharray="3 3" horizontal={false} stroke="var(--chakra-colors-border-muted)" />
        <XAxis type="number" tick={axisTick} tickFormatter={credits} />
        <YAxis type="category" dataKey="name" tick={axisTick} width={140} />
        <Tooltip formatter={credits} contentStyle={tooltipStyle} />
        <Bar dataKey="credits" name={intl.formatMessage({ id: 'billing.chart.credits' })} fill={colorOf(0)} isAnimationActive={false} />
      </BarChart>
    );
  }
  return (
    <PieChart responsive style={style}>
      <Pie data={data} dataKey="credits" nameKey="name" outerRadius="80%" label={({ name }) => String(name)} isAnimationActive={false} />
      <Tooltip formatter={credits} contentStyle={tooltipStyle} />
    </PieChart>
  );
}
