/* K3W widgets: FIG 08's live demo (below the diagram) — the same seeded tokens through Gated DeltaNet (one α for every
 * channel) and through KDA (one α per channel), both states computed at build time by the kernels,
 * its words written by the builder (demo.text; keyed "channels" or "equal" where the switch changes them).
 * It lives here, not in the figure file, only to keep each file small; nothing else uses it.
 *
 * K3W.kdaGateDemo(data, ctx) → {node, paint(equal), describe(equal) → {path} for the live region};
 * the "Equal channel gates" switch sets the figure's `equal` state through ctx.set.
 */
(function () {
  "use strict";
  var W = window.K3W, el = W.el;
  W.kdaGateDemo = function (data, ctx) {
    var demo = data.demo, T = ["demo", "text"];
    function say(node, key) { return ctx.show(node, T.concat(key)); }  // node, showing demo.text[key…]
    function mode(equal) { return equal ? "equal" : "channels"; }
    var cols = W.range(demo.d_v, function (j) { return "v" + (j + 1); });
    var rows = W.range(demo.d_k, function (i) { return "k" + (i + 1); });
    // heatmaps on one scale: the rows a channel's gate keeps stay strong, the ones it fades pale
    var heat = { scale: demo.heat_scale };
    var mGdn = W.matrix({ caption: ctx.text(T.concat("caption_gdn")), rows: rows, cols: cols, digits: 3, sym: "kda-state", heat: heat });
    var mKda = W.matrix({ caption: ctx.text(T.concat("caption_kda", "channels")), rows: rows, cols: cols, digits: 3, sym: "kda-state", heat: heat });
    mGdn.node.classList.add("f08-s-gdn");
    mKda.node.classList.add("f08-s-kda");
    var gates = el("div", { class: "f08-gates", "data-sym": "kda-alpha" });
    var equalSwitch = el("button", { type: "button", class: "k3-btn f08-equal", role: "switch", "aria-checked": "false",
      text: "Equal channel gates", on: { click: function () { ctx.set({ equal: !ctx.get().equal }, "click"); } } });
    var diffLine = el("p", { class: "f08-diff" });
    var scaleRow = el("div", { class: "f08-mats-head" }, W.heat.legend(demo.heat_scale));
    var node = el("div", { class: "f08-demo", role: "group", "aria-label": "Live demo" },
      el("div", { class: "f08-demo-side" },
        say(el("p", { class: "k3-label" }), "heading"),
        el("p", { class: "f08-demo-note" }, say(el("span"), "note_lead"), say(el("span", { "data-sym": "kda-beta" }), "beta"),
          say(el("span"), "note_tail")),
        gates, equalSwitch),
      el("div", { class: "f08-mats" }, scaleRow, el("div", { class: "k3-scroll" }, mGdn.node), el("div", { class: "k3-scroll" }, mKda.node)),
      diffLine);

    scaleRow.appendChild(W.heat.toggle(node));

    function paint(equal) {
      var key = mode(equal), alphas = equal ? demo.alpha_channels.map(function () { return demo.alpha_scalar; }) : demo.alpha_channels;
      mGdn.update(demo.S_gdn);
      mKda.update(equal ? demo.S_kda_equal : demo.S_kda);
      say(mGdn.node.querySelector("caption"), "caption_gdn");
      ctx.show(mKda.node.querySelector("caption"), T.concat("caption_kda", key));
      equalSwitch.setAttribute("aria-checked", equal ? "true" : "false");
      gates.textContent = "";
      gates.append(say(el("span", { class: "f08-gate-label" }), "scalar_label"),
        say(el("span", { class: "f08-gate k3-num f08-alpha-scalar" }), "scalar"),
        say(el("span", { class: "f08-gate-label" }), "channels_label"));
      var row = el("span", { class: "f08-gate-row" });
      alphas.forEach(function (a, i) {  // each channel's gate, shaded by its value (--a)
        row.appendChild(ctx.show(el("span", { class: "f08-gate k3-num f08-alpha", style: "--a:" + a }), T.concat("alpha", key, i)));
      });
      gates.appendChild(row);
      diffLine.textContent = "";
      diffLine.append(say(el("span"), "diff_lead"),
        ctx.show(el("span", { class: "k3-num f08-maxdiff" }), T.concat("diff", key)),
        ctx.show(el("span"), T.concat("verdict", key)),
        el("span", { class: "f08-chunked" }, say(el("span"), "chunked_lead"),
          say(el("span", { class: "k3-num f08-chunk-diff" }), "chunked_diff"), say(el("span"), "chunked_tail")));
    }
    function describe(equal) { return { path: T.concat("describe", mode(equal)) }; }
    return { node: node, paint: paint, describe: describe };
  };
})();
