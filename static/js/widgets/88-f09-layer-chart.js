/* K3W widgets: FIG 09's bar chart — decode memory per layer, one bar per layer coloured by its kind,
 * on one log scale per size set (fixed over every context length, so dragging N visibly grows the
 * MLA bars against the flat KDA ones; a linear axis refit to each N hid that). It lives here, not
 * in the figure file, only to keep each file small; nothing else uses it.
 *
 * K3W.f09LayerChart({mount, names, sizes}) → {plot, draw(Plotly, v, first) → promise, mark(i)}
 *   v: the figure's view (layout, perLayer(kind), N, cset, C); mark(i) outlines bar i (-1: none).
 */
(function () {
  "use strict";
  var W = window.K3W, el = W.el;
  W.f09LayerChart = function (opts) {
    var plot = el("div", { class: "f09-plot", role: "img", "data-graphic": "chart" });
    var css = W.css(opts.mount), names = opts.names, sizes = opts.sizes;
    var Plotly = null, shown = null, marked = -1;

    function widths(v) { return v.layout.map(function (k, j) { return j === marked ? 2.5 : 0; }); }
    function traces(v) {
      var col = { mla: css("--blue"), kda: css("--violet") };
      return [{
        type: "bar", x: v.layout.map(function (k, i) { return i + 1; }), y: v.layout.map(v.perLayer),
        marker: { color: v.layout.map(function (k) { return col[k]; }), line: { color: css("--ink"), width: widths(v) } },
        customdata: v.layout.map(function (k) { return names[k]; }),
        hovertemplate: "layer %{x}: %{customdata}<br>%{y:,} elements<extra></extra>",
      }];
    }
    function layout(v) {
      var C = v.C, vals = C.mla_per_layer.concat([C.kda_per_layer]);
      var lo = Math.log10(Math.min.apply(null, vals)), hi = Math.log10(Math.max.apply(null, vals));
      return W.chartLayout(opts.mount, {
        margin: { l: 70, r: 8, t: 8, b: 36 }, height: plot.clientHeight || 250, bargap: 0.15,
        xaxis: { title: { text: "layer" }, fixedrange: true, range: [0.5, v.layout.length + 0.5], showgrid: false,
          tickmode: v.layout.length > 24 ? "auto" : "linear", dtick: 1 },
        yaxis: { title: { text: "elements per layer (log), " + sizes[v.cset] }, type: "log", fixedrange: true,
          range: [Math.floor(lo) - 0.05, hi + 0.15], gridcolor: css("--rule"), tickformat: "~s", dtick: 1, zeroline: false },
        showlegend: false,
      });
    }
    return {
      plot: plot,
      draw: function (P, v, first) {
        Plotly = P;
        shown = v;
        plot.setAttribute("aria-label", "Bar chart of decode memory per layer at N = " + W.int(v.N) +
          " tokens with " + sizes[v.cset] + ": each MLA layer " + W.int(v.perLayer("mla")) + " elements, each KDA layer " +
          W.int(v.perLayer("kda")) + ".");
        return Plotly[first ? "newPlot" : "react"](plot, traces(v), layout(v), { displayModeBar: false, responsive: true });
      },
      mark: function (i) {
        if (marked === i) return;
        marked = i;
        if (shown) Plotly.restyle(plot, { "marker.line.width": [widths(shown)] });
      },
    };
  };
})();
