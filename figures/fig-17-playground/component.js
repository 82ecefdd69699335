/* FIG 17 · Mathematical playground: the same four tokens through causal softmax attention (one
 * stage per step: scores, scale, mask, softmax, output) and the delta rule (one token per step:
 * read, error, write, read-out), every matrix a heatmap on one colour scale. Below, what each
 * keeps after the picked token (attention: every key and value so far; the delta rule: one state)
 * and what each reads from it. Every intermediate was computed at build time by
 * causal_softmax_attention and delta_rule; each part carries the data-sym of its equation symbol. */
(function () {
  "use strict";
  // each attention stage's equation symbol (its words: data.stages)
  var STAGE_SYMS = ["att-scores", "att-scale", "att-mask", "att-softmax", "att-out"];

  K3.register("fig-17-playground", {
    state: function (data) {
      return { att: K3.state.int(0, data.stages.length - 1, 0), tok: K3.state.int(0, data.tokens.length - 1, 0) };
    },
    setup: function (mount, data, ctx) {
      var W = window.K3W, el = W.el, dig = data.digits, A = data.attention, heat = { scale: data.heat_scale };
      var names = data.token_names;  // each token's word, quoted
      var dims = function (n) { return W.axis("d", n); };
      var dots = function (n) { return W.range(n, function () { return "·"; }); };
      var mat = function (caption, sym, rows, cols) {
        return W.matrix({ caption: caption, rows: rows, cols: cols, corner: "", digits: dig, sym: sym, heat: heat });
      };
      var root = el("div", { class: "f17-root" });

      /* attention column */
      var stageChoice = W.choice({
        label: "Attention stage",
        options: data.stages.map(function (s, i) { return { value: i, text: s.label, sym: STAGE_SYMS[i], aria: s.aria }; }),
        value: ctx.get().att, onChange: function (i, how) { ctx.set({ att: i }, how); },
      });
      var Q = mat("Q (queries)", "att-q", names, dims(data.d_k)), K = mat("K (keys)", "att-k", names, dims(data.d_k));
      var V = mat("V (values)", "att-v", names, dims(data.d_v));
      var S = mat(data.stages[0].caption, null, names, names.map(function (n, i) { return "k" + W.sub(i + 1); }));
      var O = mat("O = weights · V", "att-out", names, dims(data.d_v));
      S.node.classList.add("f17-stage");
      // K, V and O sit on the rows of the grid to their left (the same tokens), so they borrow its
      // row labels: the labels are hidden from sight, not from screen readers (f17-shared)
      [K, V, O].forEach(function (m) { m.node.classList.add("f17-shared"); });
      Q.update(data.q); K.update(data.k); V.update(data.v);
      var attCol = el("section", { class: "f17-col f17-att", "aria-label": "Causal softmax attention" },
        el("p", { class: "f17-head", text: "Causal softmax attention" }),
        el("div", { class: "k3-scroll f17-ctl" }, stageChoice.node),
        el("div", { class: "f17-mats" }, Q.node, K.node, V.node, S.node, O.node));

      /* delta-rule column: the shared delta-step panel, a whole token per step */
      var tokChoice = W.choice({
        label: "Delta-rule token",
        options: names.map(function (n, i) { return { value: i, text: n, aria: ctx.text(["text", "token_option"], { token: ["token_named", i] }) }; }),
        value: ctx.get().tok, onChange: function (i, how) { ctx.set({ tok: i }, how); },
      });
      var beta = ctx.show(el("span", { class: "f17-beta k3-readout k3-num", "data-sym": "dr-beta", tabindex: "0",
        "aria-label": ctx.text(["text", "beta_label"]) }), ["text", "beta"]);
      var panel = W.deltaStep({ d: data.d_k, digits: dig, query: true, current: false, vectorsCaption: "this token", heat: heat });
      // S₀ + write = S₁ reads as one line: the write keeps its k chips but borrows S₀'s row labels, as S₁ does
      panel.write.node.classList.add("f17-shared-chips");
      panel.after.node.classList.add("f17-shared");
      // what a token step writes lands as a wave; its other grids are drawn at once (see the sheet)
      [panel.write, panel.after].forEach(function (m) { m.node.classList.add("f17-lands"); });
      var drCol = el("section", { class: "f17-col f17-dr", "aria-label": "Delta rule" },
        el("p", { class: "f17-head", text: "Delta rule" }),
        el("div", { class: "f17-ctl k3-row" }, el("div", { class: "k3-scroll" }, tokChoice.node), beta),
        panel.node);

      /* what each keeps after the picked token, and what each reads (no data-sym: the columns carry the links) */
      var keep = {
        K: mat("keys kept", null, names, dims(data.d_k)), V: mat("values kept", null, names, dims(data.d_v)),
        w: mat("reads: softmax weights", null, null, names.map(function (n, i) { return "k" + W.sub(i + 1); })),
        o: mat("output", null, null, dims(data.d_v)),
        S: W.stateMatrix({ caption: "state kept", d_k: data.d_k, d_v: data.d_v, digits: dig, heat: heat }),
        so: mat("reads: Sᵀq", null, null, dims(data.d_v)),
      };
      keep.V.node.classList.add("f17-shared");
      var keepAtt = el("p", { class: "f17-keep-n" }), keepDr = el("p", { class: "f17-keep-n" });
      var keepBox = el("section", { class: "f17-keep", "aria-label": ctx.text(["text", "keeps_heading"]) },
        el("div", { class: "f17-keep-side" }, keepAtt, el("div", { class: "f17-keep-mats" }, keep.K.node, keep.V.node),
          el("div", { class: "f17-keep-mats" }, keep.w.node, keep.o.node)),
        el("div", { class: "f17-keep-side" }, keepDr, el("div", { class: "f17-keep-mats f17-keep-read" }, keep.S.node, keep.so.node)));

      root.appendChild(el("div", { class: "f17-key" }, W.heat.legend(data.heat_scale), W.heat.toggle(root)));
      root.appendChild(el("div", { class: "f17" }, attCol, drCol));
      root.appendChild(keepBox);
      mount.appendChild(root);

      ctx.show(keepDr, ["text", "keeps_delta"]);

      function paintAttention(stage) {
        var src = [A.raw_scores, A.scaled_scores, A.scaled_scores, A.weights, A.weights][stage];
        var hidden = function (i, j) { return stage >= 2 && A.mask[i][j] === 0; };
        stageChoice.set(stage);
        var sym = stage === 4 ? "att-softmax" : STAGE_SYMS[stage];
        // writes only where something differs (W.text, W.attr): replacing a text node, even with the
        // same text, costs the browser a layout of the grid around it
        W.attr(S.node, "data-sym", sym);
        ctx.show(S.node.caption, ["stages", stage, "caption"]);
        S.update(src.map(function (row, i) {
          return row.map(function (x, j) { return hidden(i, j) ? (stage === 2 ? "−∞" : "0") : x; });
        }), { masked: hidden });
        O.update(stage === 4 ? A.output : A.output.map(function () { return dots(data.d_v); }));
      }
      function paintDelta(tok) {
        var d = data.delta[tok], upto = function (m, n) { return m.map(function (r, i) { return i <= tok ? r : dots(n); }); };
        tokChoice.set(tok);
        panel.update(d, 3, { before: d.before_caption, after: d.after_caption });
        ctx.show(keepAtt, ["text", "keeps_attention"], { token: ["token_named", tok], kept: ["kept_text", "attention", tok] });
        keep.K.update(upto(data.k, data.d_k));
        keep.V.update(upto(data.v, data.d_v));
        keep.w.update(A.weights[tok].map(function (x, j) { return j <= tok ? x : "·"; }));
        keep.o.update(A.output[tok]);
        keep.S.update(d.state);
        keep.so.update(d.output);
      }

      return {
        render: function (state, prev) {
          if (!prev || prev.att !== state.att) paintAttention(state.att);
          if (!prev || prev.tok !== state.tok) paintDelta(state.tok);
        },
        describe: function (prev, next) {
          var stage = ["stages", next.att, "describe"], token = ["delta", next.tok, "describe"];
          if (prev.att !== next.att && prev.tok !== next.tok) return { path: ["text", "describe_both"], slots: { attention: stage, delta: token } };
          return { path: prev.att !== next.att ? stage : token };
        },
      };
    },
  });
})();
