/* K3W widgets: FIG 09's bar chart — decode memory per layer, one bar per layer coloured by its kind,
 * on one log scale per size set (fixed over every context length, so dragging N visibly grows the
 * MLA bars against the flat KDA ones; a linear axis refit to each N hid that). It lives here, not
 * in the figure file, only to keep each file small; nothing else uses it.
 *
 * Drawn in HTML, not Plotly: an input changes a few bar heights, which a style write repaints
 * within a frame, where a Plotly redraw of the whole chart took ~80–100 ms per input. A draw
 * writes only the bars whose kind or height changed; the plot area is a layout boundary
 * (contain: size layout, in the sheet), so a bar's height transition re-lays out the bars alone.
 *
 * K3W.f09LayerChart({onPick(i), yTitle(v), label(v), tip(v, i)}) → {plot, draw(v), mark(i)}
 *   v: the figure's view (layout, perLayer(kind), N, cset, C); mark(i) outlines bar i and shows
 *   its value (-1: none); onPick(i): a bar was clicked. The figure gives the texts (its data's):
 *   yTitle(v) the axis title, label(v) the chart's spoken name, tip(v, i) bar i's value.
 * Each bar carries its value (data-value); the scale's ends in log10 are on the plot (data-lo,
 * data-hi), so tests read what is drawn.
 */
(function () {
  "use strict";
  var W = window.K3W, el = W.el;
  W.f09LayerChart = function (opts) {
    var yTitle = el("p", { class: "f09-ytitle k3-axis-title" });
    var grid = el("div", { class: "f09-gridlines", "aria-hidden": "true" });
    var bars = el("div", { class: "f09-bars" });
    var ticks = el("div", { class: "f09-xticks", "aria-hidden": "true" });
    var tip = el("p", { class: "f09-tip", "aria-hidden": "true", hidden: "" });
    var plot = el("div", { class: "f09-plot", role: "img", "data-graphic": "chart" },
      yTitle, el("div", { class: "f09-area" }, grid, bars, tip), ticks,
      el("p", { class: "f09-xtitle k3-axis-title", text: "layer" }));
    var shown = null, marked = -1, scaleOf = null, ticksFor = 0, drawn = [], scales = {};

    /* one log10 range per size set, spanning every context's per-layer value */
    function scale(C) {
      var key = C.mla_per_layer.join(",") + "|" + C.kda_per_layer;
      if (!scales[key]) {
        var vals = C.mla_per_layer.concat([C.kda_per_layer]);
        var lo = Math.log10(Math.min.apply(null, vals)), hi = Math.log10(Math.max.apply(null, vals));
        scales[key] = { lo: Math.floor(lo) - 0.05, hi: hi + 0.15, key: key };
      }
      return scales[key];
    }
    function pct(y, s) { return 100 * (Math.log10(y) - s.lo) / (s.hi - s.lo); }

    function paintScale(v) {
      if (scaleOf === v.cset) return;
      scaleOf = v.cset;
      var s = scale(v.C);
      plot.dataset.lo = s.lo;
      plot.dataset.hi = s.hi;
      yTitle.textContent = opts.yTitle(v);
      grid.textContent = "";
      for (var d = Math.ceil(s.lo); d <= s.hi; d++) {
        grid.appendChild(el("span", { class: "f09-gridline", style: "bottom: " + pct(Math.pow(10, d), s) + "%" },
          el("span", { class: "f09-ylabel", text: "10" + W.sup(d) })));
      }
    }
    function paintTicks(n) {
      if (ticksFor === n) return;
      ticksFor = n;
      var step = n <= 16 ? 1 : n <= 32 ? 4 : 10;
      ticks.textContent = "";
      for (var i = 1; i <= n; i++) {
        if (i === 1 || i % step === 0) ticks.appendChild(el("span", { style: "left: " + (100 * (i - 0.5) / n) + "%", text: String(i) }));
      }
    }
    function paintBars(v) {  // writes only the bars whose kind or height changed
      var s = scale(v.C);
      while (bars.children.length > v.layout.length) { bars.lastChild.remove(); drawn.pop(); }
      while (bars.children.length < v.layout.length) {
        bars.appendChild(el("span", { class: "f09-col", "data-i": bars.children.length }, el("span", { class: "f09-barv" })));
        drawn.push({});
      }
      v.layout.forEach(function (k, i) {
        var bar = bars.children[i].firstChild, y = v.perLayer(k), was = drawn[i];
        if (was.k !== k) {
          was.k = k;
          bar.className = "f09-barv is-" + k + (i === marked ? " is-marked" : "");
        }
        if (was.y !== y || was.s !== s.key) {
          was.y = y;
          was.s = s.key;
          bar.dataset.value = y;
          bar.style.height = pct(y, s) + "%";
        }
      });
    }
    function paintTip() {
      var v = shown, i = marked;
      if (!v || i < 0 || i >= v.layout.length) { if (!tip.hidden) tip.hidden = true; return; }
      tip.textContent = opts.tip(v, i);
      tip.hidden = false;
      tip.classList.toggle("is-left", (i + 0.5) / v.layout.length > 0.5);  // keep it inside the plot
      tip.style.left = (100 * (i + 0.5) / v.layout.length) + "%";
    }

    bars.addEventListener("click", function (e) {
      var col = e.target.closest(".f09-col");
      if (col && opts.onPick) opts.onPick(+col.dataset.i);
    });
    bars.addEventListener("pointerover", function (e) {
      var col = e.target.closest(".f09-col");
      if (col) api.mark(+col.dataset.i);
    });
    bars.addEventListener("pointerleave", function () { api.mark(-1); });

    var api = {
      plot: plot,
      draw: function (v) {
        shown = v;
        plot.setAttribute("aria-label", opts.label(v));
        paintScale(v);
        paintTicks(v.layout.length);
        paintBars(v);
        paintTip();
      },
      mark: function (i) {
        if (marked === i) return;
        var old = bars.children[marked];
        if (old) old.firstChild.classList.remove("is-marked");
        marked = i;
        if (bars.children[i]) bars.children[i].firstChild.classList.add("is-marked");
        paintTip();
      },
    };
    return api;
  };
})();
