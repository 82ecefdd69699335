/* FIG 05 · Re-association: the same causal linear-attention output through the N×N matrix
 * (φ(Q)φ(K)ᵀ ⊙ mask)V and through the d×d state φ(Q)(φ(K)ᵀV). The toggle folds the N×N matrix
 * into the d×d state (drawn at the same cell size, so the area shows the entries held; the N×N
 * footprint stays as a dashed ghost); a row chooser traces one query. One output table, filled by
 * the order shown, with a strip of |Δ| between the two orders on the outputs' own colour scale;
 * a log–log chart of the entries each order holds as N grows (the numbers in a table on demand).
 * Every number was computed at build time (linear_attention, reassociate, reassociation_costs), and
 * every text it shows (data.views for each order and row, data.rows_text, data.text, data.growth_text)
 * is written by the builder. */
(function () {
  "use strict";
  K3.register("fig-05-reassociation", {
    state: function (data) {
      return { order: K3.state.oneOf(["matrix", "state"], "matrix"), row: K3.state.int(0, data.n - 1, data.n - 1) };
    },
    setup: function (mount, data, ctx) {
      var W = window.K3W, el = W.el, S = W.svg;
      var N = data.n, d = data.d, dv = data.d_v, g = data.growth, gt = data.growth_text;

      function labels(n, prefix) { return W.range(n, function (i) { return prefix + (i + 1); }); }

      /* ---- controls ---- */
      var toggle = el("button", { type: "button", class: "k3-btn f05-toggle", "aria-pressed": "false",
        on: { click: function () { ctx.set({ order: ctx.get().order === "state" ? "matrix" : "state" }, "click"); } } });
      var chooser = W.choice({
        label: "Query row",
        options: labels(N, "").map(function (t, i) { return { value: i, text: t, aria: ctx.text(["rows_text", i, "query"]) }; }),
        value: ctx.get().row,
        onChange: function (t, how) { ctx.set({ row: t }, how); },
      });

      /* ---- what is held between the two products: the N×N matrix folds into the d×d state in its top-left corner ---- */
      function grid(rows, cols, cls) {
        var node = el("div", { class: "f05-grid " + cls, style: "--cols:" + cols, role: "img", "data-graphic": "diagram" });
        var cells = W.range(rows * cols, function () { return node.appendChild(el("span", { class: "f05-cell" })); });
        return { node: node, cells: cells };
      }
      var nn = grid(N, N, "f05-nn"), dd = grid(d, dv, "f05-dd");
      dd.node.setAttribute("data-sym", "la-state");
      var formula = el("p", { class: "f05-formula" });
      var middleCaption = el("p", { class: "f05-mid-cap" });
      var middle = el("div", { class: "f05-middle", style: "--n:" + N + ";--fold:" + Math.max(d, dv) / N },
        el("span", { class: "f05-ghost", "aria-hidden": "true" }), nn.node, dd.node);
      var costs = el("dl", { class: "f05-costs" },
        el("dt", { text: "(QKᵀ)V multiply-adds, masked" }),
        el("dd", { class: "k3-num" }, ctx.show(el("span", { class: "f05-madds-q" }), ["text", "madds_quadratic"]),
          ctx.show(el("span", { class: "f05-madds-note" }), ["text", "madds_unmasked"])),
        el("dt", { text: "Q(KᵀV) multiply-adds" }), ctx.show(el("dd", { class: "k3-num f05-madds-l" }), ["text", "madds_linear"]));

      /* ---- one output, and the strip of |Δ| between the orders, on one colour scale ---- */
      var out = W.matrix({ rows: labels(N, "t="), cols: labels(dv, "o").concat(["max |Δ|"]), digits: 3 });
      out.node.classList.add("f05-out");
      var diff = el("p", { class: "f05-diff" });
      function heat(td, v, i, j) {
        var delta = j === dv, x = delta ? data.row_diff[i] : v;
        td.classList.toggle("f05-delta", delta);
        td.classList.toggle("is-neg", x < 0);
        W.prop(td, "--w", Math.min(1, Math.abs(x) / data.out_scale));
      }

      /* ---- memory held between the two products as N grows, log–log ---- */
      var VW = 340, VH = 210, L = 46, R = 78, T = 12, B = 40;
      var lx = function (n) { return L + (Math.log10(n) - Math.log10(g.n[0])) / (Math.log10(g.n[g.n.length - 1]) - Math.log10(g.n[0])) * (VW - L - R); };
      var top = g.y_ticks[g.y_ticks.length - 1];
      var ly = function (v) { return VH - B - Math.log10(v) / Math.log10(top) * (VH - B - T); };
      var chart = S.el("svg", { viewBox: "0 0 " + VW + " " + VH, class: "f05-chart", role: "img", "data-graphic": "chart",
        "aria-label": ctx.text(["growth_text", "chart_label"]) });
      g.y_ticks.forEach(function (v, i) {
        chart.appendChild(S.line(L, ly(v), VW - R, ly(v), "f05-gridline"));
        chart.appendChild(S.el("text", { x: L - 6, y: ly(v) + 4, "text-anchor": "end", text: gt.y_ticks[i] }));
      });
      g.n.forEach(function (n, i) {
        chart.appendChild(S.line(lx(n), VH - B, lx(n), VH - B + 4, "f05-axis"));
        chart.appendChild(S.el("text", { x: lx(n), y: VH - B + 15, "text-anchor": "middle", text: gt.n[i] }));
      });
      chart.appendChild(S.path("M" + L + "," + T + "V" + (VH - B) + "H" + (VW - R), "f05-axis"));
      chart.appendChild(S.el("text", { x: (L + VW - R) / 2, y: VH - 6, "text-anchor": "middle", class: "f05-axis-title k3-axis-title", text: "sequence length N" }));
      chart.appendChild(S.el("text", { x: 11, y: (T + VH - B) / 2, "text-anchor": "middle", class: "f05-axis-title k3-axis-title",
        transform: "rotate(-90 11 " + (T + VH - B) / 2 + ")", text: "entries held" }));
      [["middle_quadratic", "f05-s-nn", "N×N matrix"], ["middle_linear", "f05-s-dd", "d×d state"]].forEach(function (s) {
        var ys = g[s[0]], pts = g.n.map(function (n, i) { return lx(n) + "," + ly(ys[i]); });
        chart.appendChild(S.path("M" + pts.join("L"), s[1]));
        g.n.forEach(function (n, i) {
          chart.appendChild(S.el("circle", { cx: lx(n), cy: ly(ys[i]), r: 3.5, class: s[1] },
            ctx.show(S.el("title"), ["growth_text", "points", s[0], i])));
        });
        chart.appendChild(S.el("text", { x: VW - R + 6, y: ly(ys[ys.length - 1]) + 4, class: s[1] + "-label", text: s[2] }));
      });
      var growth = W.matrix({ corner: "N", rows: gt.n, cols: ["N×N entries", "state entries", "(QKᵀ)V madds", "Q(KᵀV) madds"] });
      ctx.show(growth.node.createCaption(), ["growth_text", "caption"]);
      growth.update(gt.rows);
      growth.node.classList.add("f05-growth");
      growth.node.querySelectorAll("tbody tr").forEach(function (tr) { tr.cells[2].setAttribute("data-sym", "la-state"); });
      var numbers = el("details", { class: "f05-numbers" }, el("summary", { text: "The numbers" }), el("div", { class: "k3-scroll" }, growth.node));

      mount.appendChild(el("div", { class: "f05" },
        el("div", { class: "k3-row f05-controls" }, toggle, el("span", { class: "f05-qlabel", text: "Query row" }), chooser.node),
        el("div", { class: "f05-body" },
          el("div", { class: "f05-left" }, formula, middle, middleCaption, costs),
          el("div", { class: "f05-right" }, el("div", { class: "k3-scroll" }, out.node), diff),
          el("div", { class: "f05-grow" }, ctx.show(el("p", { class: "f05-head" }), ["text", "chart_head"]), chart),
          numbers)));  // the table spans the figure: its five columns were squeezed under the chart

      /* ---- painting: an input writes only what differs (W.text, W.attr, W.prop): a text node
       * replaced, even by the same text, re-lays out the grid around it ---- */
      function cell(c, text, cls, w) {
        W.text(c, text);
        if (c.className !== cls) c.className = cls;
        W.prop(c, "--w", w);
      }
      var scoreMax = Math.max.apply(null, data.scores.map(function (r) { return Math.max.apply(null, r); }));
      function paintNN(row) {
        nn.cells.forEach(function (c, idx) {
          var i = Math.floor(idx / N), j = idx % N, masked = j > i;
          cell(c, masked ? "" : W.fmt(data.scores[i][j], 1), "f05-cell" + (masked ? " is-masked" : "") + (i === row ? " is-row" : ""),
            masked ? 0 : data.scores[i][j] / scoreMax);
        });
        W.attr(nn.node, "aria-label", ctx.text(["rows_text", row, "matrix_label"]));
      }
      function paintDD(row) {
        var st = data.states[row];
        var sMax = Math.max.apply(null, st.map(function (r) { return Math.max.apply(null, r.map(Math.abs)); }));
        dd.cells.forEach(function (c, idx) {
          var x = st[Math.floor(idx / dv)][idx % dv];
          cell(c, W.fmt(x, 1), "f05-cell" + (x < 0 ? " is-neg" : ""), Math.abs(x) / sMax);
        });
        W.attr(dd.node, "aria-label", ctx.text(["rows_text", row, "state_label"]));
      }
      var formulas = {  // the product in the order shown, each built once
        state: [el("span", { "data-sym": "la-phi", text: "φ(Q)" }), " · ", el("span", { "data-sym": "la-state", text: "(φ(K)ᵀ V)" })],
        matrix: ["(", el("span", { "data-sym": "la-phi", text: "φ(Q) φ(K)ᵀ" }), " ⊙ mask) · V"],
      };
      var shownOrder = null;
      var outCaption = out.node.createCaption();
      function paintOrder(row, linear) {
        var order = linear ? "state" : "matrix";
        W.attr(toggle, "aria-pressed", linear ? "true" : "false");
        W.text(toggle, linear ? "⇄ Unfold to N×N" : "⇄ Re-associate");
        middle.classList.toggle("is-linear", linear);
        W.attr(nn.node, "aria-hidden", linear ? "true" : "false");
        W.attr(dd.node, "aria-hidden", linear ? "false" : "true");
        if (shownOrder !== linear) {
          formula.replaceChildren.apply(formula, formulas[linear ? "state" : "matrix"]);
          ctx.show(outCaption, ["text", "out_caption", order]);
          shownOrder = linear;
        }
        ctx.show(middleCaption, ["views", order, row, "caption"]);
        out.update((linear ? data.out_recurrent : data.out_parallel).map(function (r, i) { return r.concat([data.row_diff_text[i]]); }),
          { changed: function (i) { return i === row; }, style: heat });
      }
      diff.append(ctx.show(el("span"), ["text", "diff_lead"]), el("span", { class: "f05-nowrap" }, "max |Δ| = ",
        ctx.show(el("span", { class: "k3-num f05-maxdiff" }), ["text", "max_diff"])), ctx.show(el("span"), ["text", "diff_tail"]));

      return {
        render: function (s, prev, how) {
          var linear = s.order === "state";
          chooser.set(s.row);
          // the fold animates only when the reader toggles it
          middle.classList.toggle("f05-still", !prev || how === "restore" || ctx.reducedMotion());
          paintNN(s.row);
          paintDD(s.row);
          paintOrder(s.row, linear);
        },
        // a new row says what that one query costs and reads; a toggle, the counts for all N queries
        describe: function (prev, next) {
          return { path: ["views", next.order, next.row, prev.order === next.order ? "said" : "said_toggle"] };
        },
      };
    },
  });
})();
