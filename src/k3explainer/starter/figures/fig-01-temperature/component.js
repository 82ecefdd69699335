/* FIG 01 · Softmax at a temperature: a slider over the builder's grid of temperatures and a bar
 * per score, its height the probability the builder computed at that temperature; a dashed line
 * at 1/n; a readout of the largest probability and the entropy. The browser only draws.
 * State: t = index into data.taus. */
(function () {
  "use strict";
  K3.register("fig-01-temperature", {
    state: function (data) { return { t: K3.state.int(0, data.taus.length - 1, data.default_index) }; },
    setup: function (mount, data, ctx) {
      var W = window.K3W, el = W.el, n = data.scores.length;
      var tau = function (i) { return "τ = " + W.fmt(data.taus[i], data.taus[i] < 1 ? 2 : 1); };
      var slider = W.slider({ label: "Temperature", values: data.taus.map(function (_, i) { return i; }),
        index: ctx.get().t, format: tau, onInput: function (i, how) { ctx.set({ t: i }, how); } });
      slider.input.setAttribute("data-sym", "sm-tau");
      slider.input.addEventListener("change", function () { ctx.end(); });

      var bars = data.scores.map(function (z, i) {
        var fill = el("span", { class: "f01t-fill" });
        var value = el("span", { class: "f01t-value k3-num" });
        var col = el("div", { class: "f01t-bar", "data-sym": "sm-p" }, value, el("span", { class: "f01t-track" }, fill),
          el("span", { class: "f01t-score k3-num", "data-sym": "sm-z" }, el("span", { text: "z" + W.sub(i + 1) }),
            el("span", { text: W.fmt(z, 1) })));
        return { col: col, fill: fill, value: value };
      });
      var chart = el("div", { class: "f01t-chart", role: "img" });
      bars.forEach(function (b) { chart.appendChild(b.col); });
      chart.style.setProperty("--f01t-even", (100 / n) + "%");  // each track draws the 1/n line
      var readout = el("p", { class: "f01t-readout" });
      mount.appendChild(el("div", { class: "f01t" }, slider.node, chart, readout));

      function words(i) {
        return "largest probability " + W.fmt(data.largest[i], 3) + "; entropy " + W.fmt(data.entropy_bits[i], 2) +
          " of at most " + W.fmt(data.max_entropy_bits, 2) + " bits";
      }
      return {
        render: function (state) {
          var i = state.t, p = data.probs[i];
          slider.set(i);
          bars.forEach(function (b, j) {
            b.fill.style.height = (100 * p[j]) + "%";
            b.value.textContent = W.fmt(p[j], 3);
          });
          readout.textContent = "At " + tau(i) + ": " + words(i) + ".";
          chart.setAttribute("aria-label", "Probabilities at " + tau(i) + ": " +
            p.map(function (x) { return W.fmt(x, 3); }).join(", ") + ".");
        },
        describe: function (prev, next) { return tau(next.t) + ": " + words(next.t) + "."; },
      };
    },
  });
})();
