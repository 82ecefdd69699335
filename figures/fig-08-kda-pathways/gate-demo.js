/* K3W widgets: FIG 08's live demo (below the diagram) — the same seeded tokens through Gated DeltaNet (one α for every
 * channel) and through KDA (one α per channel), both states computed at build time by the kernels.
 * It lives here, not in the figure file, only to keep each file small; nothing else uses it.
 *
 * K3W.kdaGateDemo(data, ctx) → {node, paint(equal), describe(equal)}; the "Equal channel gates"
 * switch sets the figure's `equal` state through ctx.set.
 */
(function () {
  "use strict";
  var W = window.K3W, el = W.el;
  W.kdaGateDemo = function (data, ctx) {
    var demo = data.demo;
    var cols = W.range(demo.d_v, function (j) { return "v" + (j + 1); });
    var rows = W.range(demo.d_k, function (i) { return "k" + (i + 1); });
    // heatmaps on one scale: the rows a channel's gate keeps stay strong, the ones it fades pale
    var heat = { scale: demo.heat_scale };
    var mGdn = W.matrix({ caption: "S, Gated DeltaNet (one α)", rows: rows, cols: cols, digits: 3, sym: "kda-state", heat: heat });
    var mKda = W.matrix({ caption: "S, KDA (α per channel)", rows: rows, cols: cols, digits: 3, sym: "kda-state", heat: heat });
    mGdn.node.classList.add("f08-s-gdn");
    mKda.node.classList.add("f08-s-kda");
    var gates = el("div", { class: "f08-gates", "data-sym": "kda-alpha" });
    var equalSwitch = el("button", { type: "button", class: "k3-btn f08-equal", role: "switch", "aria-checked": "false",
      text: "Equal channel gates", on: { click: function () { ctx.set({ equal: !ctx.get().equal }, "click"); } } });
    var diffLine = el("p", { class: "f08-diff" });
    var scaleRow = el("div", { class: "f08-mats-head" }, W.heat.legend(demo.heat_scale));
    var node = el("div", { class: "f08-demo", role: "group", "aria-label": "Live demo" },
      el("div", { class: "f08-demo-side" },
        el("p", { class: "k3-label", text: "Live demo: the same " + demo.n_tokens + " tokens, two gates" }),
        el("p", { class: "f08-demo-note" }, "Unit keys and queries, ", el("span", { "data-sym": "kda-beta", text: "β = " + W.fmt(demo.beta, 2) }),
          ", " + demo.n_tokens / demo.chunk + " chunks of C = " + demo.chunk + " (production: " + data.production_chunk + ")."),
        gates, equalSwitch),
      el("div", { class: "f08-mats" }, scaleRow, el("div", { class: "k3-scroll" }, mGdn.node), el("div", { class: "k3-scroll" }, mKda.node)),
      diffLine);

    scaleRow.appendChild(W.heat.toggle(node));

    function paint(equal) {
      var S = equal ? demo.S_kda_equal : demo.S_kda;
      var diff = equal ? demo.diff_equal : demo.diff_channels;
      var alphas = equal ? demo.alpha_channels.map(function () { return demo.alpha_scalar; }) : demo.alpha_channels;
      mGdn.update(demo.S_gdn);
      mKda.update(S);
      mKda.node.querySelector("caption").textContent = equal ? "S, KDA (every channel α = " + W.fmt(demo.alpha_scalar, 2) + ")" : "S, KDA (α per channel)";
      equalSwitch.setAttribute("aria-checked", equal ? "true" : "false");
      gates.textContent = "";
      gates.append(el("span", { class: "f08-gate-label", text: "Gated DeltaNet α" }),
        el("span", { class: "f08-gate k3-num f08-alpha-scalar", text: W.fmt(demo.alpha_scalar, 2) + " on all " + demo.d_k }),
        el("span", { class: "f08-gate-label", text: "KDA α, channels 1–" + demo.d_k }));
      var row = el("span", { class: "f08-gate-row" });
      alphas.forEach(function (a) {
        row.appendChild(el("span", { class: "f08-gate k3-num f08-alpha", style: "--a:" + a, text: W.fmt(a, 2) }));
      });
      gates.appendChild(row);
      diffLine.textContent = "";
      diffLine.append("Largest difference between the two states: ",
        el("span", { class: "k3-num f08-maxdiff", text: W.fmt(diff, 3) }),
        diff === 0 ? " — identical: equal channel gates make KDA exactly Gated DeltaNet. " :
          " — per-channel decay keeps some rows and fades others. ",
        el("span", { class: "f08-chunked" }, "The chunked form of KDA with the per-channel gates (C = " + demo.chunk + ") gives the same state to ",
          el("span", { class: "k3-num f08-chunk-diff", text: W.sci(demo.diff_chunked, { digits: 0 }) }), "."));
    }
    function describe(equal) {
      return equal ? "All channel gates set to " + W.fmt(demo.alpha_scalar, 2) + ": KDA's state equals Gated DeltaNet's, largest difference " + W.fmt(demo.diff_equal, 3) + "."
        : "Per-channel gates " + demo.alpha_channels.map(function (a) { return W.fmt(a, 2); }).join(", ") +
          ": the states differ by up to " + W.fmt(demo.diff_channels, 3) + ".";
    }
    return { node: node, paint: paint, describe: describe };
  };
})();
