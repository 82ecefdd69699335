/* K3W widgets: a chart scrubber — a log–log Plotly chart over an evenly spaced grid (e.g. N or a
 * chunk size on a geometric grid), a marker at one grid point (a vertical line and a dot on each
 * curve), a slider over the same grid for keyboard users, and W.scrub along the chart for the
 * pointer. Used by FIG 15 and FIG 15b; the component keeps only what differs (its curves, the
 * marker's dots, its axes and its readouts) and owns the state.
 *   W.scrubber(opts) → {slider, plot, css, start(Plotly, i) → promise, show(i, full)}
 *   opts: {mount, values, index, plotClass, margin: {l, r, t, b},
 *          slider: {label, format(v) → text, aria?, sym?},
 *          curves() → Plotly traces (colours via .css), marker(i) → {span: [y0, y1], line: "--var",
 *          dots: [[y, "--var"], …]}, axes() → {height, x: {…}, y: {…}, annotations?: […]} (x and y are
 *          merged into log axes; annotations, e.g. direct labels on the curves, are drawn as given),
 *          onIndex(i, "input" | "drag"), onEnd() (a slider or drag gesture is over)}
 *   show(i, full): moves the slider and the marker to grid point i; full redraws curves and axes.
 * Also here, for figures with a slider over a grid:
 *   W.gridState(values, def, format?) a state type (K3.state.oneOf) whose link value is read as
 *                                     the grid value nearest it ("3.0", "3" and a stale 2.9 all
 *                                     open a valid view), written as format(v) (default String).
 *   W.lineKey(cls, width, color, strokeWidth, dash) a small SVG line matching a chart line
 *                                     (a readout table's row key; legend rows are W.legend's).
 */
(function () {
  "use strict";
  var W = window.K3W, el = W.el;

  W.gridState = function (values, def, format) {
    var type = window.K3.state.oneOf(values, def);
    function nearest(x) {
      var v = +x;
      return String(x).trim() === "" || !isFinite(v) ? undefined : values[W.nearest(values, v)];
    }
    type.parse = function (text) { var v = text === undefined ? undefined : nearest(text); return v === undefined ? def : v; };
    type.clamp = function (v) { var x = nearest(v); return x === undefined ? def : x; };
    if (format) type.format = format;
    return type;
  };

  W.lineKey = function (cls, width, color, strokeWidth, dash) {
    return el("svg:svg", { class: cls, width: width, height: 10, viewBox: "0 0 " + width + " 10", "aria-hidden": "true" },
      el("svg:line", { x1: 1, y1: 5, x2: width - 1, y2: 5, stroke: color, "stroke-width": strokeWidth, "stroke-dasharray": dash || null }));
  };

  W.scrubber = function (opts) {
    var values = opts.values, count = values.length, css = W.css(opts.mount);
    var Plotly = null, shown = opts.index;
    var slider = W.slider({
      label: opts.slider.label, values: values, index: opts.index, format: opts.slider.format,
      onInput: function (i) { opts.onIndex(i, "input"); },
    });
    if (opts.slider.aria) slider.input.setAttribute("aria-label", opts.slider.aria);
    if (opts.slider.sym) slider.input.setAttribute("data-sym", opts.slider.sym);
    slider.input.addEventListener("change", function () { opts.onEnd(); });  // a finished slide or key press
    var plot = el("div", { class: opts.plotClass, role: "img", "data-graphic": "chart" });
    /* the x axis spans the grid's ends evenly, so a pointer's place across the plot area is the index */
    W.scrub({ node: plot, margin: opts.margin, count: count,
      onIndex: function (i) { opts.onIndex(i, "drag"); }, onEnd: opts.onEnd });

    function markerTraces(i) {  // always the last two traces: the vertical line and its dots
      var m = opts.marker(i), x = values[i];
      return [
        { type: "scatter", mode: "lines", hoverinfo: "none", x: [x, x], y: m.span, line: { color: css(m.line), width: 1.5 } },
        { type: "scatter", mode: "markers", hoverinfo: "none", x: m.dots.map(function () { return x; }),
          y: m.dots.map(function (d) { return d[0]; }),
          marker: { size: 9, color: m.dots.map(function (d) { return css(d[1]); }), line: { color: css("--paper"), width: 1.5 } } },
      ];
    }
    function layout() {
      var a = opts.axes(), grid = css("--rule");
      var axis = { type: "log", fixedrange: true, gridcolor: grid, linecolor: grid, zeroline: false, ticks: "outside", tickcolor: grid };
      return W.chartLayout(opts.mount, { height: a.height, margin: opts.margin, showlegend: false, hovermode: false,
        xaxis: Object.assign({}, axis, a.x), yaxis: Object.assign({}, axis, a.y), annotations: a.annotations || [] });
    }
    function traces(i) { return opts.curves().concat(markerTraces(i)); }

    return {
      slider: slider, plot: plot, css: css,
      start: function (P, i) {
        Plotly = P;
        shown = i;
        return Plotly.newPlot(plot, traces(i), layout(), { displayModeBar: false, responsive: true });
      },
      show: function (i, full) {
        slider.set(i);
        if (!Plotly || (!full && i === shown)) return;
        shown = i;
        if (full) { Plotly.react(plot, traces(i), layout()); return; }
        var n = plot.data.length, m = markerTraces(i);
        Plotly.restyle(plot, { x: [m[0].x, m[1].x], y: [m[0].y, m[1].y] }, [n - 2, n - 1]);
      },
    };
  };
})();
