/* FIG 07 · Gated delta rule: DeltaNet (α = 1) and Gated DeltaNet side by side on the same tokens.
 * Each token has two phases — decay (the gated state is scaled by α) and write (the same delta-rule
 * write lands on both) — and an α slider picks the gate. States come from gated_delta_rule / delta_rule
 * at build time, one run per slider position. */
(function () {
  "use strict";
  var PHASES = ["decay", "write"];
  function fa(a) { return window.K3W.fmt(a, 3); }

  K3.register("fig-07-gated-delta", {
    state: function (data) {  // step 1 = token 1's write; α is written with three decimals ("0.750")
      return { step: K3.state.int(0, 2 * data.n_tokens - 1, 1), alpha: K3W.gridState(data.alphas, data.alpha_default, fa) };
    },
    setup: function (mount, data, ctx) {
      var W = window.K3W, el = W.el, dig = data.digits;
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
      slider.input.setAttribute("aria-label", "Gate alpha of the right-hand state");
      slider.input.addEventListener("change", function () { ctx.end(); });  // a finished drag or key press is a history entry

      var left = W.stateMatrix({ caption: "", d_k: data.d, d_v: data.d, digits: dig, sym: "dr-state" });
      var right = W.stateMatrix({ caption: "", d_k: data.d, d_v: data.d, digits: dig, sym: "dr-state" });
      var gateTag = el("span", { class: "f07-tag k3-num", "data-sym": "gd-alpha" });
      var readout = el("p", { class: "f07-readout k3-num" });
      mount.appendChild(el("div", { class: "f07" },
        el("div", { class: "f07-controls" }, stepper.node, slider.node),
        el("div", { class: "f07-pair" },
          el("div", { class: "f07-side" }, el("p", { class: "f07-title", text: "DeltaNet · α = 1" }), left.node),
          el("div", { class: "f07-side f07-gated" }, el("p", { class: "f07-title" }, "Gated DeltaNet · ", gateTag), right.node)),
        readout));

      function zeros() { return left.cells.map(function (r) { return r.map(function () { return 0; }); }); }
      function row(xs) { return "[" + xs.map(function (x) { return W.fmt(x, dig); }).join(", ") + "]"; }

      function paint(step, i, animate) {
        var t = Math.floor(step / 2), phase = step % 2, g = data.gated[i], a = data.alphas[i];
        var plainState = phase === 0 ? data.plain.state_prev[t] : data.plain.state[t];
        var gatedState = phase === 0 ? g.decayed[t] : g.state[t];
        stepper.set(step);
        slider.set(i);
        gateTag.textContent = "α = " + fa(a);
        left.caption(phase === 0 ? "S" + W.sub(t) + " (no decay)" : "S" + W.sub(t + 1) + " after the write");
        right.caption(phase === 0 ? "α·S" + W.sub(t) + " (decayed)" : "S" + W.sub(t + 1) + " after the write");
        left.update(plainState || zeros());
        right.update(gatedState, { tone: phase === 0 ? "decayed" : "" });
        right.node.style.setProperty("--f07-a", phase === 0 ? a : 1);  // drawing only: faded cells dim with α
        if (animate && phase === 0 && !ctx.reducedMotion()) {
          right.node.classList.remove("f07-fade");
          void right.node.offsetWidth;  // restart the short fade
          right.node.classList.add("f07-fade");
        }
        readout.textContent = phase === 0
          ? "Decay: every cell of the right-hand state is multiplied by α = " + fa(a) + " before token " + (t + 1) + "'s write lands."
          : "After token " + (t + 1) + ": the two states differ by at most " + W.fmt(g.diff[t], dig) +
            (a === 1 ? " — with α = 1 they are identical." : a === 0 ? " — with α = 0 the right-hand state holds only the latest write." : ".");
      }

      return {
        render: function (state, prev, how) {
          // a new step fades the decayed state in; a restore or a new α redraws it as it is
          paint(state.step, ai(state), !!prev && how !== "restore" && prev.step !== state.step);
        },
        describe: function (prev, next) {
          var t = Math.floor(next.step / 2), g = data.gated[ai(next)], said = [];
          if (prev.step !== next.step) {
            said.push(next.step % 2 === 0
              ? "Token " + (t + 1) + ", decay: the gated state is multiplied by α = " + fa(next.alpha) + "; its first row is now " +
                row(g.decayed[t][0]) + "."
              : "Token " + (t + 1) + ", write: both states receive the delta-rule write; they now differ by at most " +
                W.fmt(g.diff[t], dig) + ".");
          }
          if (prev.alpha !== next.alpha) {
            said.push("α = " + fa(next.alpha) + ": after token " + (t + 1) + " the gated state differs from DeltaNet by at most " +
              W.fmt(g.diff[t], dig) + ".");
          }
          return said.join(" ");
        },
      };
    },
  });
})();
