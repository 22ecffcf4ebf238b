// Two small server-drawn SVG charts (no script, no inline style: classes
// from console.css): stacked bars of decisions per tier per time bucket,
// and lines of latency percentiles. Each bar and point carries a <title>,
// which a browser shows on hover.
import { html, type Html } from "./html.js";

const W = 900;
const H = 260;
const PAD = { left: 56, right: 16, top: 26, bottom: 40 };

export interface Bars {
  buckets: Date[];
  /** Series keys in stacking order (bottom first) with their CSS class. */
  series: Array<{ key: string; label: string; cls: string }>;
  value: (bucket: number, key: string) => number;
}

function label(d: Date, spanS: number): string {
  const iso = d.toISOString();
  return spanS <= 2 * 86_400 ? iso.slice(11, 16) : iso.slice(5, 10);
}

function niceMax(max: number): number {
  if (max <= 0) return 1;
  const p = 10 ** Math.floor(Math.log10(max));
  return [1, 2, 5, 10].map((m) => m * p).find((v) => v >= max) ?? max;
}

function frame(max: number, unit: string, xLabels: Html[]): Html {
  const innerH = H - PAD.top - PAD.bottom;
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((f) => {
    const y = PAD.top + innerH * (1 - f);
    return html`<line class="axis" x1="${PAD.left}" x2="${W - PAD.right}" y1="${y}" y2="${y}"/><text x="${PAD.left - 6}" y="${y + 4}" text-anchor="end">${Math.round(max * f * 100) / 100}</text>`;
  });
  return html`${ticks}<text x="8" y="14">${unit}</text>${xLabels}`;
}

function xLabels(buckets: Date[], x: (i: number) => number, spanS: number): Html[] {
  const every = Math.max(1, Math.ceil(buckets.length / 12));
  return buckets.flatMap((b, i) =>
    i % every === 0 ? [html`<text x="${x(i)}" y="${H - PAD.bottom + 16}" text-anchor="middle">${label(b, spanS)}</text>`] : [],
  );
}

export function stackedBars(chart: Bars, spanS: number, title: string): Html {
  const n = chart.buckets.length;
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const totals = chart.buckets.map((_, i) => chart.series.reduce((s, k) => s + chart.value(i, k.key), 0));
  const max = niceMax(Math.max(0, ...totals));
  const step = innerW / Math.max(1, n);
  const x = (i: number) => PAD.left + step * i + step / 2;
  const bars = chart.buckets.flatMap((b, i) => {
    let base = 0;
    return chart.series.flatMap((s) => {
      const v = chart.value(i, s.key);
      if (v <= 0) return [];
      const h = (v / max) * innerH;
      const y = PAD.top + innerH - ((base + v) / max) * innerH;
      base += v;
      return [
        html`<rect class="${s.cls}" x="${PAD.left + step * i + step * 0.1}" y="${y}" width="${step * 0.8}" height="${h}"><title>${b.toISOString()}: ${s.label}: ${v}</title></rect>`,
      ];
    });
  });
  const legend = chart.series.map(
    (s, i) =>
      html`<rect class="${s.cls}" x="${PAD.left + i * 110}" y="${H - 14}" width="10" height="10"/><text x="${PAD.left + i * 110 + 14}" y="${H - 5}">${s.label}</text>`,
  );
  return html`<svg class="chart" id="chart-tiers" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${title}"><title>${title}</title>
${frame(max, "decisions", xLabels(chart.buckets, x, spanS))}${bars}${legend}</svg>`;
}

export interface Lines {
  buckets: Date[];
  /** values[i] belongs to buckets[i]; undefined: nothing in that bucket (the line skips it). */
  series: Array<{ label: string; cls: string; key: string; values: Array<number | undefined> }>;
}

export function lineChart(chart: Lines, spanS: number, title: string, unit: string): Html {
  const n = chart.buckets.length;
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const max = niceMax(Math.max(0, ...chart.series.flatMap((s) => s.values.filter((v): v is number => v !== undefined))));
  const step = innerW / Math.max(1, n);
  const x = (i: number) => PAD.left + step * i + step / 2;
  const y = (v: number) => PAD.top + innerH - (v / max) * innerH;
  const lines = chart.series.map((s) => {
    const present = s.values.flatMap((v, i) => (v === undefined ? [] : [[i, v] as const]));
    const points = present.map(([i, v]) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    const dots = present.map(
      ([i, v]) =>
        html`<circle class="${s.key}" cx="${x(i)}" cy="${y(v)}" r="3"><title>${chart.buckets[i]?.toISOString()}: ${s.label} ${Math.round(v)} ${unit}</title></circle>`,
    );
    return html`<polyline class="${s.cls}" points="${points}"/>${dots}`;
  });
  const legend = chart.series.map(
    (s, i) =>
      html`<rect class="${s.key}" x="${PAD.left + i * 90}" y="${H - 14}" width="10" height="10"/><text x="${PAD.left + i * 90 + 14}" y="${H - 5}">${s.label}</text>`,
  );
  return html`<svg class="chart" id="chart-latency" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${title}"><title>${title}</title>
${frame(max, unit, xLabels(chart.buckets, x, spanS))}${lines}${legend}</svg>`;
}
