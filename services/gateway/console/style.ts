// The console's one stylesheet, served as /static/console.css (the CSP's
// only style source: pages carry no inline style). Chart colours are here
// too (SVG elements take classes).
export const CONSOLE_CSS = `
:root { --fg: #1d232a; --muted: #5b6670; --line: #d5dbe0; --bg: #f7f8fa; --accent: #1f5fa8; --bad: #a8321f; --good: #2c7a3f; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
header { display: flex; align-items: center; gap: 1.5rem; padding: .6rem 1.2rem; background: #17324d; color: #fff; }
header .brand { font-weight: 700; letter-spacing: .02em; }
header nav { display: flex; align-items: center; gap: 1rem; flex: 1; }
header nav a { color: #d6e4f2; text-decoration: none; }
header nav a.active, header nav a:hover { color: #fff; text-decoration: underline; }
header form.logout { margin-left: auto; color: #d6e4f2; }
main { padding: 1rem 1.2rem 2rem; max-width: 1400px; }
h1 { font-size: 1.35rem; margin: .2rem 0 1rem; }
h2 { font-size: 1.1rem; margin: 1.6rem 0 .5rem; }
table { border-collapse: collapse; width: 100%; background: #fff; }
th, td { text-align: left; padding: .35rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: #eef1f4; font-weight: 600; white-space: nowrap; }
td.cmd, code, pre { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 13px; }
td.cmd { max-width: 48rem; overflow-wrap: anywhere; }
pre { background: #fff; border: 1px solid var(--line); padding: .6rem; overflow: auto; max-height: 36rem; white-space: pre-wrap; overflow-wrap: anywhere; }
pre.cli { background: #10202f; color: #e6f0fa; border: 0; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; background: #fff; padding: .6rem; border: 1px solid var(--line); }
dt { color: var(--muted); }
dd { margin: 0; overflow-wrap: anywhere; }
form.filters { display: flex; flex-wrap: wrap; gap: .6rem; align-items: end; margin-bottom: 1rem; }
form.filters label { display: flex; flex-direction: column; font-size: 12px; color: var(--muted); }
input, select, button { font: inherit; padding: .25rem .4rem; }
button { cursor: pointer; }
.tier { display: inline-block; min-width: 1.6em; text-align: center; border-radius: 3px; color: #fff; padding: 0 .3em; }
.tier-0 { background: #4d7f5a; } .tier-1 { background: #5a7fa8; } .tier-2 { background: #8a6fb0; } .tier-3 { background: #c0802a; } .tier-4 { background: #a8321f; } .tier-none { background: #8a949c; }
.verdict-approve { color: var(--good); font-weight: 600; } .verdict-reject { color: var(--bad); font-weight: 600; }
.armed { color: var(--good); font-weight: 700; } .disarmed { color: var(--bad); font-weight: 700; }
.note { color: var(--muted); }
.error { color: var(--bad); }
.label-form { display: flex; gap: .6rem; align-items: center; margin: .5rem 0 1rem; }
footer { color: var(--muted); font-size: 12px; padding: 0 1.2rem 1.5rem; }
svg.chart { background: #fff; border: 1px solid var(--line); max-width: 100%; height: auto; }
svg.chart text { font-size: 11px; fill: var(--muted); }
svg.chart .axis { stroke: var(--line); }
svg.chart .t0 { fill: #4d7f5a; } svg.chart .t1 { fill: #5a7fa8; } svg.chart .t2 { fill: #8a6fb0; } svg.chart .t3 { fill: #c0802a; } svg.chart .t4 { fill: #a8321f; } svg.chart .tnone { fill: #8a949c; }
svg.chart .p50 { stroke: #2c7a3f; fill: none; stroke-width: 2; } svg.chart .p90 { stroke: #c0802a; fill: none; stroke-width: 2; } svg.chart .p99 { stroke: #a8321f; fill: none; stroke-width: 2; }
svg.chart .k50 { fill: #2c7a3f; } svg.chart .k90 { fill: #c0802a; } svg.chart .k99 { fill: #a8321f; }
.login { max-width: 28rem; background: #fff; border: 1px solid var(--line); padding: 1rem; }
.login input[type=password] { width: 100%; margin: .4rem 0 .8rem; }
`;
