/* FIG 15 · Complexity explorer: every mechanism's compute or memory against N on log–log axes,
 * with an N marker (drag or tap the chart, or the slider) that reads each curve into a table.
 * All values, growth factors, ranges and ticks come from complexity_curves at build time; the
 * N grid is geometric, so positions map to grid indices without any maths here (W.scrubber). */
(function () {
  "use strict";
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

  K3.register("fig-15-complexity", {
    state: function (data) {
      return { metric: K3.state.oneOf(Object.keys(data.metrics), "compute"),
        n: K3W.gridState(data.n, data.n[data.n_default_index]) };
    },
    setup: function (mount, data, ctx) {
      var W = window.K3W, el = W.el;
      var st = ctx.get();
      function at(s) { return data.n.indexOf(s.n); }
      function nSlot(i) { return { n: ["n_text", i] }; }

      /* ---------- controls, chart, table ---------- */
      var switcher = W.choice({
        label: "Quantity plotted",
        options: Object.keys(data.metrics).map(function (m) {
          return { value: m, text: data.metrics[m].label, aria: data.metrics[m].label + ": " + data.metrics[m].axis };
        }),
        value: st.metric,
        onChange: function (m, how) { ctx.set({ metric: m }, how); },
      });
      var chart = W.scrubber({
        mount: mount, values: data.n, index: at(st), plotClass: "f15-plot", margin: MARGIN,
        views: Object.keys(data.metrics), view: st.metric,
        slider: { label: "N", aria: "Sequence length N",
          format: function (n) { return ctx.text(["slider_text"], nSlot(data.n.indexOf(n))); } },
        curves: function (metric) {
          return data.mechanisms.map(function (m) {
            var look = LOOK[m.key];
            return { type: "scatter", mode: "lines", name: m.label, x: data.n, y: data.metrics[metric].values[m.key], hoverinfo: "none",
              line: { color: chart.css(look.color), dash: look.dash, width: look.width } };
          });
        },
        marker: function (i, metric) {
          var q = data.metrics[metric];
          return { span: q.y_span, line: "--ink",
            dots: data.mechanisms.map(function (m) { return [q.values[m.key][i], LOOK[m.key].color]; }) };
        },
        axes: function (metric) {
          return {
            height: mount.clientWidth < 560 ? 300 : 380,
            x: { range: data.x_range, tickvals: data.x_ticks, ticktext: data.x_tick_labels,
              title: { text: "sequence length N (tokens)", standoff: 8 } },
            y: { range: data.metrics[metric].y_range, exponentformat: "power", dtick: 2,
              title: { text: data.metrics[metric].axis, standoff: 6 } },
          };
        },
        onIndex: function (i, how) { ctx.set({ n: data.n[i] }, how); },
        onEnd: ctx.end,
      });

      var caption = el("caption");
      var unitHead = el("th", { scope: "col" });
      var rows = {};
      var body = el("tbody");
      data.mechanisms.forEach(function (m) {
        var look = LOOK[m.key];
        var value = el("td", { class: "k3-num f15-value" }), growth = el("td", { class: "k3-num f15-growth" });
        rows[m.key] = { value: value, growth: growth };
        body.appendChild(el("tr", { "data-mech": m.key },
          el("th", { scope: "row" }, W.lineKey("f15-swatch", 26, chart.css(look.color), Math.min(look.width, 4), look.svg),
            el("span", { text: m.label })), value, growth));
      });
      var table = el("table", { class: "f15-table" }, caption,
        el("thead", {}, el("tr", {}, el("th", { scope: "col", text: "Curve" }), unitHead,
          el("th", { scope: "col", text: "× when N doubles" }))), body);

      mount.appendChild(el("div", { class: "f15" },
        el("div", { class: "f15-controls" },
          el("span", { class: "k3-label", text: "Plot" }), switcher.node, chart.slider.node),
        el("div", { class: "f15-grid" }, chart.node, el("div", { class: "f15-side" }, table,
          el("p", { class: "f15-consts" }, el("span", { class: "badge badge-illustrative", text: "Illustrative" }), " ",
            W.html(el("span"), data.constants_html)),  // rendered at build time from the builder's Markdown
          W.html(el("p", { class: "f15-note" }), data.note_html)))));

      /* ---------- painting ---------- */
      function paintTable(i) {
        var m = st.metric;
        ctx.show(caption, ["metrics", m, "text", "caption"], nSlot(i));
        ctx.show(unitHead, ["metrics", m, "text", "unit_head"]);
        data.mechanisms.forEach(function (mech) {
          ctx.show(rows[mech.key].value, ["metrics", m, "value_text", mech.key, i]);
          ctx.show(rows[mech.key].growth, ["metrics", m, "growth_text", mech.key, i]);
        });
        chart.plot.setAttribute("aria-label", ctx.text(["metrics", m, "text", "chart_label"], nSlot(i)));
      }

      return ctx.plotly().then(function (Plotly) { return chart.start(Plotly, at(st)); }).then(function () {
        return {
          render: function (state) {
            st = state;
            switcher.set(state.metric);
            chart.show(at(state), false, state.metric);  // first: the label goes on the chart shown
            paintTable(at(state));
          },
          describe: function (prev, next) {
            var i = at(next), slots = nSlot(i);
            data.mechanisms.forEach(function (m) { slots[m.key] = ["metrics", next.metric, "value_text", m.key, i]; });
            return { path: ["metrics", next.metric, "text", "describe"], slots: slots };
          },
        };
      });
    },
  });
})();
