/* FIG 17 · Mathematical playground: the same four tokens through causal softmax attention (one
 * stage per step: scores, scale, mask, softmax, output) and the delta rule (one token per step:
 * read, error, write, read-out), every matrix a heatmap on one colour scale. Below, what each
 * keeps after the picked token (attention: every key and value so far; the delta rule: one state)
 * and what each reads from it. Every intermediate was computed at build time by
 * causal_softmax_attention and delta_rule; each part carries the data-sym of its equation symbol. */
(function () {
  "use strict";
  var STAGES = [
    { text: "QKᵀ", sym: "att-scores", caption: "raw scores q·k" },
    { text: "÷ √dₖ", sym: "att-scale", caption: "scaled scores q·k / √dₖ" },
    { text: "+ M", sym: "att-mask", caption: "masked scores (+ M)" },
    { text: "softmax", sym: "att-softmax", caption: "softmax weights (rows sum to 1)" },
    { text: "· V", sym: "att-out", caption: "softmax weights (rows sum to 1)" },
  ];

  K3.register("fig-17-playground", {
    state: function (data) {
      return { att: K3.state.int(0, STAGES.length - 1, 0), tok: K3.state.int(0, data.tokens.length - 1, 0) };
    },
    setup: function (mount, data, ctx) {
      var W = window.K3W, el = W.el, dig = data.digits, A = data.attention, heat = { scale: data.heat_scale };
      var T = data.tokens.length;
      // a token is labelled by its word, quoted ("a" and "I" are words here, not symbols); prose
      // names it by position and word
      var names = data.tokens.map(function (t) { return "“" + t + "”"; });
      var named = function (i) { return (i + 1) + " (" + names[i] + ")"; };
      var dims = function (n) { return W.axis("d", n); };
      var vec = function (xs) { return "[" + xs.map(function (x) { return W.fmt(x, dig); }).join(", ") + "]"; };
      var dots = function (n) { return W.range(n, function () { return "·"; }); };
      var mat = function (caption, sym, rows, cols) {
        return W.matrix({ caption: caption, rows: rows, cols: cols, corner: "", digits: dig, sym: sym, heat: heat });
      };
      var root = el("div", { class: "f17-root" });

      /* attention column */
      var stageChoice = W.choice({
        label: "Attention stage",
        options: STAGES.map(function (s, i) {
          return { value: i, text: s.text, sym: s.sym, aria: "Stage " + (i + 1) + ": " + s.caption + (i === 4 ? " and outputs" : "") };
        }),
        value: ctx.get().att, onChange: function (i, how) { ctx.set({ att: i }, how); },
      });
      var Q = mat("Q (queries)", "att-q", names, dims(data.d_k)), K = mat("K (keys)", "att-k", names, dims(data.d_k));
      var V = mat("V (values)", "att-v", names, dims(data.d_v));
      var S = mat(STAGES[0].caption, null, names, names.map(function (n, i) { return "k" + W.sub(i + 1); }));
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
        options: names.map(function (n, i) { return { value: i, text: n, aria: "Token " + named(i) }; }),
        value: ctx.get().tok, onChange: function (i, how) { ctx.set({ tok: i }, how); },
      });
      var beta = el("span", { class: "f17-beta k3-readout k3-num", "data-sym": "dr-beta", tabindex: "0",
        "aria-label": "write strength beta = " + W.fmt(data.beta, 2), text: "β = " + W.fmt(data.beta, 2) });
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
      var keepBox = el("section", { class: "f17-keep", "aria-label": "What each keeps and reads" },
        el("div", { class: "f17-keep-side" }, keepAtt, el("div", { class: "f17-keep-mats" }, keep.K.node, keep.V.node),
          el("div", { class: "f17-keep-mats" }, keep.w.node, keep.o.node)),
        el("div", { class: "f17-keep-side" }, keepDr, el("div", { class: "f17-keep-mats f17-keep-read" }, keep.S.node, keep.so.node)));

      root.appendChild(el("div", { class: "f17-key" }, W.heat.legend(data.heat_scale), W.heat.toggle(root)));
      root.appendChild(el("div", { class: "f17" }, attCol, drCol));
      root.appendChild(keepBox);
      mount.appendChild(root);

      keepDr.textContent = "The delta rule keeps one " + data.d_k + " × " + data.d_v + " state: " + data.kept.delta +
        " numbers after any number of tokens.";

      function paintAttention(stage) {
        var s = STAGES[stage], src = [A.raw_scores, A.scaled_scores, A.scaled_scores, A.weights, A.weights][stage];
        var hidden = function (i, j) { return stage >= 2 && A.mask[i][j] === 0; };
        stageChoice.set(stage);
        var sym = stage === 4 ? "att-softmax" : s.sym;
        // writes only where something differs (W.text, W.attr): replacing a text node, even with the
        // same text, costs the browser a layout of the grid around it
        W.attr(S.node, "data-sym", sym);
        W.text(S.node.caption, s.caption);
        S.update(src.map(function (row, i) {
          return row.map(function (x, j) { return hidden(i, j) ? (stage === 2 ? "−∞" : "0") : x; });
        }), { masked: hidden });
        O.update(stage === 4 ? A.output : A.output.map(function () { return dots(data.d_v); }));
      }
      function paintDelta(tok) {
        var d = data.delta[tok], upto = function (m, n) { return m.map(function (r, i) { return i <= tok ? r : dots(n); }); };
        tokChoice.set(tok);
        panel.update(d, 3, { before: "S" + W.sub(tok) + " before", after: "S" + W.sub(tok + 1) + " after" });
        W.text(keepAtt, "Attention after token " + named(tok) + " keeps every key and value so far: " +
          data.kept.attention[tok] + " numbers, one more row of each per token.");
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
          var said = [];
          if (prev.att !== next.att) {  // the last query's row: the one every stage changes
            var last = T - 1, row = [A.raw_scores, A.scaled_scores, A.scaled_scores, A.weights, A.output][next.att][last];
            said.push("Attention, " + (next.att === 4 ? "output O = weights · V" : STAGES[next.att].caption.replace(/ \(.*\)/, "")) +
              " for query " + named(last) + ": " + vec(row) + (next.att === 2 ? "; the earlier queries' entries above the diagonal are −∞" : "") + ".");
          }
          if (prev.tok !== next.tok) {
            var d = data.delta[next.tok];
            said.push("Delta rule, token " + named(next.tok) + ": read " + vec(d.read) + ", error " + vec(d.error) +
              ", output " + vec(d.output) + ". Attention now keeps " + data.kept.attention[next.tok] +
              " numbers, the delta rule " + data.kept.delta + ".");
          }
          return said.join(" ");
        },
      };
    },
  });
})();
