/* FIG 05b · Softmax kernel exp(q·k) against the ELU+1 kernel φ(q)·φ(k). Left: both as a key of
 * length r turns around a fixed query. Right: the attention weights each kernel gives eight
 * seeded keys of that length. Sliders pick r (the slice) and the angle read out; every value was
 * computed at build time by similarity_kernels for every slice, so this file only draws. */
(function () {
  "use strict";
  function lengths(data) { return data.slices.map(function (s) { return s.length; }); }

  K3.register("fig-05b-kernel-compare", {
    state: function (data) {  // the URL stores values (r, degrees), not indices
      var A = data.angles.length;
      return { r: K3W.gridState(lengths(data), data.slices[data.default_length].length),
        angle: K3W.gridState(data.angles, data.angles[Math.round((A - 1) * 5 / 8)]) };  // default 45°
    },
    setup: function (mount, data, ctx) {
      var W = window.K3W, el = W.el;
      var lens = lengths(data);
      function deg(a) { return W.fmt(a, 0) + "°"; }
      function li(s) { return lens.indexOf(s.r); }
      function ai(s) { return data.angles.indexOf(s.angle); }

      var lenSlider = W.slider({ label: "Key length r", values: lens, index: li(ctx.get()),
        format: function (r) { return W.fmt(r, 2); }, onInput: function (i) { ctx.set({ r: lens[i] }, "input"); } });
      var angSlider = W.slider({ label: "Angle θ", values: data.angles, index: ai(ctx.get()), format: deg,
        onInput: function (i) { ctx.set({ angle: data.angles[i] }, "input"); } });
      lenSlider.node.classList.add("f05b-len");
      angSlider.node.classList.add("f05b-ang");
      // a slider gesture (a drag, or a key press) is one history entry
      lenSlider.input.addEventListener("change", function () { ctx.end(); });
      angSlider.input.addEventListener("change", function () { ctx.end(); });

      var curve = el("div", { class: "f05b-plot f05b-curve", role: "img", "data-graphic": "chart" });
      var bars = el("div", { class: "f05b-plot f05b-bars", role: "img", "data-graphic": "chart" });
      var readout = el("p", { class: "f05b-readout" });
      var verdict = el("p", { class: "f05b-verdict" });
      mount.appendChild(el("div", { class: "f05b" },
        el("div", { class: "f05b-controls" }, lenSlider.node, angSlider.node),
        el("div", { class: "f05b-plots" },
          el("div", {}, el("p", { class: "k3-label", text: "Both kernels as the key turns" }), curve),
          el("div", {}, el("p", { class: "k3-label", text: "Weights over eight keys of that length" }), bars)),
        readout, verdict));

      /* the sentences are built once; an input rewrites only the numbers that changed */
      var num = {};
      function n(cls) { return (num[cls] = el("span", { class: "k3-num " + cls })); }
      readout.append("At θ = ", n("f05b-theta"), ", r = ", n("f05b-r"), ": q·k = ", n("f05b-dot"),
        ", softmax kernel exp(q·k) = ", n("f05b-exp"), ", ELU+1 kernel ", el("span", { "data-sym": "la-phi", text: "φ(q)·φ(k)" }),
        " = ", n("f05b-elu"), ".");
      verdict.append("On this slice the smallest values are ", n("f05b-min-exp"), " and ", n("f05b-min-elu"),
        " (both positive), and the ratio exp / φ·φ runs from ", n("f05b-rmin"), " to ", n("f05b-rmax"),
        ": not a constant, so neither kernel is a rescaled copy of the other.");
      function paintText(s, a) {
        var values = { "f05b-theta": deg(data.angles[a]), "f05b-r": W.fmt(s.length, 2), "f05b-dot": W.fmt(s.dot[a], 3),
          "f05b-exp": W.fmt(s.exp[a], 3), "f05b-elu": W.fmt(s.elu[a], 3), "f05b-min-exp": W.fmt(s.exp_min, 3),
          "f05b-min-elu": W.fmt(s.elu_min, 3), "f05b-rmin": W.fmt(s.ratio_min, 3), "f05b-rmax": W.fmt(s.ratio_max, 3) };
        Object.keys(values).forEach(function (k) { W.text(num[k], values[k]); });
        W.attr(curve, "aria-label", "Line plot over the key angle from −180° to 180° at key length " + W.fmt(s.length, 2) +
          ": exp(q·k) peaks at " + W.fmt(Math.max.apply(null, s.exp), 2) + " when the key aligns with the query; φ(q)·φ(k) peaks at " +
          W.fmt(Math.max.apply(null, s.elu), 2) + ".");
        W.attr(bars, "aria-label", "Bar chart of attention weights over eight keys at length " + W.fmt(s.length, 2) +
          ": softmax " + s.w_exp.map(function (w) { return W.fmt(w, 2); }).join(", ") + "; ELU+1 " +
          s.w_elu.map(function (w) { return W.fmt(w, 2); }).join(", ") + ".");
      }

      var Plotly = null;
      // Plotly.restyle would redraw the axes, grid and legend too (a full replot of each chart, most of an input's cost)
      var NOW = { mode: "immediate", transition: { duration: 0 }, frame: { duration: 0, redraw: false } };
      var css = W.css(mount);
      function marker(a) {
        return [{ type: "line", xref: "x", yref: "paper", x0: data.angles[a], x1: data.angles[a], y0: 0, y1: 1,
          line: { color: css("--ink-3"), width: 1.5, dash: "dot" } }];
      }
      function draw(P) {
        Plotly = P;
        var s = data.slices[li(ctx.get())], rule = css("--rule");
        var base = W.chartLayout(mount, { margin: { l: 56, r: 8, t: 8, b: 40 }, height: 290 });
        var axis = { fixedrange: true, gridcolor: rule, zeroline: false, linecolor: rule }, font = base.font;
        base.legend = { orientation: "h", x: 0, y: 1.02, yanchor: "bottom", font: font };
        base.hoverlabel = { bgcolor: css("--paper"), bordercolor: rule, font: font };
        var expColor = css("--accent"), eluColor = css("--blue");
        var curves = Plotly.newPlot(curve, [
          { x: data.angles, y: s.exp, name: "exp(q·k)", mode: "lines", line: { color: expColor, width: 2.5 },
            hovertemplate: "exp(q·k) %{y:.3f}<extra></extra>" },
          { x: data.angles, y: s.elu, name: "φ(q)·φ(k)", mode: "lines", line: { color: eluColor, width: 2.5 },
            hovertemplate: "φ(q)·φ(k) %{y:.3f}<extra></extra>" },
        ], Object.assign({}, base, {
          xaxis: Object.assign({ range: [-180, 180], dtick: 90, ticksuffix: "°", title: { text: "angle between key and query" } }, axis),
          yaxis: Object.assign({ range: [0, data.y_max], rangemode: "tozero", title: { text: "similarity (before normalising)" } }, axis),
          /* hovering anywhere above an angle reads it: one tooltip for both curves, headed by the
           * angle as the axis prints it (the tick suffix already carries the degree sign) */
          shapes: marker(ai(ctx.get())), hovermode: "x unified",
        }), { displayModeBar: false, responsive: true });
        var keyNames = data.key_angles.map(function (a, i) { return "k" + (i + 1); });
        var barPlot = Plotly.newPlot(bars, [
          { type: "bar", x: keyNames, y: s.w_exp, name: "softmax", marker: { color: expColor },
            hovertemplate: "%{x}<br>softmax weight %{y:.3f}<extra></extra>" },
          { type: "bar", x: keyNames, y: s.w_elu, name: "ELU+1, normalised", marker: { color: eluColor },
            hovertemplate: "%{x}<br>ELU+1 weight %{y:.3f}<extra></extra>" },
        ], Object.assign({}, base, {
          barmode: "group",
          xaxis: Object.assign({}, axis, { gridcolor: "rgba(0,0,0,0)", title: { text: "key" } }),
          yaxis: Object.assign({ range: [0, data.w_max], title: { text: "attention weight" } }, axis),
        }), { displayModeBar: false, responsive: true });
        return Promise.all([curves, barPlot]);
      }

      return ctx.plotly().then(draw).then(function () {
        // hovering the curve plot reads that angle (a continuous gesture until the pointer leaves); a click is one entry
        curve.on("plotly_hover", function (ev) { ctx.set({ angle: data.angles[ev.points[0].pointIndex] }, "input"); });
        curve.on("plotly_unhover", function () { ctx.end(); });
        curve.on("plotly_click", function (ev) { ctx.set({ angle: data.angles[ev.points[0].pointIndex] }, "click"); });
        return {
          render: function (state, prev) {
            var s = data.slices[li(state)], a = ai(state);
            if (lenSlider.get() !== li(state)) lenSlider.set(li(state));  // the slider dragged has painted itself
            if (angSlider.get() !== a) angSlider.set(a);
            paintText(s, a);
            if (!prev) return;  // drawn in this state by draw()
            if (prev.r !== state.r) {  // new values, same axes: an animation of no duration redraws the traces only
              // a quick next input interrupts this animation, and Plotly rejects the interrupted one's
              // promise: nothing is lost (the next one draws the newer values), so it is not an error
              Plotly.animate(curve, { data: [{ y: s.exp }, { y: s.elu }], traces: [0, 1] }, NOW).catch(function () {});
              Plotly.animate(bars, { data: [{ y: s.w_exp }, { y: s.w_elu }], traces: [0, 1] }, NOW).catch(function () {});
            }
            if (prev.angle !== state.angle) Plotly.relayout(curve, { shapes: marker(a) });
          },
          describe: function (prev, next) {
            var s = data.slices[li(next)], a = ai(next);
            return "Key length " + W.fmt(s.length, 2) + ", angle " + deg(data.angles[a]) + ": exp(q·k) = " + W.fmt(s.exp[a], 3) +
              ", φ(q)·φ(k) = " + W.fmt(s.elu[a], 3) + "; largest softmax weight " + W.fmt(Math.max.apply(null, s.w_exp), 2) +
              " against " + W.fmt(Math.max.apply(null, s.w_elu), 2) + " for ELU+1.";
          },
        };
      });
    },
  });
})();
