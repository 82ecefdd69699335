/* FIG 05 · Re-association: the same causal linear-attention output through the N×N matrix
 * (φ(Q)φ(K)ᵀ ⊙ mask)V and through the d×d state φ(Q)(φ(K)ᵀV). The toggle folds the N×N matrix
 * into the d×d state (drawn at the same cell size, so the area shows the entries held; the N×N
 * footprint stays as a dashed ghost); a row chooser traces one query. One output table, filled by
 * the order shown, with a strip of |Δ| between the two orders on the outputs' own colour scale;
 * a log–log chart of the entries each order holds as N grows (the numbers in a table on demand).
 * Every number was computed at build time (linear_attention, reassociate, reassociation_costs). */
(function () {
  "use strict";
  K3.register("fig-05-reassociation", {
    state: function (data) {
      return { order: K3.state.oneOf(["matrix", "state"], "matrix"), row: K3.state.int(0, data.n - 1, data.n - 1) };
    },
    setup: function (mount, data, ctx) {
      var W = window.K3W, el = W.el, S = W.svg;
      var N = data.n, d = data.d, dv = data.d_v, g = data.growth;

      function labels(n, prefix) { return W.range(n, function (i) { return prefix + (i + 1); }); }

      /* ---- controls ---- */
      var toggle = el("button", { type: "button", class: "k3-btn f05-toggle", "aria-pressed": "false",
        on: { click: function () { ctx.set({ order: ctx.get().order === "state" ? "matrix" : "state" }, "click"); } } });
      var chooser = W.choice({
        label: "Query row",
        options: labels(N, "").map(function (t, i) { return { value: i, text: t, aria: "Query row " + t }; }),
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
        el("dd", { class: "k3-num" }, el("span", { class: "f05-madds-q", text: W.int(data.madds.quadratic) }),
          el("span", { class: "f05-madds-note", text: " (" + W.int(data.madds.quadratic_unmasked) + " unmasked)" })),
        el("dt", { text: "Q(KᵀV) multiply-adds" }), el("dd", { class: "k3-num f05-madds-l", text: W.int(data.madds.linear) }));

      /* ---- one output, and the strip of |Δ| between the orders, on one colour scale ---- */
      var out = W.matrix({ caption: "Output", rows: labels(N, "t="), cols: labels(dv, "o").concat(["max |Δ|"]), digits: 3 });
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
        "aria-label": "Entries held against sequence length N, both axes logarithmic: the N×N matrix holds " +
          g.n.map(function (n, i) { return W.int(g.middle_quadratic[i]) + " at N = " + W.int(n); }).join(", ") +
          "; the state holds " + W.int(g.middle_linear[0]) + " at every N." });
      g.y_ticks.forEach(function (v) {
        chart.appendChild(S.line(L, ly(v), VW - R, ly(v), "f05-gridline"));
        chart.appendChild(S.el("text", { x: L - 6, y: ly(v) + 4, "text-anchor": "end", text: "10" + W.sup(Math.round(Math.log10(v))) }));
      });
      g.n.forEach(function (n) {
        chart.appendChild(S.line(lx(n), VH - B, lx(n), VH - B + 4, "f05-axis"));
        chart.appendChild(S.el("text", { x: lx(n), y: VH - B + 15, "text-anchor": "middle", text: W.int(n) }));
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
            S.el("title", { text: s[2] + ", N = " + W.int(n) + ": " + W.int(ys[i]) + " entries" })));
        });
        chart.appendChild(S.el("text", { x: VW - R + 6, y: ly(ys[ys.length - 1]) + 4, class: s[1] + "-label", text: s[2] }));
      });
      var growth = W.matrix({ caption: "As N grows (unmasked product, d = " + d + ")", corner: "N",
        rows: g.n.map(W.int), cols: ["N×N entries", "state entries", "(QKᵀ)V madds", "Q(KᵀV) madds"] });
      growth.update(g.n.map(function (_, i) {
        return [W.int(g.middle_quadratic[i]), W.int(g.middle_linear[i]), W.int(g.madds_quadratic[i]), W.int(g.madds_linear[i])];
      }));
      growth.node.classList.add("f05-growth");
      growth.node.querySelectorAll("tbody tr").forEach(function (tr) { tr.cells[2].setAttribute("data-sym", "la-state"); });
      var numbers = el("details", { class: "f05-numbers" }, el("summary", { text: "The numbers" }), el("div", { class: "k3-scroll" }, growth.node));

      mount.appendChild(el("div", { class: "f05" },
        el("div", { class: "k3-row f05-controls" }, toggle, el("span", { class: "f05-qlabel", text: "Query row" }), chooser.node),
        el("div", { class: "f05-body" },
          el("div", { class: "f05-left" }, formula, middle, middleCaption, costs),
          el("div", { class: "f05-right" }, el("div", { class: "k3-scroll" }, out.node), diff),
          el("div", { class: "f05-grow" }, el("p", { class: "f05-head", text: "Entries held between the two products" }), chart),
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
        W.attr(nn.node, "aria-label", N + " by " + N + " causal matrix of φ(q_t)·φ(k_s); row " + (row + 1) +
          " has " + (row + 1) + " visible entries: " + data.scores[row].slice(0, row + 1).map(function (x) { return W.fmt(x, 1); }).join(", ") + ".");
      }
      function paintDD(row) {
        var st = data.states[row];
        var sMax = Math.max.apply(null, st.map(function (r) { return Math.max.apply(null, r.map(Math.abs)); }));
        dd.cells.forEach(function (c, idx) {
          var x = st[Math.floor(idx / dv)][idx % dv];
          cell(c, W.fmt(x, 1), "f05-cell" + (x < 0 ? " is-neg" : ""), Math.abs(x) / sMax);
        });
        W.attr(dd.node, "aria-label", d + " by " + dv + " state S after token " + (row + 1) + ", the sum of φ(k_s)v_sᵀ over s ≤ " + (row + 1) +
          ": " + st.map(function (r) { return r.map(function (x) { return W.fmt(x, 2); }).join(", "); }).join("; ") + ".");
      }
      var formulas = {  // the product in the order shown, each built once
        state: [el("span", { "data-sym": "la-phi", text: "φ(Q)" }), " · ", el("span", { "data-sym": "la-state", text: "(φ(K)ᵀ V)" })],
        matrix: ["(", el("span", { "data-sym": "la-phi", text: "φ(Q) φ(K)ᵀ" }), " ⊙ mask) · V"],
      };
      var shownOrder = null;
      function paintOrder(row, linear) {
        W.attr(toggle, "aria-pressed", linear ? "true" : "false");
        W.text(toggle, linear ? "⇄ Unfold to N×N" : "⇄ Re-associate");
        middle.classList.toggle("is-linear", linear);
        W.attr(nn.node, "aria-hidden", linear ? "true" : "false");
        W.attr(dd.node, "aria-hidden", linear ? "false" : "true");
        if (shownOrder !== linear) {
          formula.replaceChildren.apply(formula, formulas[linear ? "state" : "matrix"]);
          W.text(out.node.caption, linear ? "Output φQ (φKᵀ V), through the state" : "Output (φQ φKᵀ ⊙ mask) V, through the matrix");
          shownOrder = linear;
        }
        W.text(middleCaption, linear
          ? "State S after token " + (row + 1) + ": " + d + "×" + dv + " = " + (d * dv) +
            " entries, the same size for any N; the dashed square is the " + N + "×" + N + " matrix it replaces."
          : "Causal matrix: " + N + "×" + N + " = " + (N * N) + " entries; row " + (row + 1) + " uses " + (row + 1) + ".");
        out.update((linear ? data.out_recurrent : data.out_parallel).map(function (r, i) { return r.concat([W.sci(data.row_diff[i])]); }),
          { changed: function (i) { return i === row; }, style: heat });
      }
      diff.append("Largest difference between the two orders, ", el("span", { class: "f05-nowrap" }, "max |Δ| = ",
        el("span", { class: "k3-num f05-maxdiff", text: W.sci(data.max_diff, { power: true }) })),
        ". The |Δ| strip uses the outputs' colour scale (up to " + W.fmt(data.out_scale, 1) +
        "), so it stays blank: the regrouping is exact, and only floating-point rounding differs.");

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
        describe: function (prev, next) {
          var row = next.row, q = row + 1, o = data.out_parallel[row].map(function (x) { return W.fmt(x, 3); }).join(", ");
          var linear = next.order === "state";
          if (prev.order === next.order) {  // only the query moved: what this one row costs and reads
            return linear
              ? "Query " + q + " multiplies the " + d + "×" + dv + " state after token " + q + "; output " + o + "."
              : "Query " + q + " reads row " + q + " of the " + N + "×" + N + " matrix, " + (q < N ? "its first " + q + " entries (the mask hides the rest)" : "all " + N + " entries") + "; output " + o + ".";
          }
          return linear  // the order toggled: the counts are for all N queries
            ? "Re-associated: the " + N + "×" + N + " matrix folds into the " + d + "×" + dv + " state, " +
              W.int(data.madds.linear) + " multiply-adds for all " + N + " queries; query " + q + " gives " + o +
              ", the same as the N×N order to " + W.sci(data.max_diff, { power: true }) + "."
            : "Unfolded: the " + N + "×" + N + " matrix, " + W.int(data.madds.quadratic) + " multiply-adds for all " + N +
              " rows with the mask (" + W.int(data.madds.quadratic_unmasked) + " without); query " + q + " reads row " + q + ", output " + o + ".";
        },
      };
    },
  });
})();
