/* FIG 15 · Complexity explorer: every mechanism's compute or memory against N on log–log axes,
 * with an N marker (drag or tap the chart, or the slider) that reads each curve into a table.
 * All values, growth factors, ranges and ticks come from complexity_curves at build time; the
 * N grid is geometric, so positions map to grid indices without any maths here. */
K3.register("fig-15-complexity", function (mount, data, ctx) {
  "use strict";
  var W = window.K3W, el = W.el;
  var K = data.n.length;
  var MARGIN = { l: 62, r: 14, t: 12, b: 46 };
  // colour + dash + width per curve, so coinciding lines (softmax, Flash, MLA compute) stay visible
  var LOOK = {
    softmax: { color: "--accent", dash: "solid", width: 6, svg: "" },
    flash: { color: "--orange", dash: "dash", width: 3, svg: "6 3" },
    linear: { color: "--blue", dash: "solid", width: 2.5, svg: "" },
    kda: { color: "--violet", dash: "dash", width: 3, svg: "6 3" },
    mla: { color: "--green", dash: "dot", width: 3, svg: "2 3" },
    hybrid: { color: "--ink-2", dash: "dashdot", width: 2.5, svg: "7 3 2 3" },
  };

  var initial = ctx.state.get();
  var metric = pickMetric(initial.metric);
  var idx = indexOfN(initial.n);

  function pickMetric(m) { return data.metrics[m] ? m : "compute"; }
  /* the grid point nearest a length from the URL (a lookup, not a scale) */
  function indexOfN(n) {
    var v = +n;
    if (n === undefined || !isFinite(v)) return data.n_default_index;
    var best = 0;
    for (var i = 1; i < K; i++) if (Math.abs(data.n[i] - v) < Math.abs(data.n[best] - v)) best = i;
    return best;
  }
  var css = W.css(mount);
  function fmtValue(v) { return W.si(v, data.metrics[metric].unit); }
  function fmtN(i) { return W.int(data.n[i]); }

  /* ---------- controls, chart, table ---------- */
  var switcher = W.choice({
    label: "Quantity plotted",
    options: Object.keys(data.metrics).map(function (m) {
      return { value: m, text: data.metrics[m].label, aria: data.metrics[m].label + ": " + data.metrics[m].axis };
    }),
    value: metric,
    onChange: function (m, how) { setMetric(m, how); },
  });
  var slider = W.slider({
    label: "N", values: data.n, index: idx,
    format: function (n) { return W.int(n) + " tokens"; },
    onInput: function (i) { setIndex(i, "input"); },
  });
  slider.input.setAttribute("aria-label", "Sequence length N");
  slider.input.addEventListener("change", function () { commit(true); });

  var plot = el("div", { class: "f15-plot", role: "img" });
  var caption = el("caption");
  var unitHead = el("th", { scope: "col" });
  var rows = {};
  var body = el("tbody");
  data.mechanisms.forEach(function (m) {
    var value = el("td", { class: "k3-num f15-value" }), growth = el("td", { class: "k3-num f15-growth" });
    rows[m.key] = { value: value, growth: growth };
    body.appendChild(el("tr", { "data-mech": m.key },
      el("th", { scope: "row" }, swatch(m.key), el("span", { text: m.label })), value, growth));
  });
  var table = el("table", { class: "f15-table" }, caption,
    el("thead", {}, el("tr", {}, el("th", { scope: "col", text: "Curve" }), unitHead,
      el("th", { scope: "col", text: "× when N doubles" }))), body);

  var constants = el("span");
  constants.innerHTML = data.constants_html;  // rendered at build time from the builder's Markdown
  var note = el("p", { class: "f15-note" });
  note.innerHTML = data.note_html;

  mount.appendChild(el("div", { class: "f15" },
    el("div", { class: "f15-controls" },
      el("span", { class: "k3-label", text: "Plot" }), switcher.node, slider.node),
    el("div", { class: "f15-grid" }, plot, el("div", { class: "f15-side" }, table,
      el("p", { class: "f15-consts" }, el("span", { class: "badge badge-illustrative", text: "Illustrative" }), " ", constants),
      note))));

  function swatch(key) {
    var look = LOOK[key];
    return el("svg:svg", { class: "f15-swatch", width: 26, height: 10, viewBox: "0 0 26 10", "aria-hidden": "true" },
      el("svg:line", { x1: 1, y1: 5, x2: 25, y2: 5, stroke: css(look.color), "stroke-width": Math.min(look.width, 4),
        "stroke-dasharray": look.svg || null }));
  }

  /* ---------- painting ---------- */
  function paintTable() {
    var M = data.metrics[metric];
    caption.textContent = M.label + " at N = " + fmtN(idx) + " tokens";
    unitHead.textContent = M.unit ? M.label + " (" + M.unit + "s)" : M.label + " (elements)";
    data.mechanisms.forEach(function (m) {
      rows[m.key].value.textContent = fmtValue(M.values[m.key][idx]);
      rows[m.key].growth.textContent = "×" + W.fmt(M.growth[m.key][idx], 2);
    });
    plot.setAttribute("aria-label", "Log–log chart of " + M.axis + " against sequence length N for " +
      data.mechanisms.length + " mechanisms; the marker is at N = " + fmtN(idx) + " tokens.");
  }
  function narrate() {
    var M = data.metrics[metric];
    ctx.narrate(M.label + " at N = " + fmtN(idx) + " tokens: " + data.mechanisms.map(function (m) {
      return m.short + " " + fmtValue(M.values[m.key][idx]);
    }).join(", ") + ".");
  }

  var Plotly = null;
  function traces() {
    var M = data.metrics[metric];
    var curves = data.mechanisms.map(function (m) {
      var look = LOOK[m.key];
      return { type: "scatter", mode: "lines", name: m.label, x: data.n, y: M.values[m.key], hoverinfo: "none",
        line: { color: css(look.color), dash: look.dash, width: look.width } };
    });
    return curves.concat([
      { type: "scatter", mode: "lines", x: [data.n[idx], data.n[idx]], y: M.y_span, hoverinfo: "none",
        line: { color: css("--ink"), width: 1.5 } },
      { type: "scatter", mode: "markers", x: data.mechanisms.map(function () { return data.n[idx]; }),
        y: data.mechanisms.map(function (m) { return M.values[m.key][idx]; }), hoverinfo: "none",
        marker: { size: 9, color: data.mechanisms.map(function (m) { return css(LOOK[m.key].color); }),
          line: { color: css("--paper"), width: 1.5 } } },
    ]);
  }
  function layout() {
    var M = data.metrics[metric], grid = css("--rule");
    var axis = { type: "log", fixedrange: true, gridcolor: grid, linecolor: grid, zeroline: false, ticks: "outside",
      tickcolor: grid };
    return W.chartLayout(mount, {
      height: plotHeight(), margin: MARGIN, showlegend: false, hovermode: false,
      xaxis: Object.assign({}, axis, { range: data.x_range, tickvals: data.x_ticks, ticktext: data.x_tick_labels,
        title: { text: "sequence length N (tokens)", standoff: 8 } }),
      yaxis: Object.assign({}, axis, { range: M.y_range, exponentformat: "power", dtick: 2,
        title: { text: M.axis, standoff: 6 } }),
    });
  }
  function plotHeight() { return mount.clientWidth < 560 ? 300 : 380; }
  function redraw(full) {
    if (!Plotly) return;
    if (full) { Plotly.react(plot, traces(), layout()); return; }
    var t = traces(), n = data.mechanisms.length;  // only the marker line and its dots move
    Plotly.restyle(plot, { x: [t[n].x, t[n + 1].x], y: [t[n].y, t[n + 1].y] }, [n, n + 1]);
  }

  /* ---------- state changes ---------- */
  function commit(push) { ctx.state.set({ metric: metric, n: data.n[idx] }, { push: push }); }
  function setIndex(i, how) {
    i = Math.max(0, Math.min(K - 1, i));
    if (i === idx && how !== "restore") return;
    idx = i;
    slider.set(idx);
    paintTable();
    narrate();
    redraw(false);
  }
  function setMetric(m, how) {
    m = pickMetric(m);
    if (m === metric && how !== "restore") return;
    metric = m;
    switcher.set(metric);
    paintTable();
    narrate();
    redraw(true);
    if (how !== "restore") commit(how === "click" || how === "key");
  }

  /* Dragging or tapping the chart moves the marker: the x axis spans the grid's ends and the
   * grid is evenly spaced in log N, so the pointer's place across the plot area is the index. */
  W.scrub({ node: plot, margin: MARGIN, count: K,
    onIndex: function (i) { setIndex(i, "drag"); }, onEnd: function () { commit(true); } });

  paintTable();
  narrate();
  return ctx.plotly().then(function (P) {
    Plotly = P;
    return Plotly.newPlot(plot, traces(), layout(), { displayModeBar: false, responsive: true, staticPlot: false });
  }).then(function () {
    return {
      restore: function (s) {
        setMetric(s.metric, "restore");
        setIndex(indexOfN(s.n), "restore");
      },
    };
  });
});
