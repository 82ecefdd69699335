/* FIG 07 · Gated delta rule: DeltaNet (α = 1) and Gated DeltaNet side by side on the same tokens,
 * as heatmaps on one colour scale. Each token has two phases — decay (the gated state is scaled by
 * α, and its colours fade) and write (each state gets its own delta-rule write, the gated one's error
 * taken against its decayed state) — and an α slider
 * picks the gate. A small plot follows how much of token 1's write is left, token by token, for
 * the slider's α. States and survival come from gated_delta_rule / delta_rule at build time, one
 * run per slider position, and so does every sentence (the builder's templates, whose {slots} take
 * the texts of the token and the slider position shown): this file only places them. */
(function () {
  "use strict";
  var PHASES = ["decay", "write"];
  function fa(a) { return window.K3W.fmt(a, 3); }  // α in the URL

  K3.register("fig-07-gated-delta", {
    state: function (data) {  // opens where the decay has acted (the builder's open_step); α with three decimals
      return { step: K3.state.int(0, 2 * data.n_tokens - 1, data.open_step), alpha: K3W.gridState(data.alphas, data.alpha_default, fa) };
    },
    setup: function (mount, data, ctx) {
      var W = window.K3W, el = W.el, S = W.svg, dig = data.digits, heat = { scale: data.heat_scale };
      var T = data.n_tokens, N = 2 * T;
      function ai(s) { return data.alphas.indexOf(s.alpha); }
      /* the texts a sentence about token t at slider position i takes, by slot name; each
       * template is given the ones it names */
      function slots(t, i, names) {
        var all = { token: ["tokens", t], state: ["state_names", t], alpha: ["gated", i, "alpha_text"],
          diff: ["gated", i, "diff_text", t], left: ["gated", i, "left_text", t], decay: ["gated", i, "decay_text", t],
          row: ["gated", i, "row_text", t], plain: ["plain_left_text", t] };
        var out = {};
        names.forEach(function (n) { out[n] = all[n]; });
        return out;
      }

      var stepper = W.stepper({
        label: "Token and phase", count: N, value: ctx.get().step,
        format: function (s) { return ctx.text(["walk", s, "readout"]); },
        onChange: function (s, how) { ctx.set({ step: s }, how); },
      });
      var slider = W.slider({
        label: "gate α", values: data.alphas, index: ai(ctx.get()),
        format: function (a) { return ctx.text(["gated", data.alphas.indexOf(a), "gate_text"]); },
        onInput: function (i) { ctx.set({ alpha: data.alphas[i] }, "input"); },
      });
      slider.node.setAttribute("data-sym", "gd-alpha");
      slider.input.setAttribute("aria-label", ctx.text(["text", "slider_aria"]));
      slider.input.addEventListener("change", function () { ctx.end(); });  // a finished drag or key press is a history entry

      var left = W.stateMatrix({ caption: "S", d_k: data.d, d_v: data.d, digits: dig, sym: "dr-state", heat: heat });
      var right = W.stateMatrix({ caption: "S", d_k: data.d, d_v: data.d, digits: dig, sym: "dr-state", heat: heat });
      var gateTag = el("span", { class: "f07-tag k3-num", "data-sym": "gd-alpha" });
      var readout = el("p", { class: "f07-readout k3-num" });

      /* token 1's write, left after each token: gated at the slider's α, DeltaNet, and α^n (decay alone) */
      var PW = 270, PH = 150, M = { l: 38, r: 10, t: 10, b: 34 };
      var x = function (n) { return M.l + (PW - M.l - M.r) * n / Math.max(1, T - 1); };
      var y = function (s) { return PH - M.b - (PH - M.t - M.b) * s; };
      var line = function (ys) { return ys.map(function (s, n) { return (n ? "L" : "M") + x(n).toFixed(1) + "," + y(s).toFixed(1); }).join(""); };
      var gPlain = S.path(line(data.gated[data.alphas.length - 1].survival), "f07-l-plain");
      var gDecay = S.path("", "f07-l-decay"), gGated = S.path("", "f07-l-gated");
      var cursor = S.line(x(0), M.t, x(0), PH - M.b, "f07-cursor"), dot = S.el("circle", { r: 4, class: "f07-dot" });
      var axes = S.g({ class: "f07-axes" });
      [0, 0.5, 1].forEach(function (s) {
        axes.appendChild(S.line(M.l, y(s), PW - M.r, y(s), "f07-grid"));
        axes.appendChild(S.el("text", { x: M.l - 5, y: y(s) + 4, "text-anchor": "end", text: W.fmt(100 * s, 0) + "%" }));
      });
      W.range(T, function (n) { axes.appendChild(S.el("text", { x: x(n), y: PH - M.b + 14, "text-anchor": "middle", text: String(n + 1) })); });
      axes.appendChild(S.el("text", { x: (M.l + PW - M.r) / 2, y: PH - 4, "text-anchor": "middle", class: "k3-axis-title", text: "after token" }));
      var plotText = el("p", { class: "f07-plot-text k3-num" });
      var svg = S.el("svg", { viewBox: "0 0 " + PW + " " + PH, class: "f07-svg", "aria-hidden": "true" },
        axes, gPlain, gDecay, gGated, cursor, dot);
      var plot = el("figure", { class: "f07-plot" },
        ctx.show(el("figcaption", { class: "f07-title" }), ["text", "plot_title"]), svg,
        el("div", { class: "f07-plot-side" },  // beside the plot where there is room, under it on a phone
          W.legend([{ text: "gated, slider α", swatch: "line", cls: "f07-s-gated" },
            { text: "αⁿ, decay alone", swatch: "line", dash: true, cls: "f07-s-decay" },
            { text: "DeltaNet, overwrites alone", swatch: "line", cls: "f07-s-plain" }]), plotText));

      var root = el("div", { class: "f07" });
      root.appendChild(el("div", { class: "f07-controls" }, stepper.node, slider.node));
      root.appendChild(el("div", { class: "f07-legend" }, W.heat.legend(data.heat_scale), W.heat.toggle(root)));
      root.appendChild(el("div", { class: "f07-pair" },
        el("div", { class: "f07-side" }, el("p", { class: "f07-title", text: "DeltaNet · α = 1" }), left.node),
        el("div", { class: "f07-side f07-gated" }, el("p", { class: "f07-title" }, "Gated DeltaNet · ", gateTag), right.node),
        plot));
      root.appendChild(readout);
      mount.appendChild(root);

      function zeros() { return left.cells.map(function (r) { return r.map(function () { return 0; }); }); }

      function paint(step, i) {
        var t = Math.floor(step / 2), phase = step % 2, g = data.gated[i];
        var plainState = phase === 0 ? data.plain.state_prev[t] : data.plain.state[t];
        stepper.set(step);
        slider.set(i);
        ctx.show(gateTag, ["gated", i, "gate_text"]);
        ctx.show(left.node.caption, ["walk", step, "plain_caption"]);
        ctx.show(right.node.caption, ["walk", step, "gated_caption"]);
        left.update(plainState || zeros());
        right.update(phase === 0 ? g.decayed[t] : g.state[t], { tone: phase === 0 ? "decayed" : "" });
        gGated.setAttribute("d", line(g.survival));
        gDecay.setAttribute("d", line(g.decay_only));
        S.at(cursor, x(t) - x(0), 0);
        dot.setAttribute("cx", x(t));
        dot.setAttribute("cy", y(g.survival[t]));
        ctx.show(plotText, ["text", "plot"], slots(t, i, ["alpha", "token", "left", "decay", "plain"]));
        if (phase === 0) ctx.show(readout, ["text", "readout_decay"], slots(t, i, ["alpha", "token"]));
        else ctx.show(readout, ["gated", i, "after_write"], slots(t, i, ["token", "diff"]));
      }

      return {
        render: function (state) { paint(state.step, ai(state)); },
        describe: function (prev, next) {
          // a new step says what it did; a new α what the grids show now (the decayed state, or the
          // state after the write); a link changing both says both
          var t = Math.floor(next.step / 2), phase = PHASES[next.step % 2], i = ai(next);
          var which = prev.step === next.step ? "said_alpha" : prev.alpha === next.alpha ? "said" : "said_both";
          var names = { said: { decay: ["token", "alpha", "row"], write: ["token", "diff"] },
            said_alpha: { decay: ["alpha", "token", "state", "row", "left"], write: ["alpha", "token", "diff", "left"] } };
          names.said_both = { decay: names.said.decay.concat(["state", "left"]), write: names.said_alpha.write };
          return { path: ["text", which, phase], slots: slots(t, i, names[which][phase]) };
        },
      };
    },
  });
})();
