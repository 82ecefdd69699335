/* FIG 07 · Gated delta rule: DeltaNet (α = 1) and Gated DeltaNet side by side on the same tokens,
 * as heatmaps on one colour scale. Each token has two phases — decay (the gated state is scaled by
 * α, and its colours fade) and write (each state gets its own delta-rule write, the gated one's error
 * taken against its decayed state) — and an α slider
 * picks the gate. A small plot follows how much of token 1's write is left, token by token, for
 * the slider's α. States and survival come from gated_delta_rule / delta_rule at build time, one
 * run per slider position. */
(function () {
  "use strict";
  var PHASES = ["decay", "write"];
  function fa(a) { return window.K3W.fmt(a, 3); }
  function pct(x) { return window.K3W.fmt(100 * x, 1) + " %"; }

  K3.register("fig-07-gated-delta", {
    state: function (data) {  // opens where the decay has acted (the builder's open_step); α with three decimals
      return { step: K3.state.int(0, 2 * data.n_tokens - 1, data.open_step), alpha: K3W.gridState(data.alphas, data.alpha_default, fa) };
    },
    setup: function (mount, data, ctx) {
      var W = window.K3W, el = W.el, S = W.svg, dig = data.digits, heat = { scale: data.heat_scale };
      var T = data.n_tokens, N = 2 * T;
      function ai(s) { return data.alphas.indexOf(s.alpha); }

      var stepper = W.stepper({
        label: "Token and phase", count: N, value: ctx.get().step,
        format: function (s) { return "token " + (Math.floor(s / 2) + 1) + " / " + T + " · " + PHASES[s % 2]; },
        onChange: function (s, how) { ctx.set({ step: s }, how); },
      });
      var slider = W.slider({
        label: "gate α", values: data.alphas, index: ai(ctx.get()), format: function (a) { return "α = " + fa(a); },
        onInput: function (i) { ctx.set({ alpha: data.alphas[i] }, "input"); },
      });
      slider.node.setAttribute("data-sym", "gd-alpha");
      slider.input.setAttribute("aria-label", "Gate alpha of the Gated DeltaNet state");
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
        el("figcaption", { class: "f07-title", text: "How much of token 1's write is left" }), svg,
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
      function row(xs) { return "[" + xs.map(function (v) { return W.fmt(v, dig); }).join(", ") + "]"; }
      function survivalText(t, g, a) {
        return "α = " + fa(a) + ": after token " + (t + 1) + ", " + pct(g.survival[t]) + " of token 1's write is left (" +
          pct(g.decay_only[t]) + " from decay alone; " + pct(data.gated[data.alphas.length - 1].survival[t]) + " in DeltaNet).";
      }

      function paint(step, i) {
        var t = Math.floor(step / 2), phase = step % 2, g = data.gated[i], a = data.alphas[i];
        var plainState = phase === 0 ? data.plain.state_prev[t] : data.plain.state[t];
        stepper.set(step);
        slider.set(i);
        gateTag.textContent = "α = " + fa(a);
        left.caption(phase === 0 ? "S" + W.sub(t) + " (no decay)" : "S" + W.sub(t + 1) + " after the write");
        right.caption(phase === 0 ? "α·S" + W.sub(t) + " (decayed)" : "S" + W.sub(t + 1) + " after the write");
        left.update(plainState || zeros());
        right.update(phase === 0 ? g.decayed[t] : g.state[t], { tone: phase === 0 ? "decayed" : "" });
        gGated.setAttribute("d", line(g.survival));
        gDecay.setAttribute("d", line(g.decay_only));
        S.at(cursor, x(t) - x(0), 0);
        dot.setAttribute("cx", x(t));
        dot.setAttribute("cy", y(g.survival[t]));
        plotText.textContent = survivalText(t, g, a);
        readout.textContent = phase === 0
          ? "Decay: every cell of the gated state is multiplied by α = " + fa(a) + " before token " + (t + 1) + "'s write lands."
          : "After token " + (t + 1) + ": the two states differ by at most " + W.fmt(g.diff[t], dig) +
            (a === 1 ? " — with α = 1 they are identical." : a === 0 ? " — with α = 0 the gated state holds only the latest write." : ".");
      }

      return {
        render: function (state) { paint(state.step, ai(state)); },
        describe: function (prev, next) {
          var t = Math.floor(next.step / 2), g = data.gated[ai(next)], said = [];
          if (prev.step !== next.step) {
            said.push(next.step % 2 === 0
              ? "Token " + (t + 1) + ", decay: the gated state is multiplied by α = " + fa(next.alpha) + "; its first row is now " +
                row(g.decayed[t][0]) + "."
              : "Token " + (t + 1) + ", write: each state receives its own delta-rule write (the gated one corrects against its decayed state); they now differ by at most " +
                W.fmt(g.diff[t], dig) + ".");
          }
          if (prev.alpha !== next.alpha) {  // what the grids show now: the decayed state, or the state after the write
            said.push("α = " + fa(next.alpha) + (next.step % 2 === 0
              ? ": before token " + (t + 1) + "'s write the gated state is α·S" + W.sub(t) + ", first row " + row(g.decayed[t][0])
              : ": after token " + (t + 1) + " the gated state differs from DeltaNet by at most " + W.fmt(g.diff[t], dig)) +
              "; " + pct(g.survival[t]) + " of token 1's write is left.");
          }
          return said.join(" ");
        },
      };
    },
  });
})();
