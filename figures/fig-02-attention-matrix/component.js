/* FIG 02 · Causal attention matrix: pick a query row (hover, click/tap, arrow keys) and read
 * every stage of its computation — query, visible keys, raw and scaled scores, mask, softmax
 * weights, the weights the same scores would get without the 1/√d_k scaling, the visible values
 * and the output — all computed at build time by causal_softmax_attention; every sentence about a
 * row, and the weights as the table prints them, written by the builder. */
(function () {
  "use strict";
  K3.register("fig-02-attention-matrix", {
    state: function (data) {
      var T = data.tokens.length;
      /* open on a middle row (the builder picks it, and the takeaway describes it): its later keys
       * are masked, so the causal mask is visible at once */
      return { row: K3.state.int(0, T - 1, data.headline.row) };
    },
    setup: function (mount, data, ctx) {
      var W = window.K3W, el = W.el;
      var say = function (key) { return ["text", key]; };
      var dims = function (n) { return W.range(n, function (i) { return "d" + (i + 1); }); };

      var chooser = W.choice({
        label: "Query row",
        options: data.tokens.map(function (tok, t) { return { value: t, text: tok, aria: ctx.text(["query_aria", t]) }; }),
        value: ctx.get().row,
        onChange: function (t, how) { ctx.set({ row: t }, how); },
      });
      var plot = el("div", { class: "f02-plot", role: "img", "data-graphic": "chart", "aria-label": ctx.text(say("heatmap_aria")) });
      /* the selected row's ring, drawn over the chart; it carries the softmax symbol, so hovering
       * the heatmap lights nothing and the equation's softmax lights this one row, not the chart */
      var band = el("div", { class: "f02-band", "data-sym": "att-softmax", "aria-hidden": "true" });
      var plotBox = el("div", { class: "f02-plotbox" }, plot, band);

      var cols = data.key_labels;
      var qView = W.matrix({ caption: ctx.text(say("q_caption")), cols: dims(data.d_k), digits: 2, sym: "att-q" });
      var kView = W.matrix({ caption: ctx.text(say("k_caption")), cols: dims(data.d_k), rows: cols, digits: 2, sym: "att-k" });
      var vView = W.matrix({ caption: ctx.text(say("v_caption")), cols: dims(data.d_v), rows: cols, digits: 2, sym: "att-v" });
      var stages = W.matrix({
        caption: ctx.text(say("stages_caption")), cols: cols, digits: 2, corner: "stage",
        rows: ["q·k", "× 1/√d", "+ mask", "softmax", "softmax, no 1/√d"],
      });
      var outView = W.matrix({ caption: ctx.text(say("out_caption")), cols: dims(data.d_v), digits: 3, sym: "att-out" });
      var sum = el("p", { class: "f02-sum" });
      ["att-scores", "att-scale", "att-mask", "att-softmax", null].forEach(function (sym, i) {
        var tr = stages.node.tBodies[0].rows[i];
        if (sym) tr.setAttribute("data-sym", sym);
        else tr.setAttribute("data-stage", "unscaled");  // a comparison, not a stage of the equation
      });

      mount.appendChild(el("div", { class: "f02" },
        el("div", { class: "f02-controls" }, el("span", { class: "k3-label", text: "Query" }), chooser.node),
        el("div", { class: "f02-grid" },
          el("div", { class: "f02-left" }, plotBox, kView.node),
          el("div", { class: "f02-panel" }, qView.node, el("div", { class: "k3-scroll" }, stages.node), sum,
            vView.node, outView.node))));

      function paintPanel(row) {
        var hidden = function (s) { return s > row; };
        var shown = function (xs, masked) { return xs.map(function (x, s) { return hidden(s) ? masked : x; }); };
        qView.update([data.q[row]]);
        var seen = function (m) { return m.map(function (x, s) { return hidden(s) ? x.map(function () { return "—"; }) : x; }); };
        kView.update(seen(data.k), { masked: hidden });
        vView.update(seen(data.v), { masked: hidden });
        // the softmax rows are the builder's texts (a masked key reads 0), shaded by the weight itself
        var shade = [null, null, null, data.weights[row], data.weights_unscaled[row]];
        stages.update([
          shown(data.raw_scores[row], "·"), shown(data.scaled_scores[row], "·"),
          shown(data.scaled_scores[row], "−∞"), data.weights_text[row], data.weights_unscaled_text[row],
        ], {
          masked: function (i, s) { return hidden(s); },
          style: function (td, v, i, s) { if (shade[i]) td.style.setProperty("--w", shade[i][s]); },
        });
        outView.update([data.output[row]]);
        ctx.show(sum, ["row_text", row]);
      }

      var css = W.css(mount);
      function placeBand(row) {  // in pixels from Plotly's axes, after every draw (it is responsive)
        var fl = plot._fullLayout;
        if (!fl || !fl.yaxis) return;
        var top = fl.yaxis._offset + fl.yaxis.l2p(row - 0.5), bottom = fl.yaxis._offset + fl.yaxis.l2p(row + 0.5);
        Object.assign(band.style, { left: fl.xaxis._offset - 2 + "px", width: fl.xaxis._length + 4 + "px",
          top: Math.min(top, bottom) + "px", height: Math.abs(bottom - top) + "px" });
      }
      /* each cell's value in whichever of ink and paper reads better on that cell's colour, so the
       * brightest cells keep their contrast in both schemes */
      function labels(z) {
        var lo = css("--heat-lo"), hi = css("--heat-hi"), inks = [css("--ink"), css("--paper"), "#000000", "#ffffff"];
        var out = [];
        z.forEach(function (r, t) {
          r.forEach(function (w, s) {
            if (w === null) return;
            out.push({ x: cols[s], y: cols[t], text: W.fmt(w, 2), showarrow: false,
              font: { size: 11, color: W.inkOn(W.mix(lo, hi, w), inks) } });
          });
        });
        return out;
      }
      var view = {
        render: function (s, prev) {
          chooser.set(s.row);
          paintPanel(s.row);
          placeBand(s.row);
        },
        describe: function (prev, next) { return { path: ["said", next.row] }; },
      };

      var Plotly;
      return ctx.plotly().then(function (P) {
        Plotly = P;
        var z = data.weights.map(function (r, t) { return r.map(function (w, s) { return s <= t ? w : null; }); });
        return Plotly.newPlot(plot, [{
          type: "heatmap", z: z, x: cols, y: cols, zmin: 0, zmax: 1, hoverongaps: false,
          colorscale: [[0, css("--heat-lo")], [1, css("--heat-hi")]], showscale: false,
          /* no tooltip: it would cover the neighbouring cells, and the panel already shows the row */
          hoverinfo: "none",
        }], W.chartLayout(mount, {
          margin: { l: 82, r: 8, t: 46, b: 8 }, height: plot.clientHeight || 340,  // the CSS says how tall
          xaxis: { side: "top", tickangle: 0, fixedrange: true, showgrid: false, zeroline: false, tickfont: { size: plot.clientWidth < 400 ? 9 : 11 },
            title: { text: ctx.text(say("x_title")), font: { size: 11, color: css("--ink-2") }, standoff: 4 } },
          yaxis: { autorange: "reversed", fixedrange: true, showgrid: false, zeroline: false,
            title: { text: ctx.text(say("y_title")), font: { size: 11, color: css("--ink-2") }, standoff: 6 } },
          annotations: labels(z),
        }), { displayModeBar: false, responsive: true });
      }).then(function () {
        placeBand(ctx.get().row);
        var replace = function () { placeBand(ctx.get().row); };
        plot.on("plotly_afterplot", replace);
        plot.on("plotly_relayout", replace);
        ctx.on(window, "resize", function () { requestAnimationFrame(replace); });
        /* hovering along the heatmap is one continuous gesture (one history entry) until the pointer leaves it */
        plot.on("plotly_hover", function (ev) { ctx.set({ row: ev.points[0].pointIndex[0] }, "input"); });
        plot.on("plotly_click", function (ev) { ctx.set({ row: ev.points[0].pointIndex[0] }, "click"); });
        ctx.on(plot, "pointerleave", ctx.end);
        return view;
      });
    },
  });
})();
