/* FIG 05 · Re-association: the same causal linear-attention output through the N×N matrix
 * (φ(Q)φ(K)ᵀ ⊙ mask)V and through the d×d state φ(Q)(φ(K)ᵀV). A toggle folds one middle object
 * into the other; a row chooser traces one query through both. Every number was computed at
 * build time (linear_attention, reassociate, reassociation_costs); this file only draws. */
(function () {
  "use strict";
  K3.register("fig-05-reassociation", {
    state: function (data) {
      return { order: K3.state.oneOf(["matrix", "state"], "matrix"), row: K3.state.int(0, data.n - 1, data.n - 1) };
    },
    setup: function (mount, data, ctx) {
      var W = window.K3W, el = W.el;
      var N = data.n, d = data.d, dv = data.d_v;
      var row = ctx.get().row, linear = ctx.get().order === "state";  // as last rendered

      function range(n, prefix) { return W.range(n, function (i) { return prefix + (i + 1); }); }
      /* 1.8e−15 (K3W.sci) as "1.8 × 10⁻¹⁵" (the value as shipped, only formatted) */
      function sci(x) {
        var p = W.sci(x).split("e");
        return p.length < 2 ? p[0] : p[0] + " × 10" + p[1].replace("+", "").replace(/[\u2212\d]/g, function (c) { return "⁻⁰¹²³⁴⁵⁶⁷⁸⁹"["\u22120123456789".indexOf(c)]; });
      }

      /* ---- controls ---- */
      var toggle = el("button", { type: "button", class: "k3-btn f05-toggle", "aria-pressed": "false",
        on: { click: function () { ctx.set({ order: linear ? "matrix" : "state" }, "click"); } } });
      var formula = el("p", { class: "f05-formula", "aria-live": "off" });
      var chooser = W.choice({
        label: "Query row",
        options: range(N, "").map(function (t, i) { return { value: i, text: t, aria: "Query row " + t }; }),
        value: row,
        onChange: function (t, how) { ctx.set({ row: t }, how); },
      });

      /* ---- the middle object: N×N matrix or d×d state, stacked in one fixed box ---- */
      function grid(rows, cols, cls) {
        var g = el("div", { class: "f05-grid " + cls, style: "--cols:" + cols, role: "img" });
        var cells = [];
        for (var i = 0; i < rows; i++) for (var j = 0; j < cols; j++) cells.push(g.appendChild(el("span", { class: "f05-cell" })));
        return { node: g, cells: cells, cols: cols };
      }
      var nn = grid(N, N, "f05-nn");
      var dd = grid(d, dv, "f05-dd");
      dd.node.setAttribute("data-sym", "la-state");
      var middleCaption = el("p", { class: "f05-mid-cap" });
      var middle = el("div", { class: "f05-middle", style: "--n:" + N }, nn.node, dd.node);

      /* ---- outputs of both orders ---- */
      var outCols = range(dv, "o");
      var outRows = range(N, "t=");
      var outPar = W.matrix({ caption: "(φQ φKᵀ ⊙ mask) V", rows: outRows, cols: outCols, digits: 3 });
      var outRec = W.matrix({ caption: "φQ (φKᵀ V), recurrent", rows: outRows, cols: outCols, digits: 3 });
      outPar.node.classList.add("f05-out-par");
      outRec.node.classList.add("f05-out-rec");
      var diff = el("p", { class: "f05-diff" });

      /* ---- costs ---- */
      var costs = el("dl", { class: "f05-costs" },
        el("dt", { text: "(QKᵀ)V multiply-adds" }), el("dd", { class: "k3-num f05-madds-q", text: W.int(data.madds.quadratic) }),
        el("dt", { text: "Q(KᵀV) multiply-adds" }), el("dd", { class: "k3-num f05-madds-l", text: W.int(data.madds.linear) }));
      var g = data.growth;
      var growth = W.matrix({
        caption: "As N grows (unmasked product, d = " + d + ")", corner: "N",
        rows: g.n.map(W.int), cols: ["N×N entries", "state entries", "(QKᵀ)V madds", "Q(KᵀV) madds"],
      });
      growth.update(g.n.map(function (_, i) {
        return [W.int(g.middle_quadratic[i]), W.int(g.middle_linear[i]), W.int(g.madds_quadratic[i]), W.int(g.madds_linear[i])];
      }));
      growth.node.classList.add("f05-growth");
      growth.node.querySelectorAll("tbody tr").forEach(function (tr) { tr.cells[2].setAttribute("data-sym", "la-state"); });

      mount.appendChild(el("div", { class: "f05" },
        el("div", { class: "k3-row f05-controls" }, toggle, el("span", { class: "k3-label", text: "Query row" }), chooser.node),
        el("div", { class: "f05-body" },
          el("div", { class: "f05-left" }, formula, middle, middleCaption, costs),
          el("div", { class: "f05-right" },
            el("div", { class: "f05-outs" }, el("div", { class: "k3-scroll" }, outPar.node), el("div", { class: "k3-scroll" }, outRec.node)),
            diff,
            el("div", { class: "k3-scroll" }, growth.node)))));

      /* ---- painting ---- */
      var scoreMax = Math.max.apply(null, data.scores.map(function (r) { return Math.max.apply(null, r); }));
      function paintNN() {
        nn.cells.forEach(function (c, idx) {
          var i = Math.floor(idx / N), j = idx % N, masked = j > i;
          c.textContent = masked ? "" : W.fmt(data.scores[i][j], 1);
          c.className = "f05-cell" + (masked ? " is-masked" : "") + (i === row ? " is-row" : "");
          c.style.setProperty("--w", masked ? 0 : data.scores[i][j] / scoreMax);
        });
        nn.node.setAttribute("aria-label", N + " by " + N + " causal matrix of φ(q_t)·φ(k_s); row " + (row + 1) +
          " has " + (row + 1) + " visible entries: " + data.scores[row].slice(0, row + 1).map(function (x) { return W.fmt(x, 1); }).join(", ") + ".");
      }
      function paintDD() {
        var S = data.states[row];
        var sMax = Math.max.apply(null, S.map(function (r) { return Math.max.apply(null, r.map(Math.abs)); }));
        dd.cells.forEach(function (c, idx) {
          var x = S[Math.floor(idx / dv)][idx % dv];
          c.textContent = W.fmt(x, 2);
          c.className = "f05-cell" + (x < 0 ? " is-neg" : "");
          c.style.setProperty("--w", Math.abs(x) / sMax);
        });
        dd.node.setAttribute("aria-label", d + " by " + dv + " state S after token " + (row + 1) + ", the sum of φ(k_s)v_sᵀ over s ≤ " + (row + 1) + ".");
      }
      function paintOrder() {
        toggle.setAttribute("aria-pressed", linear ? "true" : "false");
        toggle.textContent = linear ? "⇄ Unfold to N×N" : "⇄ Re-associate";
        middle.classList.toggle("is-linear", linear);
        nn.node.setAttribute("aria-hidden", linear ? "true" : "false");
        dd.node.setAttribute("aria-hidden", linear ? "false" : "true");
        formula.textContent = "";
        if (linear) {
          formula.append(el("span", { "data-sym": "la-phi", text: "φ(Q)" }), " · ",
            el("span", { "data-sym": "la-state", text: "(φ(K)ᵀ V)" }));
          middleCaption.textContent = "State S after token " + (row + 1) + ": " + d + "×" + dv + " = " + (d * dv) +
            " entries, the same size for any N.";
        } else {
          formula.append("(", el("span", { "data-sym": "la-phi", text: "φ(Q) φ(K)ᵀ" }), " ⊙ mask) · V");
          middleCaption.textContent = "Causal matrix: " + N + "×" + N + " = " + (N * N) + " entries; row " + (row + 1) +
            " uses " + (row + 1) + ".";
        }
      }
      function paintRows() {
        var mark = { changed: function (i) { return i === row; } };
        outPar.update(data.out_parallel, mark);
        outRec.update(data.out_recurrent, mark);
        diff.textContent = "";
        diff.append("Largest difference between the two outputs: ",
          el("span", { class: "k3-num f05-maxdiff", text: sci(data.max_diff) }),
          " (floating-point rounding; the regrouping itself is exact).");
      }
      function paint() { paintNN(); paintDD(); paintOrder(); paintRows(); }

      function describe(prev, next) {
        var row = next.row, linear = next.order === "state";
        var o = data.out_parallel[row].map(function (x) { return W.fmt(x, 3); }).join(", ");
        return linear
          ? "Re-associated: query " + (row + 1) + " multiplies the " + d + "×" + dv + " state, " + W.int(data.madds.linear) +
            " multiply-adds in all; output " + o + ", the same as the N×N order to " + sci(data.max_diff) + "."
          : "Unfolded: query " + (row + 1) + " reads row " + (row + 1) + " of the " + N + "×" + N + " matrix, " +
            W.int(data.madds.quadratic) + " multiply-adds in all; output " + o + ".";
      }

      return {
        render: function (s, prev, how) {
          row = s.row;
          linear = s.order === "state";
          chooser.set(row);
          // the fold animates only when the reader toggles it
          middle.classList.toggle("f05-still", !prev || how === "restore" || ctx.reducedMotion());
          paint();
        },
        describe: describe,
      };
    },
  });
})();
