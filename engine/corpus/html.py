"""The corpus report as one self-contained HTML page: inline SVG charts, no script, no server.

It opens in any browser from a file or an attachment. Every text from the corpus or the packs is
escaped; charts are drawn from the same report dictionary that ``--json`` writes.
"""

from __future__ import annotations

from html import escape
from typing import Any

WIDTH, BAR_H = 720, 16
STYLE = """
body{font:14px/1.45 system-ui,sans-serif;margin:24px auto;max-width:960px;color:#1d2430;padding:0 16px}
h1{font-size:22px}h2{font-size:17px;margin-top:28px;border-bottom:1px solid #d5dae1;padding-bottom:4px}
table{border-collapse:collapse;width:100%;margin:8px 0}td,th{border-bottom:1px solid #e6e9ee;padding:4px 6px;
text-align:left;vertical-align:top}th{background:#f3f5f8}td.n{text-align:right;font-variant-numeric:tabular-nums}
code{font:12px ui-monospace,monospace;word-break:break-all}.bad{color:#b3261e}.good{color:#1e7a3c}
.muted{color:#667085}svg text{font:11px system-ui,sans-serif;fill:#1d2430}
"""


def _num(value: float) -> str:
    return f"{value:,.2f}".rstrip("0").rstrip(".") if isinstance(value, float) else f"{value:,}"


def _histogram_svg(histogram: list[dict[str, Any]]) -> str:
    peak = max((b["count"] for b in histogram), default=0) or 1
    height, base = 180, 150
    step = (WIDTH - 40) / len(histogram)
    parts = [f'<svg width="{WIDTH}" height="{height}" role="img" aria-label="savings histogram">']
    for i, b in enumerate(histogram):
        h = b["count"] / peak * (base - 20)
        x = 30 + i * step
        label = "<0" if b["from"] is None else f"{b['from']:g}"
        parts.append(f'<rect x="{x:.1f}" y="{base - h:.1f}" width="{step - 3:.1f}" height="{h:.1f}" fill="#4c78a8">'
                     f'<title>{escape(label)}–{b["to"]:g} %: {b["count"]} samples</title></rect>')
        parts.append(f'<text x="{x + step / 2 - 1.5:.1f}" y="{base + 14}" text-anchor="middle">{escape(label)}</text>')
        if b["count"]:
            parts.append(f'<text x="{x + step / 2 - 1.5:.1f}" y="{base - h - 3:.1f}" text-anchor="middle">'
                         f'{b["count"]:,}</text>')
    parts.append(f'<text x="{WIDTH / 2}" y="{base + 30}" text-anchor="middle">savings % per sample '
                 '(each bar: from its label to the next)</text></svg>')
    return "".join(parts)


def _bars_svg(rules: list[dict[str, Any]], limit: int = 25) -> str:
    shown = rules[:limit]
    if not shown:
        return '<p class="muted">No rule or filter changed any sample.</p>'
    peak = max(abs(r["tokensSaved"]) for r in shown) or 1
    label_w = 260
    height = len(shown) * (BAR_H + 4) + 10
    parts = [f'<svg width="{WIDTH}" height="{height}" role="img" aria-label="tokens saved per rule">']
    for i, r in enumerate(shown):
        y = 5 + i * (BAR_H + 4)
        w = abs(r["tokensSaved"]) / peak * (WIDTH - label_w - 90)
        color = "#4c78a8" if r["tokensSaved"] >= 0 else "#e45756"
        name = r["name"] if len(r["name"]) <= 38 else r["name"][:37] + "…"
        parts.append(f'<text x="{label_w - 6}" y="{y + 12}" text-anchor="end">{escape(name)}</text>'
                     f'<rect x="{label_w}" y="{y}" width="{w:.1f}" height="{BAR_H}" fill="{color}">'
                     f'<title>{escape(r["name"])}: {r["tokensSaved"]} tokens in {r["samples"]} samples</title></rect>'
                     f'<text x="{label_w + w + 4:.1f}" y="{y + 12}">{r["tokensSaved"]:,}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _scatter_svg(points: list[list[float]]) -> str:
    size, pad = 360, 34
    span = size - 2 * pad

    def pos(v: float) -> float:
        return pad + max(-10.0, min(100.0, v)) / 110 * span + 10 / 110 * span

    parts = [f'<svg width="{size}" height="{size}" role="img" aria-label="baseline vs current savings">',
             f'<rect x="{pad}" y="{pad}" width="{span}" height="{span}" fill="none" stroke="#d5dae1"/>',
             f'<line x1="{pos(-10):.1f}" y1="{size - pos(-10):.1f}" x2="{pos(100):.1f}" y2="{size - pos(100):.1f}" '
             'stroke="#aab2bd" stroke-dasharray="4 3"/>']
    for base, cur in points:
        color = "#e45756" if cur < base else "#54a24b" if cur > base else "#4c78a8"
        parts.append(f'<circle cx="{pos(base):.1f}" cy="{size - pos(cur):.1f}" r="2.2" fill="{color}" '
                     'fill-opacity="0.7"/>')
    parts.append(f'<text x="{size / 2}" y="{size - 8}" text-anchor="middle">baseline savings %</text>'
                 f'<text x="12" y="{size / 2}" transform="rotate(-90 12 {size / 2})" text-anchor="middle">'
                 'current savings %</text></svg>')
    return "".join(parts)


def _table(headers: list[str], rows: list[list[str]], empty: str) -> str:
    if not rows:
        return f'<p class="muted">{escape(empty)}</p>'
    head = "".join(f"<th>{escape(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(rows_cell for rows_cell in row) + "</tr>" for row in rows)
    return f"<table><tr>{head}</tr>{body}</table>"


def _td(text: Any, cls: str = "") -> str:
    attr = f' class="{cls}"' if cls else ""
    return f"<td{attr}>{escape(str(text))}</td>"


def _code(text: str) -> str:
    return f"<td><code>{escape(text)}</code></td>"


def render(report: dict[str, Any]) -> str:
    cur = report["current"]
    s = cur["savings"]
    out = ["<!doctype html><html lang=en><meta charset=utf-8>",
           f"<title>Rulewright corpus report</title><style>{STYLE}</style>",
           "<h1>Corpus report</h1>",
           f'<p class="muted">{escape(report["rulewright"])} · profile {escape(cur["setup"]["profile"])} · '
           f'{report["corpus"]["samples"]:,} samples from {escape(", ".join(report["corpus"]["paths"]))} · '
           f'ran {escape(cur["setup"]["sources"])}'
           + (" · <b class=bad>partial: stopped before the end</b>" if report["partial"] else "") + "</p>"]
    tokens = cur["tokens"]
    summary = [["samples", _num(cur["samples"])], ["tokens before → after",
               f'{tokens["before"]:,} → {tokens["after"]:,} ({tokens["savingsPercent"]:g} % saved)'],
               ["savings per sample", f'mean {s["mean"]:g} % · p10 {s["p10"]:g} · median {s["p50"]:g} · '
                f'p90 {s["p90"]:g} · min {s["min"]:g} · max {s["max"]:g}'],
               ["losses", f'{cur["losses"]["samples"]:,} samples, {cur["losses"]["lines"]:,} lines or regions'],
               ["fallbacks · timeouts · errors", f'{cur["fallbacks"]:,} · {sum(cur["timeouts"].values()):,} · '
                f'{cur["errors"]:,}'],
               ["unreadable files or lines", _num(report["corpus"]["problems"])]]
    out.append(_table(["", ""], [[_td(a), _td(b)] for a, b in summary], ""))
    out.append("<h2>Savings distribution</h2>" + _histogram_svg(s["histogram"]))
    out.append("<h2>What each rule and filter earns</h2>" + _bars_svg(cur["rules"]))
    never = cur["neverFired"]
    out.append(f"<p><b>Never fired</b> ({len(never)}): " + (escape(", ".join(never)) if never else "none") + "</p>")
    if "ab" in report:
        ab = report["ab"]
        out.append(f'<h2>A/B against {escape(report["baseline"]["setup"]["label"])}</h2>')
        b_tokens = report["baseline"]["tokens"]
        out.append(f'<p>{ab["changedSamples"]:,} samples changed · savings {b_tokens["savingsPercent"]:g} % → '
                   f'{tokens["savingsPercent"]:g} % · new losses in {ab["newLosses"]["samples"]:,} samples</p>')
        out.append(_scatter_svg(ab["scatter"]))
        for title, key in (("Top regressions", "topRegressions"), ("Top improvements", "topImprovements")):
            rows = [[_code(r["id"]), _td(r["kind"]), _td(f'{r["baseline"]:g}', "n"), _td(f'{r["current"]:g}', "n"),
                     _td(f'{r["delta"]:+g}', "n bad" if r["delta"] < 0 else "n good")] for r in ab[key]]
            out.append(f"<h3>{title}</h3>" + _table(["sample", "kind", "baseline %", "current %", "Δ"], rows, "none"))
        rows = [[_code(r["id"]), _td(f'{r["baselineLostCount"]} → {r["lostCount"]}', "n bad"),
                 _code("\n".join(r["lost"][:5]))] for r in ab["newLosses"]["listed"]]
        out.append("<h3>New losses</h3>" + _table(["sample", "lost", "what"], rows, "none"))
    rows = [[_code(r["id"]), _td(r["kind"]), _td(f'{r["savingsPercent"]:g}', "n"),
             _td(f'{r["tokensBefore"]:,} → {r["tokensAfter"]:,}', "n"), _td(", ".join(r["fired"]))] for r in cur["worst"]]
    out.append("<h2>Worst samples</h2>" + _table(["sample", "kind", "savings %", "tokens", "fired"], rows, "none"))
    rows = [[_code(r["id"]), _td(r["kind"]), _td(r["lostCount"], "n bad"), _code("\n".join(r["lost"][:5]))]
            for r in cur["losses"]["listed"]]
    out.append("<h2>All losses</h2><p class=muted>Error and summary lines a filter dropped; protected regions "
               "Caveman altered.</p>" + _table(["sample", "kind", "lost", "what"], rows, "No losses."))
    if report["corpus"]["problemList"] or cur["setup"]["problems"]:
        items = "".join(f"<li><code>{escape(p)}</code></li>"
                        for p in cur["setup"]["problems"] + report["corpus"]["problemList"])
        out.append(f"<h2>Problems</h2><ul>{items}</ul>")
    out.append("</html>\n")
    return "\n".join(out)
