/* FIG 05b · Softmax kernel exp(q·k) against the ELU+1 kernel φ(q)·φ(k). Left: both as a key of
 * length r turns around a fixed query. Right: the attention weights each kernel gives eight
 * seeded keys of that length. Sliders pick r (the slice) and the angle read out; every value was
 * computed at build time by similarity_kernels for every slice, and every text it shows (a slice's
 * and an angle's numbers, the sentences' templates in data.text) written by the builder, so this
 * file only draws and places. */
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
      var plot = data.text.plot;  // read as they are: Plotly fills their %{…} placeholders itself
      function li(s) { return lens.indexOf(s.r); }
      function ai(s) { return data.angles.indexOf(s.angle); }
      /* the texts the slots of data.text's templates take, for a slice (li) and an angle (ai) */
      function slots(l, a) {
        var at = ["slices", l];
        return { theta: ["angle_text", a], r: at.concat("length_text"), dot: at.concat("dot_text", a),
          exp: at.concat("exp_text", a), elu: at.concat("elu_text", a), phi: ["text", "phi"],
          exp_min: at.concat("exp_min_text"), elu_min: at.concat("elu_min_text"),
          ratio_min: at.concat("ratio_min_text"), ratio_max: at.concat("ratio_max_text"),
          w_exp_max: at.concat("w_exp_max_text"), w_elu_max: at.concat("w_elu_max_text") };
      }
      function pick(all, names) {
        var some = {};
        names.forEach(function (n) { some[n] = all[n]; });
        return some;
      }

      var lenSlider = W.slider({ label: "Key length r", values: lens, index: li(ctx.get()),
        format: function (r) { return ctx.text(["slices", lens.indexOf(r), "length_text"]); },
        onInput: function (i) { ctx.set({ r: lens[i] }, "input"); } });
      var angSlider = W.slider({ label: "Angle θ", values: data.angles, index: ai(ctx.get()),
        format: function (a) { return ctx.text(["angle_text", data.angles.indexOf(a)]); },
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
          el("div", {}, ctx.show(el("p", { class: "k3-label" }), ["text", "curve_head"]), curve),
          el("div", {}, ctx.show(el("p", { class: "k3-label" }), ["text", "bars_head"]), bars)),
        readout, verdict));

      /* the two sentences are the builder's templates, laid out once: their words as text, each {slot}
       * a span of its own (a number, or φ(q)·φ(k), which lights with the equation's symbol), so an
       * input rewrites only the numbers that changed */
      var spans = {};
      function lay(node, template) {
        template.split(/\{(\w+)\}/).forEach(function (part, i) {  // odd parts are slot names
          if (!(i % 2)) node.append(part);
          else node.append(spans[part] = part === "phi" ? el("span", { "data-sym": "la-phi" })
            : el("span", { class: "k3-num f05b-" + part.replace("_", "-") }));
        });
      }
      lay(readout, data.text.readout);
      lay(verdict, data.text.verdict);
      function paintText(l, a) {
        var all = slots(l, a);
        Object.keys(spans).forEach(function (name) { W.text(spans[name], ctx.text(all[name])); });
        W.attr(curve, "aria-label", ctx.text(["slices", l, "curve_label"]));
        W.attr(bars, "aria-label", ctx.text(["slices", l, "bars_label"]));
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
          { x: data.angles, y: s.exp, name: plot.exp, mode: "lines", line: { color: expColor, width: 2.5 },
            hovertemplate: plot.exp_hover },
          { x: data.angles, y: s.elu, name: plot.elu, mode: "lines", line: { color: eluColor, width: 2.5 },
            hovertemplate: plot.elu_hover },
        ], Object.assign({}, base, {
          xaxis: Object.assign({ range: [-180, 180], dtick: 90, ticksuffix: "°", title: { text: plot.angle_axis } }, axis),
          yaxis: Object.assign({ range: [0, data.y_max], rangemode: "tozero", title: { text: plot.similarity_axis } }, axis),
          /* hovering anywhere above an angle reads it: one tooltip for both curves, headed by the
           * angle as the axis prints it (the tick suffix already carries the degree sign) */
          shapes: marker(ai(ctx.get())), hovermode: "x unified",
        }), { displayModeBar: false, responsive: true });
        var keyNames = data.key_angles.map(function (a, i) { return "k" + (i + 1); });
        var barPlot = Plotly.newPlot(bars, [
          { type: "bar", x: keyNames, y: s.w_exp, name: plot.softmax, marker: { color: expColor },
            hovertemplate: plot.softmax_hover },
          { type: "bar", x: keyNames, y: s.w_elu, name: plot.elu_weights, marker: { color: eluColor },
            hovertemplate: plot.elu_weights_hover },
        ], Object.assign({}, base, {
          barmode: "group",
          xaxis: Object.assign({}, axis, { gridcolor: "rgba(0,0,0,0)", title: { text: plot.key_axis } }),
          yaxis: Object.assign({ range: [0, data.w_max], title: { text: plot.weight_axis } }, axis),
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
            paintText(li(state), a);
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
            var names = ["r", "theta", "exp", "elu", "w_exp_max", "w_elu_max"];
            return { path: ["text", "describe"], slots: pick(slots(li(next), ai(next)), names) };
          },
        };
      });
    },
  });
})();
