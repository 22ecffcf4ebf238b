// Reading a /metrics answer in tests with the Prometheus project's own
// text-format parser (the official Python client's
// prometheus_client.parser, Debian's python3-prometheus-client), so what is
// asserted is what a Prometheus server reads. The parser is strict: text it
// cannot read fails the test.
import { spawnSync } from "node:child_process";

const PYTHON = "/usr/bin/python3";
const SCRIPT = `
import json, sys
from prometheus_client.parser import text_string_to_metric_families
out = []
for fam in text_string_to_metric_families(sys.stdin.read()):
    for s in fam.samples:
        out.append({"family": fam.name, "type": fam.type, "name": s.name, "labels": s.labels, "value": repr(float(s.value))})
json.dump(out, sys.stdout)
`;

export interface Sample {
  family: string;
  type: string;
  name: string;
  labels: Record<string, string>;
  value: number;
}

export type Families = Sample[];

/** Why the parser cannot run here, or undefined. */
export function parserMissing(): string | undefined {
  const r = spawnSync(PYTHON, ["-c", "import prometheus_client.parser"], { encoding: "utf8" });
  return r.status === 0
    ? undefined
    : "skipped: the Prometheus text parser is not installed (apt-get install python3-prometheus-client; .ci/run installs it)";
}

/** Every sample of the text; throws when the parser refuses it. */
export function parseMetrics(text: string): Families {
  const r = spawnSync(PYTHON, ["-c", SCRIPT], { input: text, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`the Prometheus parser refused the text: ${r.stderr}`);
  const raw = JSON.parse(r.stdout) as Array<Omit<Sample, "value"> & { value: string }>;
  const number = (v: string) => (v === "nan" ? Number.NaN : v === "inf" ? Infinity : v === "-inf" ? -Infinity : Number(v));
  return raw.map((s) => ({ ...s, value: number(s.value) }));
}

function matches(s: Sample, labels: Record<string, string>): boolean {
  return Object.entries(labels).every(([k, v]) => s.labels[k] === v);
}

/** The value of the first sample named `name` whose labels include these, or undefined when there is none. */
export function sample(f: Families, name: string, labels: Record<string, string> = {}): number | undefined {
  return f.find((s) => s.name === name && matches(s, labels))?.value;
}

/** The sum over every sample named `name` whose labels include these (0 when none). */
export function total(f: Families, name: string, labels: Record<string, string> = {}): number {
  return f.filter((s) => s.name === name && matches(s, labels)).reduce((n, s) => n + s.value, 0);
}

/** A histogram's observation count (its _count samples) for these labels (0 when absent). */
export function histogramCount(f: Families, family: string, labels: Record<string, string> = {}): number {
  return total(f, `${family}_count`, labels);
}

/** The label values a family's samples carry under `label`. */
export function labelValues(f: Families, name: string, label: string): string[] {
  return [...new Set(f.filter((s) => s.name === name).map((s) => s.labels[label] ?? ""))].sort();
}
