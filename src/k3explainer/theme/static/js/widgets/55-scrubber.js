/* K3W widgets: a chart scrubber — a log–log Plotly chart over an evenly spaced grid (e.g. N or a
 * chunk size on a geometric grid), a marker at one grid point (a vertical line and a dot on each
 * curve), a slider over the same grid for keyboard users, and W.scrub along the chart for the
 * pointer. Used by FIG 15 and FIG 15b; the component keeps only what differs (its curves, the
 * marker's dots, its axes and its readouts) and owns the state.
 *   W.scrubber(opts) → {slider, plot, node, css, start(Plotly, i) → promise, show(i, full, view)}
 *   opts: {mount, values, index, plotClass, margin: {l, r, t, b}, views?, view?,
 *          slider: {label, format(v) → text, aria?, sym?},
 *          curves() → Plotly traces (colours via .css), marker?(i) → {span: [y0, y1], line: "--var",
 *          dots: [[y, "--var"], …]}, axes() → {height, x: {…}, y: {…}, annotations?: […]} (x and y are
 *          merged into log axes; annotations, e.g. direct labels on the curves, are drawn as given),
 *          onIndex(i, "input" | "drag"), onEnd() (a slider or drag gesture is over)}
 *   views, view: names of quantities the chart can plot over the same grid (FIG 15: compute,
 *         memory) and the one shown first. Each view is its own Plotly chart, all drawn at start
 *         and stacked in one place, so switching shows another chart instead of redrawing one (a
 *         Plotly.react with new curves and a new y axis took 50–70 ms to paint); curves(view),
 *         axes(view) and marker(i, view) are asked per view. Without views: one chart, view null.
 *   node: the chart (every view's) with the marker laid over it (place it where the chart goes);
 *         without opts.marker (a component that draws its own cursor) it holds the chart alone.
 *   plot: the chart shown now.
 *   show(i, full, view): moves the slider and the marker to grid point i, on `view` if given;
 *         full redraws the shown chart's curves and axes.
 * The marker is an SVG over the plot area, not two more Plotly traces: Plotly relays out the whole
 * chart on any restyle (24–35 ms of script per step under a dragging finger), and a move is two
 * attribute writes per dot here. It sits where Plotly's log axes put the point (the axes' last
 * layout, a JS object: no DOM read) and takes its colours from CSS variables, so it follows the
 * colour scheme without a redraw.
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
    var views = opts.views || [null], view = opts.views ? opts.view : null, plots = {};
    var slider = W.slider({
      label: opts.slider.label, values: values, index: opts.index, format: opts.slider.format,
      onInput: function (i) { opts.onIndex(i, "input"); },
    });
    if (opts.slider.aria) slider.input.setAttribute("aria-label", opts.slider.aria);
    if (opts.slider.sym) slider.input.setAttribute("data-sym", opts.slider.sym);
    slider.input.addEventListener("change", function () { opts.onEnd(); });  // a finished slide or key press
    views.forEach(function (v) {
      plots[v] = el("div", { class: opts.plotClass, role: "img", "data-graphic": "chart", "data-view": v });
    });
    // the views share one box (one grid cell); only the shown one is visible, to eyes and to
    // screen readers (visibility, not display: Plotly cannot size a chart that is not laid out)
    var area = views.length > 1 ? el("div", { class: "k3-scrub-views" }) : plots[view];
    if (views.length > 1) views.forEach(function (v) { area.appendChild(plots[v]); });
    /* the x axis spans the grid's ends evenly, so a pointer's place across the plot area is the index */
    W.scrub({ node: area, margin: opts.margin, count: count,
      onIndex: function (i) { opts.onIndex(i, "drag"); }, onEnd: opts.onEnd });

    var marker = opts.marker ? markerOverlay(opts.marker) : null;
    var node = marker ? el("div", { class: "k3-scrub-wrap" }, area, marker.node) : area;

    function layout(v) {
      var a = opts.axes(v), grid = css("--rule");
      var axis = { type: "log", fixedrange: true, gridcolor: grid, linecolor: grid, zeroline: false, ticks: "outside", tickcolor: grid };
      return W.chartLayout(opts.mount, { height: a.height, margin: opts.margin, showlegend: false, hovermode: false,
        xaxis: Object.assign({}, axis, a.x), yaxis: Object.assign({}, axis, a.y), annotations: a.annotations || [] });
    }
    function place(i) { if (marker) marker.place(plots[view]._fullLayout, values[i], i, view); }
    function reveal() {
      views.forEach(function (v) { plots[v].classList.toggle("k3-scrub-off", v !== view); });
      api.plot = plots[view];
    }

    var api = {
      slider: slider, plot: plots[view], node: node, css: css,
      start: function (P, i) {
        Plotly = P;
        shown = i;
        reveal();
        function draw(v) {
          if (!plots[v].isConnected) return null;  // the figure was taken down in the meantime
          return Plotly.newPlot(plots[v], opts.curves(v), layout(v), { displayModeBar: false, responsive: true }).then(function () {
            // a resize or a redraw gives the chart new axes: the marker follows the shown one
            if (marker) plots[v].on("plotly_afterplot", function () { if (v === view) place(shown); });
          });
        }
        // the view in sight first, then each other one in a task of its own, so starting the
        // figure never holds the page for more than one chart's drawing (~25 ms here)
        return views.filter(function (v) { return v !== view; }).reduce(function (before, v) {
          return before.then(function () { return new Promise(function (r) { setTimeout(r, 0); }); })
            .then(function () { return draw(v); });
        }, Promise.resolve(draw(view)).then(function () { place(i); }));
      },
      show: function (i, full, v) {
        slider.set(i);
        var switched = v !== undefined && v !== view;
        if (switched) { view = v; reveal(); }
        if (!Plotly || (!full && !switched && i === shown)) return;
        shown = i;
        if (full) Plotly.react(plots[view], opts.curves(view), layout(view));  // (its afterplot places the marker)
        else place(i);
      },
    };
    return api;
  };

  /* The marker: a vertical line over a span of the y axis and a dot on each curve, in plot-area
   * pixels from the axes' log ranges. A dot off the axis (or at a value a log axis cannot show)
   * is hidden, as Plotly clips its markers to the plot area. */
  function markerOverlay(spec) {
    var line = el("svg:line", { class: "k3-scrub-line", "stroke-width": 1.5 });
    var dots = [], group = el("svg:g");
    var svg = el("svg:svg", { class: "k3-scrub-marker", "aria-hidden": "true" }, line, group);
    return {
      node: svg,
      place: function (fl, x, i, view) {
        if (!fl || !fl.xaxis) return;
        var m = spec(i, view), xa = fl.xaxis, ya = fl.yaxis;
        function px(v) { return xa._offset + (Math.log10(v) - xa.range[0]) / (xa.range[1] - xa.range[0]) * xa._length; }
        function py(v) { return ya._offset + (ya.range[1] - Math.log10(v)) / (ya.range[1] - ya.range[0]) * ya._length; }
        var X = px(x);
        W.attr(line, "x1", X); W.attr(line, "x2", X);
        W.attr(line, "y1", py(m.span[0])); W.attr(line, "y2", py(m.span[1]));
        W.attr(line, "style", "stroke: var(" + m.line + ")");
        m.dots.forEach(function (d, k) {
          if (!dots[k]) group.appendChild(dots[k] = el("svg:circle", { class: "k3-scrub-dot", r: 4.5, "stroke-width": 1.5 }));
          var Y = py(d[0]), inside = isFinite(Y) && Y >= ya._offset - 0.5 && Y <= ya._offset + ya._length + 0.5;
          W.attr(dots[k], "cx", X); W.attr(dots[k], "cy", inside ? Y : 0);
          W.attr(dots[k], "visibility", inside ? null : "hidden");
          W.attr(dots[k], "style", "fill: var(" + d[1] + ")");
        });
      },
    };
  }
})();
