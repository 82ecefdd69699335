/* FIG 15b · Why kernels pick a middle chunk size: the modelled time of one head's chunked pass
 * against chunk size C (log–log), split into its three terms (sequential steps, multiply-adds at
 * peak, time lost to small tiles), with the band where the total is near its minimum and a ring
 * at the minimum. The reader sets the cost model, the head width d and the per-step latency ℓ;
 * every curve, band and readout for every setting is computed by the builder, and every text written
 * there (the component places them: ctx.show, ctx.text). The chart's axes, the
 * C slider and scrubbing are W.scrubber's; the curves, band, ring, cursor and labels are drawn over
 * its plot by K3W.f15bOverlay, so no input makes Plotly draw (issue 16). */
(function () {
  "use strict";
  var MARGIN = { l: 66, r: 14, t: 12, b: 46 };
  /* home: where along the x axis (a fraction of the plot's width) each curve's direct label would
   * rather sit; K3W.f15bLabels moves it from there only as far as it must to touch nothing, and
   * falls back on a narrow form only where the label fits nowhere (a phone, a few settings and C) */
  var TIME = [
    { key: "steps", tag: "steps", home: 0.8, color: "--violet", dash: "solid", width: 2.5, svg: null },
    { key: "madds", tag: "multiply-adds", narrow: ["multiply-\nadds"], home: 0.1, color: "--blue", dash: "dash", width: 2.5, svg: "5 3" },
    { key: "tiles", tag: "small-tile loss", narrow: ["small-tile\nloss", "tile loss"], home: 0.25, color: "--orange", dash: "dot", width: 2.5, svg: "2 2" },
  ];
  var TOTAL = { key: "total", tag: "total", home: 0.85, color: "--ink", width: 4 };
  var SYM = { state: "ck-state", chunk: "ck-chunk" };

  K3.register("fig-15b-chunk-size", {
    state: function (data) {
      return { view: K3.state.oneOf(data.view_order, "linear"), c: K3.state.oneOf(data.c, data.c[data.c_default_index]),
        d: K3.state.oneOf(data.widths, data.d_default), lat: K3W.gridState(data.latencies, data.latency_default) };
    },
    setup: function (mount, data, ctx) {
      var W = window.K3W, el = W.el;
      var K = data.c.length, PO = data.per_octave;
      var st = ctx.get();
      function V(s) { return data.views[(s || st).view]; }
      function S(s) {  // one setting: the ℓ-free terms are stored once per head width
        s = s || st;
        var w = V(s).by_d[data.widths.indexOf(s.d)], l = w.by_lat[data.latencies.indexOf(s.lat)];
        return { work: w.work, time: { steps: l.steps, madds: w.madds, tiles: w.tiles, total: l.total }, band: l.band, zone: l.zone };
      }
      function at(s) { return data.c.indexOf(s.c); }
      /* where a setting's shipped texts are: paths into the data, for ctx.show and the templates' slots */
      function paths(s) {
        var d = data.widths.indexOf(s.d), m = data.latencies.indexOf(s.lat), v = ["views", s.view];
        var w = v.concat("by_d", d), l = w.concat("by_lat", m);
        return { view: v, width: w, lat: l, d: ["widths", d], latency: ["latency_text", m] };
      }
      function settingSlots(s, i) {
        var p = paths(s);
        return { d: p.d, lat: p.latency, band: p.lat.concat("band_text"), c: ["c_text", i] };
      }

      /* ---------- controls and chart ---------- */
      var switcher = W.choice({
        label: "Cost model",
        options: data.view_order.map(function (v) {
          return { value: v, text: data.views[v].label, aria: ctx.text(["views", v, "text", "option_aria"]) };
        }),
        value: st.view,
        onChange: function (v, how) { ctx.set({ view: v }, how); },
      });
      var widths = W.choice({
        label: "Head width d",
        options: data.widths.map(function (d, k) { return { value: d, text: ctx.text(["width_text", k]), aria: ctx.text(["width_aria", k]) }; }),
        value: st.d,
        onChange: function (d, how) { ctx.set({ d: +d }, how); },
      });
      var latency = W.slider({ label: "Per-step latency", values: data.latencies, index: data.latencies.indexOf(st.lat),
        format: function (x) { return ctx.text(["latency_text", data.latencies.indexOf(x)]); },
        onInput: function (i, how) { ctx.set({ lat: data.latencies[i] }, how); } });
      latency.input.addEventListener("change", function () { ctx.end(); });
      var chart = W.scrubber({
        mount: mount, values: data.c, index: at(st), plotClass: "f15b-plot", margin: MARGIN,
        slider: { label: "Chunk size", sym: "ck-c", format: function (c) { return ctx.text(["text", "slider"], { c: ["c_text", data.c.indexOf(c)] }); } },
        curves: function () { return []; },  // the overlay draws the curves, the band, the ring and the cursor; Plotly the axes
        axes: function () {
          var narrow = isNarrow(), y = V().y;
          drawnNarrow = narrow;
          drawnY = JSON.stringify(y);
          return {
            height: narrow ? 300 : 360,  // as the sheet's container query reserves
            // every second (narrow: third) power of two, plus the last one when there is room
            x: { range: data.x_range, title: { text: ctx.text(["text", "x_title"]), standoff: 8 },
              tickvals: data.c.filter(function (c, i) { return narrow ? i % 3 === 0 : i % 2 === 0 || i === K - 1; }) },
            y: { range: y.range, tickvals: y.tickvals, ticktext: y.ticktext,
              title: { text: ctx.text(["text", narrow ? "y_title_narrow" : "y_title"]), standoff: 6 } },
          };
        },
        onIndex: function (i, how) { ctx.set({ c: data.c[i] }, how); },
        onEnd: ctx.end,
      });
      /* Narrow by the plot's own width (fewer ticks, a shorter plot). Plotly's last layout holds it,
       * so a redraw reads no DOM; only the first draw measures (and Plotly measures then anyway). */
      var drawnNarrow = null, drawnY = null;
      function isNarrow() { var fl = chart.plot._fullLayout; return (fl ? fl.width : chart.plot.clientWidth) < 560; }
      /* The curves, the band, the ring, the cursor and the curve labels are an overlay
       * (K3W.f15bOverlay): Plotly draws the axes once (again on a resize), and an input, a scrub or
       * a new setting, writes the overlay's attributes only. Its geometry is the curves in plot-area
       * pixels, from Plotly's last layout (a JS object, not a DOM read). */
      var ALL = TIME.concat([TOTAL]), overlay = null, px = null, py = null;
      function drawOverlay() {
        var fl = chart.plot._fullLayout, s = S(), xr = data.x_range, yr = V().y.range;
        var w = fl.xaxis._length, h = fl.yaxis._length;
        px = function (c) { return (Math.log10(c) - xr[0]) / (xr[1] - xr[0]) * w; };
        py = function (t) { return (yr[1] - Math.log10(t)) / (yr[1] - yr[0]) * h; };
        if (!overlay) {
          overlay = W.f15bOverlay({ font: { family: fl.font.family, size: 12 }, dot: 4.5,
            labels: ALL.map(function (t, k) { return { text: t.tag, narrow: t.narrow, curve: k, home: t.home, color: t.color }; }),
            curves: ALL.map(function (t) { return { key: t.key, color: t.color, width: t.width, dash: dashOf(t.dash, t.width) }; }),
            ring: { r: 7.5, width: 3 } });  // Plotly's open circle of size 15, line 3
          chart.plot.parentNode.appendChild(overlay.node);
        }
        var xs = data.grid.map(px);
        overlay.draw({ ox: fl.xaxis._offset, oy: fl.yaxis._offset, w: w, h: h,
          band: { x0: px(s.band.lo), x1: px(s.band.hi) },
          ring: { x: px(s.band.best), y: py(s.band.min_time), r: 10 },  // the ring's radius and line, and a pixel
          curves: ALL.map(function (t) { return { x: xs, y: s.time[t.key].map(py), half: t.width / 2 }; }) });
        moveCursor(at(st));
      }
      /* Plotly's dash patterns (its drawing.dashStyle): dots and dashes of one and three times the
       * line width, at least 3 px */
      function dashOf(dash, width) {
        var u = Math.max(width, 3);
        return dash === "dot" ? u + " " + u : dash === "dash" ? 3 * u + " " + 3 * u : null;
      }
      function moveCursor(i) {
        var s = S();
        overlay.move(px(data.c[i]), ALL.map(function (t) { return py(s.time[t.key][i * PO]); }));
      }
      function line(color, width, dash) { return W.lineKey("f15b-swatch", 22, chart.css(color), width, dash); }

      /* ---------- readouts ---------- */
      var caption = el("caption");
      var workBody = el("tbody", { class: "f15b-work" });
      var workTotal = el("td", { class: "k3-num f15b-total" });
      var timeCells = {}, split = el("div", { class: "f15b-split" });
      var timeBody = el("tbody", { class: "f15b-time" },
        el("tr", { class: "f15b-head" }, ctx.show(el("th", { colspan: 3, scope: "colgroup" }), ["text", "time_head"])));
      TIME.forEach(function (t) {
        var value = el("td", { class: "k3-num f15b-tvalue" }), note = el("td", { class: "k3-num f15b-note" });
        var seg = el("span", { class: "f15b-seg" });
        seg.style.background = chart.css(t.color);
        split.appendChild(seg);
        timeCells[t.key] = { value: value, note: note, seg: seg };
        timeBody.appendChild(el("tr", { "data-time": t.key },
          el("th", { scope: "row" }, line(t.color, 3, t.svg), ctx.show(el("span"), ["time_labels", t.key])), value, note));
      });
      var timeTotal = el("td", { class: "k3-num f15b-ttotal" }), ofBest = el("td", { class: "k3-num f15b-of-best" });
      timeBody.appendChild(el("tr", { class: "f15b-sum" },
        el("th", { scope: "row" }, line("--ink", 4, null), ctx.show(el("span"), ["text", "total_time"])), timeTotal, ofBest));
      /* the total time drawn as its three terms' shares, inside the time rows it sums (under the
       * work rows it read as a split of the multiply-adds); the rows above carry its numbers */
      timeBody.appendChild(el("tr", { class: "f15b-split-row", "aria-hidden": "true" },
        ctx.show(el("td", { class: "f15b-split-label" }), ["text", "split_label"]), el("td", { colspan: 2 }, split)));
      var readouts = el("table", { class: "f15b-table" }, caption, timeBody, workBody);
      var regime = el("p", { class: "f15b-regime" });
      var formula = el("p", { class: "f15b-formula" });
      var bandNote = el("span", { class: "f15b-band-text" });
      var workCells = {};

      function buildTerms() {  // the work rows differ per view (two terms or three)
        workBody.textContent = "";
        workCells = {};
        workBody.appendChild(el("tr", { class: "f15b-head" },
          ctx.show(el("th", { colspan: 3, scope: "colgroup" }), ["views", st.view, "text", "work_head"])));
        S().work.forEach(function (t) {
          var value = el("td", { class: "k3-num f15b-value" }), share = el("td", { class: "k3-num f15b-share" });
          workCells[t.key] = { value: value, share: share };
          workBody.appendChild(el("tr", { "data-term": t.key, "data-sym": SYM[t.key] },
            ctx.show(el("th", { scope: "row" }), ["views", st.view, "labels", t.key]), value, share));
        });
        workBody.appendChild(el("tr", { class: "f15b-sum" }, ctx.show(el("th", { scope: "row" }), ["views", st.view, "total_label"]), workTotal, el("td")));
        W.html(formula, V().formula_html + ";<br>" + data.time_html);  // rendered (MathML) at build time
      }

      mount.appendChild(el("div", { class: "f15b" },
        el("div", { class: "f15b-controls" },
          el("div", { class: "k3-row" }, el("span", { class: "k3-label", text: "Model" }), switcher.node),
          el("div", { class: "k3-row" }, el("span", { class: "k3-label", text: "Head width" }), widths.node),
          latency.node, chart.slider.node),
        el("div", { class: "f15b-grid" },
          el("div", { class: "f15b-chart" }, el("div", { class: "f15b-plotwrap" }, chart.plot),
            el("p", { class: "f15b-sweet" }, el("span", { class: "f15b-band", "aria-hidden": "true" }), " ", bandNote, " ",
              W.html(el("span"), data.kernels_html))),
          el("div", { class: "f15b-side" }, formula, readouts, regime,
            el("details", { class: "f15b-consts" },
              el("summary", {}, el("span", { class: "badge badge-illustrative", text: "Illustrative" }), " the model's constants"),
              W.html(el("p"), data.constants_html))))));

      function paint(i) {
        var s = S(), p = paths(st), j = i * PO, slots = settingSlots(st, i), zone = s.zone[i];
        ctx.show(caption, ["text", "caption"], { c: slots.c, d: slots.d, lat: slots.lat });
        s.work.forEach(function (t) {
          ctx.show(workCells[t.key].value, p.width.concat("work_text", t.key, i));
          ctx.show(workCells[t.key].share, p.width.concat("share_text", t.key, i));
        });
        ctx.show(workTotal, p.width.concat("work_total_text", i));
        TIME.forEach(function (t) {
          ctx.show(timeCells[t.key].value, (t.key === "steps" ? p.lat : p.width).concat(t.key + "_text", i));
          timeCells[t.key].seg.style.flexGrow = s.time[t.key][j] / s.time.total[j];
        });
        ctx.show(timeCells.steps.note, ["steps_note", i]);
        ctx.show(timeCells.tiles.note, ["efficiency_text", i]);
        ctx.show(timeTotal, p.lat.concat("total_text", i));
        ctx.show(ofBest, ["text", "of_best"], { ratio: p.lat.concat("of_best_text", i) });
        ctx.show(regime, ["regimes", zone]);
        regime.setAttribute("data-zone", zone);
        ctx.show(bandNote, ["text", "shaded"], { band: slots.band });
        chart.plot.setAttribute("aria-label", ctx.text(p.view.concat("text", "chart"), slots));
      }

      return ctx.plotly().then(function (Plotly) { return chart.start(Plotly, at(st)); }).then(function () {
        drawOverlay();
        chart.plot.on("plotly_relayout", function () {  // a resize: the plot area has a new size
          if (isNarrow() !== drawnNarrow) chart.show(at(st), true);  // ticks and height follow the width
          drawOverlay();
        });
        return {
          render: function (state, prev) {
            var redraw = !prev || prev.view !== state.view || prev.d !== state.d || prev.lat !== state.lat;
            st = state;
            switcher.set(state.view);
            widths.set(state.d);
            latency.set(data.latencies.indexOf(state.lat));
            if (!prev || prev.view !== state.view) buildTerms();
            paint(at(state));
            if (prev && redraw) {  // new curves: the overlay draws them (Plotly only if the axes change)
              if (JSON.stringify(V().y) !== drawnY) chart.show(at(state), true);
              else chart.slider.set(at(state));
              drawOverlay();
            } else {  // a scrub: the slider and the overlay's cursor (labels it would cover step aside)
              chart.slider.set(at(state));
              moveCursor(at(state));
            }
          },
          describe: function (prev, next) {
            var i = at(next), p = paths(next), slots = settingSlots(next, i);
            slots.work = p.width.concat("work_total_text", i);
            slots.time = p.lat.concat("total_text", i);
            slots.ratio = p.lat.concat("of_best_text", i);
            return { path: p.view.concat("text", "describe"), slots: slots };
          },
        };
      });
    },
  });
})();
