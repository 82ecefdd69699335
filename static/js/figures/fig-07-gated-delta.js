/* FIG 07 · Gated delta rule: DeltaNet (α = 1) and Gated DeltaNet side by side on the same tokens.
 * Each token has two phases — decay (the gated state is scaled by α) and write (the same delta-rule
 * write lands on both) — and an α slider picks the gate. States come from gated_delta_rule / delta_rule
 * at build time, one run per slider position. */
K3.register("fig-07-gated-delta", function (mount, data, ctx) {
  "use strict";
  var W = window.K3W, el = W.el, dig = data.digits;
  var T = data.n_tokens, N = 2 * T;
  var PHASES = ["decay", "write"];
  var st = ctx.state.get();
  var step = clampStep(st.step === undefined ? 1 : st.step);
  var ai = alphaIndex(st.alpha === undefined ? data.alpha_default : +st.alpha);

  function clampStep(s) { s = Math.round(+s); return isFinite(s) ? Math.max(0, Math.min(N - 1, s)) : 1; }
  function alphaIndex(a) {
    var best = -1;
    data.alphas.forEach(function (x, i) { if (Math.abs(x - a) < 1e-9) best = i; });
    return best < 0 ? alphaIndex(data.alpha_default) : best;
  }
  var fa = function (a) { return W.fmt(a, 3); };

  var stepper = W.stepper({
    label: "Token and phase", count: N, value: step,
    format: function (s) { return "token " + (Math.floor(s / 2) + 1) + " / " + T + " · " + PHASES[s % 2]; },
    onChange: function (s, how) { go(s, how); },
  });
  var slider = W.slider({
    label: "gate α", values: data.alphas, index: ai, format: function (a) { return "α = " + fa(a); },
    onInput: function (i) { setAlpha(i, "input"); },
  });
  slider.node.setAttribute("data-sym", "gd-alpha");
  slider.input.setAttribute("aria-label", "Gate alpha of the right-hand state");
  slider.input.addEventListener("change", function () { save(true); });  // a finished drag or key press is a history entry

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

  function paint(animate) {
    var t = Math.floor(step / 2), phase = step % 2, g = data.gated[ai], a = data.alphas[ai];
    var plainState = phase === 0 ? data.plain.state_prev[t] : data.plain.state[t];
    var gatedState = phase === 0 ? g.decayed[t] : g.state[t];
    stepper.set(step);
    slider.set(ai);
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
  function narrate() {
    var t = Math.floor(step / 2), a = data.alphas[ai], g = data.gated[ai];
    ctx.narrate(step % 2 === 0
      ? "Token " + (t + 1) + ", decay: the gated state is multiplied by α = " + fa(a) + "; its first row is now [" + g.decayed[t][0].map(function (x) { return W.fmt(x, dig); }).join(", ") + "]."
      : "Token " + (t + 1) + ", write: both states receive the delta-rule write; they now differ by at most " + W.fmt(g.diff[t], dig) + ".");
  }
  function go(s, how) {
    s = clampStep(s);
    if (s === step && how !== "restore") return;
    step = s;
    paint(how !== "restore");
    if (how === "restore") return;
    narrate();
    save(how !== "play");
  }
  function setAlpha(i, how) {
    ai = Math.max(0, Math.min(data.alphas.length - 1, i));
    paint(false);
    if (how === "restore") return;
    var t = Math.floor(step / 2);
    ctx.narrate("α = " + fa(data.alphas[ai]) + ": after token " + (t + 1) + " the gated state differs from DeltaNet by at most " +
      W.fmt(data.gated[ai].diff[t], dig) + ".");
    save(false);
  }
  function save(push) { ctx.state.set({ step: step, alpha: fa(data.alphas[ai]) }, { push: push }); }

  paint(false);
  return {
    restore: function (s) {
      ai = alphaIndex(s.alpha === undefined ? data.alpha_default : +s.alpha);
      step = -1;
      go(s.step === undefined ? 1 : s.step, "restore");
    },
  };
});
