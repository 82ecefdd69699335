/* FIG 15b · Chunk size trade-off: the terms of a chunked layer's cost against chunk size C
 * (log–log), a marker at the chosen C, and readouts of each term, its share, the total, the cost
 * per token and the total against quadratic attention. Two cost models: plain linear attention
 * (madds) and KDA's eq. 13 (FLOPs). Every number is computed by the builder. */
K3.register("fig-15b-chunk-size", function (mount, data, ctx) {
  "use strict";
  var W = window.K3W, el = W.el;
  var K = data.c.length;
  var MARGIN = { l: 62, r: 14, t: 12, b: 46 };
  var TERM_LOOK = { state: { color: "--violet", dash: "solid" }, chunk: { color: "--blue", dash: "dash" },
    local: { color: "--orange", dash: "dot" } };
  var SYM = { state: "ck-state", chunk: "ck-chunk" };

  var initial = ctx.state.get();
  var viewKey = pickView(initial.view);
  var idx = indexOfC(initial.c);

  function pickView(v) { return data.views[v] ? v : "linear"; }
  function indexOfC(c) {  // the grid position of a chunk size from the URL (a lookup)
    var i = data.c.indexOf(+c);
    return i < 0 ? data.c_default_index : i;
  }
  var css = W.css(mount);
  function V() { return data.views[viewKey]; }
  function amount(x) { return W.si(x) + " " + V().unit; }
  function pct(x) { return W.fmt(100 * x, 1) + "%"; }

  /* ---------- controls ---------- */
  var switcher = W.choice({
    label: "Cost model",
    options: data.view_order.map(function (v) {
      return { value: v, text: data.views[v].label, aria: data.views[v].label + " cost, in " + data.views[v].unit };
    }),
    value: viewKey,
    onChange: function (v, how) { setView(v, how); },
  });
  var slider = W.slider({
    label: "Chunk size", values: data.c, index: idx,
    format: function (c) { return "C = " + W.int(c); },
    onInput: function (i) { setIndex(i, "input"); },
  });
  slider.input.setAttribute("data-sym", "ck-c");
  slider.input.addEventListener("change", function () { commit(true); });

  /* ---------- readouts ---------- */
  var formula = el("p", { class: "f15b-formula" });
  var termBody = el("tbody");
  var totalCell = el("td", { class: "k3-num f15b-total" });
  var perTokenCell = el("td", { class: "k3-num f15b-per-token" });
  var quadCell = el("td", { class: "k3-num f15b-quadratic" });
  var ofQuadCell = el("td", { class: "k3-num f15b-of-quadratic" });
  var quadLabel = el("span");
  var caption = el("caption");
  var readouts = el("table", { class: "f15b-table" }, caption, termBody,
    el("tbody", { class: "f15b-sums" },
      el("tr", {}, el("th", { scope: "row" }, line("--ink", 4, null), el("span", { text: "total" })), totalCell, el("td")),
      el("tr", {}, el("th", { scope: "row", text: "per token" }), perTokenCell, el("td")),
      el("tr", {}, el("th", { scope: "row" }, line("--accent", 2, "8 3"), quadLabel), quadCell, el("td")),
      el("tr", {}, el("th", { scope: "row", text: "total ÷ quadratic" }), ofQuadCell, el("td"))));
  var split = el("div", { class: "f15b-split", "aria-hidden": "true" });
  var regime = el("p", { class: "f15b-regime" });
  var termCells = {};

  function buildTerms() {  // the term rows differ per view (two terms or three)
    termBody.textContent = "";
    split.textContent = "";
    termCells = {};
    V().terms.forEach(function (t) {
      var value = el("td", { class: "k3-num f15b-value" }), share = el("td", { class: "k3-num f15b-share" });
      var seg = el("span", { class: "f15b-seg", "data-sym": SYM[t.key] });
      seg.style.background = css(TERM_LOOK[t.key].color);
      split.appendChild(seg);
      termCells[t.key] = { value: value, share: share, seg: seg };
      termBody.appendChild(el("tr", { "data-term": t.key, "data-sym": SYM[t.key] },
        el("th", { scope: "row" }, swatch(t.key), el("span", { text: t.label })), value, share));
    });
    formula.innerHTML = V().formula_html;  // rendered (KaTeX) at build time
    quadLabel.textContent = V().quadratic_label;
  }
  function swatch(key) {
    var dash = TERM_LOOK[key].dash;
    return line(TERM_LOOK[key].color, 3, dash === "dash" ? "5 3" : dash === "dot" ? "2 2" : null);
  }
  function line(color, width, dasharray) {  // a legend key matching a chart line
    return el("svg:svg", { class: "f15b-swatch", width: 22, height: 10, viewBox: "0 0 22 10", "aria-hidden": "true" },
      el("svg:line", { x1: 1, y1: 5, x2: 21, y2: 5, stroke: css(color), "stroke-width": width, "stroke-dasharray": dasharray }));
  }

  var plot = el("div", { class: "f15b-plot", role: "img" });
  var sweet = el("p", { class: "f15b-sweet" }, el("span", { class: "f15b-band", "aria-hidden": "true" }));
  sweet.insertAdjacentHTML("beforeend", " " + data.sweet_html);
  var consts = el("p", { class: "f15b-consts" }, el("span", { class: "badge badge-illustrative", text: "Illustrative" }));
  consts.insertAdjacentHTML("beforeend", " " + data.constants_html);

  mount.appendChild(el("div", { class: "f15b" },
    el("div", { class: "f15b-controls" }, el("span", { class: "k3-label", text: "Model" }), switcher.node, slider.node),
    el("div", { class: "f15b-grid" },
      el("div", {}, plot, sweet),
      el("div", { class: "f15b-side" }, formula, readouts, split, regime, consts))));

  function paint() {
    var v = V();
    caption.textContent = "At C = " + W.int(data.c[idx]) + ", N = " + W.int(data.n_tokens);
    v.terms.forEach(function (t) {
      termCells[t.key].value.textContent = amount(t.values[idx]);
      termCells[t.key].share.textContent = pct(t.share[idx]);
      termCells[t.key].seg.style.flexGrow = t.share[idx];
    });
    totalCell.textContent = amount(v.total[idx]);
    perTokenCell.textContent = amount(v.per_token[idx]);
    quadCell.textContent = amount(v.quadratic);
    ofQuadCell.textContent = "×" + W.fmt(v.of_quadratic[idx], 3);
    regime.textContent = data.regimes[idx];
    plot.setAttribute("aria-label", "Log–log chart of the " + v.label + " cost terms against chunk size C from " +
      W.int(data.c[0]) + " to " + W.int(data.c[K - 1]) + "; the marker is at C = " + W.int(data.c[idx]) + ".");
  }
  function narrate() {
    var v = V();
    ctx.narrate(v.label + ", C = " + W.int(data.c[idx]) + ": " + v.terms.map(function (t) {
      return t.label + " " + amount(t.values[idx]);
    }).join(", ") + "; total " + amount(v.total[idx]) + ", " + W.fmt(v.of_quadratic[idx], 3) +
      " times quadratic attention.");
  }

  /* ---------- chart ---------- */
  var Plotly = null;
  function traces() {
    var v = V(), c = data.c, ink = css("--ink");
    var band = { type: "scatter", mode: "lines", hoverinfo: "none", fill: "toself", opacity: 0.22,
      x: [data.sweet_spot[0], data.sweet_spot[0], data.sweet_spot[1], data.sweet_spot[1]],
      y: [v.y_span[0], v.y_span[1], v.y_span[1], v.y_span[0]],
      fillcolor: css("--green"), line: { width: 0 } };
    var terms = v.terms.map(function (t) {
      return { type: "scatter", mode: "lines", hoverinfo: "none", x: c, y: t.values,
        line: { color: css(TERM_LOOK[t.key].color), dash: TERM_LOOK[t.key].dash, width: 2.5 } };
    });
    var total = { type: "scatter", mode: "lines", hoverinfo: "none", x: c, y: v.total, line: { color: ink, width: 4 } };
    var quad = { type: "scatter", mode: "lines", hoverinfo: "none", x: [c[0], c[K - 1]], y: [v.quadratic, v.quadratic],
      line: { color: css("--accent"), dash: "longdash", width: 2 } };
    return [band].concat(terms, [total, quad], markers());
  }
  function markers() {  // the last two traces: the vertical marker and its dots
    var v = V(), c = data.c[idx];
    var ys = v.terms.map(function (t) { return t.values[idx]; }).concat([v.total[idx]]);
    var colors = v.terms.map(function (t) { return css(TERM_LOOK[t.key].color); }).concat([css("--ink")]);
    return [
      { type: "scatter", mode: "lines", hoverinfo: "none", x: [c, c], y: v.y_span, line: { color: css("--ink-3"), width: 1.5 } },
      { type: "scatter", mode: "markers", hoverinfo: "none", x: ys.map(function () { return c; }), y: ys,
        marker: { size: 9, color: colors, line: { color: css("--paper"), width: 1.5 } } },
    ];
  }
  function layout() {
    var v = V(), grid = css("--rule");
    var axis = { type: "log", fixedrange: true, gridcolor: grid, linecolor: grid, zeroline: false, ticks: "outside", tickcolor: grid };
    return W.chartLayout(mount, {
      height: mount.clientWidth < 560 ? 280 : 340, margin: MARGIN, showlegend: false, hovermode: false,
      xaxis: Object.assign({}, axis, { range: data.x_range, tickvals: data.c.filter(tickEvery(mount.clientWidth < 560 ? 3 : 2)),
        title: { text: "chunk size C (tokens)", standoff: 8 } }),
      yaxis: Object.assign({}, axis, { range: v.y_range, exponentformat: "power", dtick: 1,
        title: { text: v.unit + " per head", standoff: 6 } }),
    });
  }
  function tickEvery(k) {  // every k-th power of two, plus the last one when there is room
    return function (c, i) { return i % k === 0 || (k === 2 && i === K - 1); };
  }
  function redraw(full) {
    if (!Plotly) return;
    if (full) { Plotly.react(plot, traces(), layout()); return; }
    var n = plot.data.length, m = markers();
    Plotly.restyle(plot, { x: [m[0].x, m[1].x], y: [m[0].y, m[1].y] }, [n - 2, n - 1]);
  }

  /* ---------- state changes ---------- */
  function commit(push) { ctx.state.set({ view: viewKey, c: data.c[idx] }, { push: push }); }
  function setIndex(i, how) {
    i = Math.max(0, Math.min(K - 1, i));
    if (i === idx && how !== "restore") return;
    idx = i;
    slider.set(idx);
    paint();
    narrate();
    redraw(false);
  }
  function setView(v, how) {
    v = pickView(v);
    if (v === viewKey && how !== "restore") return;
    viewKey = v;
    switcher.set(v);
    buildTerms();
    paint();
    narrate();
    redraw(true);
    if (how !== "restore") commit(how === "click" || how === "key");
  }
  W.scrub({ node: plot, margin: MARGIN, count: K,
    onIndex: function (i) { setIndex(i, "drag"); }, onEnd: function () { commit(true); } });

  buildTerms();
  paint();
  narrate();
  return ctx.plotly().then(function (P) {
    Plotly = P;
    return Plotly.newPlot(plot, traces(), layout(), { displayModeBar: false, responsive: true });
  }).then(function () {
    return {
      restore: function (s) {
        setView(s.view, "restore");
        setIndex(indexOfC(s.c), "restore");
      },
    };
  });
});
