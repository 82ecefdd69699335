/* FIG 15b · Chunk size trade-off: the terms of a chunked layer's cost against chunk size C
 * (log–log), a marker at the chosen C, and readouts of each term, its share, the total, the cost
 * per token and the total against quadratic attention. Two cost models: plain linear attention
 * (madds) and KDA's eq. 13 (FLOPs). Every number is computed by the builder; the chart, marker,
 * slider and scrubbing are W.scrubber's. */
(function () {
  "use strict";
  var MARGIN = { l: 62, r: 14, t: 12, b: 46 };
  var TERM_LOOK = { state: { color: "--violet", dash: "solid" }, chunk: { color: "--blue", dash: "dash" },
    local: { color: "--orange", dash: "dot" } };
  var SYM = { state: "ck-state", chunk: "ck-chunk" };

  K3.register("fig-15b-chunk-size", {
    state: function (data) {
      return { view: K3.state.oneOf(data.view_order, "linear"), c: K3.state.oneOf(data.c, data.c[data.c_default_index]) };
    },
    setup: function (mount, data, ctx) {
      var W = window.K3W, el = W.el;
      var K = data.c.length;
      var st = ctx.get();
      function V() { return data.views[st.view]; }
      function at(s) { return data.c.indexOf(s.c); }
      function amount(x, v) { return W.si(x) + " " + (v || V()).unit; }
      function pct(x) { return W.fmt(100 * x, 1) + "%"; }

      /* ---------- controls and chart ---------- */
      var switcher = W.choice({
        label: "Cost model",
        options: data.view_order.map(function (v) {
          return { value: v, text: data.views[v].label, aria: data.views[v].label + " cost, in " + data.views[v].unit };
        }),
        value: st.view,
        onChange: function (v, how) { ctx.set({ view: v }, how); },
      });
      var chart = W.scrubber({
        mount: mount, values: data.c, index: at(st), plotClass: "f15b-plot", margin: MARGIN,
        slider: { label: "Chunk size", sym: "ck-c", format: function (c) { return "C = " + W.int(c); } },
        curves: function () {
          var v = V(), c = data.c, css = chart.css;
          var band = { type: "scatter", mode: "lines", hoverinfo: "none", fill: "toself", opacity: 0.22,
            x: [data.sweet_spot[0], data.sweet_spot[0], data.sweet_spot[1], data.sweet_spot[1]],
            y: [v.y_span[0], v.y_span[1], v.y_span[1], v.y_span[0]],
            fillcolor: css("--green"), line: { width: 0 } };
          var terms = v.terms.map(function (t) {
            return { type: "scatter", mode: "lines", hoverinfo: "none", x: c, y: t.values,
              line: { color: css(TERM_LOOK[t.key].color), dash: TERM_LOOK[t.key].dash, width: 2.5 } };
          });
          var total = { type: "scatter", mode: "lines", hoverinfo: "none", x: c, y: v.total, line: { color: css("--ink"), width: 4 } };
          var quad = { type: "scatter", mode: "lines", hoverinfo: "none", x: [c[0], c[K - 1]], y: [v.quadratic, v.quadratic],
            line: { color: css("--accent"), dash: "longdash", width: 2 } };
          return [band].concat(terms, [total, quad]);
        },
        marker: function (i) {
          var v = V();
          return { span: v.y_span, line: "--ink-3",
            dots: v.terms.map(function (t) { return [t.values[i], TERM_LOOK[t.key].color]; }).concat([[v.total[i], "--ink"]]) };
        },
        axes: function () {
          var narrow = mount.clientWidth < 560;
          return {
            height: narrow ? 280 : 340,
            // every second (narrow: third) power of two, plus the last one when there is room
            x: { range: data.x_range, title: { text: "chunk size C (tokens)", standoff: 8 },
              tickvals: data.c.filter(function (c, i) { return narrow ? i % 3 === 0 : i % 2 === 0 || i === K - 1; }) },
            y: { range: V().y_range, exponentformat: "power", dtick: 1, title: { text: V().unit + " per head", standoff: 6 } },
          };
        },
        onIndex: function (i, how) { ctx.set({ c: data.c[i] }, how); },
        onEnd: ctx.end,
      });
      function line(color, width, dash) { return W.lineKey("f15b-swatch", 22, chart.css(color), width, dash); }

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
          var look = TERM_LOOK[t.key];
          seg.style.background = chart.css(look.color);
          split.appendChild(seg);
          termCells[t.key] = { value: value, share: share, seg: seg };
          termBody.appendChild(el("tr", { "data-term": t.key, "data-sym": SYM[t.key] },
            el("th", { scope: "row" }, line(look.color, 3, look.dash === "dash" ? "5 3" : look.dash === "dot" ? "2 2" : null),
              el("span", { text: t.label })), value, share));
        });
        W.html(formula, V().formula_html);  // rendered (KaTeX) at build time
        quadLabel.textContent = V().quadratic_label;
      }

      mount.appendChild(el("div", { class: "f15b" },
        el("div", { class: "f15b-controls" }, el("span", { class: "k3-label", text: "Model" }), switcher.node, chart.slider.node),
        el("div", { class: "f15b-grid" },
          el("div", {}, chart.plot,
            el("p", { class: "f15b-sweet" }, el("span", { class: "f15b-band", "aria-hidden": "true" }), " ",
              W.html(el("span"), data.sweet_html))),
          el("div", { class: "f15b-side" }, formula, readouts, split, regime,
            el("p", { class: "f15b-consts" }, el("span", { class: "badge badge-illustrative", text: "Illustrative" }), " ",
              W.html(el("span"), data.constants_html))))));

      function paint(i) {
        var v = V();
        caption.textContent = "At C = " + W.int(data.c[i]) + ", N = " + W.int(data.n_tokens);
        v.terms.forEach(function (t) {
          termCells[t.key].value.textContent = amount(t.values[i]);
          termCells[t.key].share.textContent = pct(t.share[i]);
          termCells[t.key].seg.style.flexGrow = t.share[i];
        });
        totalCell.textContent = amount(v.total[i]);
        perTokenCell.textContent = amount(v.per_token[i]);
        quadCell.textContent = amount(v.quadratic);
        ofQuadCell.textContent = "×" + W.fmt(v.of_quadratic[i], 3);
        regime.textContent = data.regimes[i];
        chart.plot.setAttribute("aria-label", "Log–log chart of the " + v.label + " cost terms against chunk size C from " +
          W.int(data.c[0]) + " to " + W.int(data.c[K - 1]) + "; the marker is at C = " + W.int(data.c[i]) + ".");
      }

      return ctx.plotly().then(function (Plotly) { return chart.start(Plotly, at(st)); }).then(function () {
        return {
          render: function (state, prev) {
            st = state;
            var newView = !prev || prev.view !== state.view;
            switcher.set(state.view);
            if (newView) buildTerms();
            paint(at(state));
            chart.show(at(state), !!prev && newView);
          },
          describe: function (prev, next) {
            var v = data.views[next.view], i = at(next);
            return v.label + ", C = " + W.int(data.c[i]) + ": " + v.terms.map(function (t) {
              return t.label + " " + amount(t.values[i], v);
            }).join(", ") + "; total " + amount(v.total[i], v) + ", " + W.fmt(v.of_quadratic[i], 3) +
              " times quadratic attention.";
          },
        };
      });
    },
  });
})();
