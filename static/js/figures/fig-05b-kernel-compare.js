/* FIG 05b · Softmax kernel exp(q·k) against the ELU+1 kernel φ(q)·φ(k). Left: both as a key of
 * length r turns around a fixed query. Right: the attention weights each kernel gives eight
 * seeded keys of that length. Sliders pick r (the slice) and the angle read out; every value was
 * computed at build time by similarity_kernels for every slice, so this file only draws. */
K3.register("fig-05b-kernel-compare", function (mount, data, ctx) {
  "use strict";
  var W = window.K3W, el = W.el;
  var A = data.angles.length, L = data.slices.length;
  var state = ctx.state.get();
  var li = nearest(data.slices.map(function (s) { return s.length; }), state.r, data.default_length);
  var ai = nearest(data.angles, state.angle, Math.round((A - 1) * 5 / 8));  // default 45°

  // index of the shipped value closest to a URL value (the URL stores values, not indices)
  function nearest(values, wanted, fallback) {
    var x = parseFloat(wanted);
    if (!isFinite(x)) return fallback;
    var best = 0;
    values.forEach(function (v, i) { if (Math.abs(v - x) < Math.abs(values[best] - x)) best = i; });
    return best;
  }
  function deg(a) { return W.fmt(a, 0) + "°"; }

  var lenSlider = W.slider({ label: "Key length r", values: data.slices.map(function (s) { return s.length; }), index: li,
    format: function (r) { return W.fmt(r, 2); }, onInput: function (i) { setLength(i, "input"); } });
  var angSlider = W.slider({ label: "Angle θ", values: data.angles, index: ai, format: deg,
    onInput: function (i) { setAngle(i, "input"); } });
  lenSlider.node.classList.add("f05b-len");
  angSlider.node.classList.add("f05b-ang");
  // a slider writes the URL once per gesture (on release, or per key press): one history entry each
  lenSlider.input.addEventListener("change", function () { save(true); });
  angSlider.input.addEventListener("change", function () { save(true); });

  var curve = el("div", { class: "f05b-plot f05b-curve", role: "img" });
  var bars = el("div", { class: "f05b-plot f05b-bars", role: "img" });
  var readout = el("p", { class: "f05b-readout" });
  var verdict = el("p", { class: "f05b-verdict" });
  mount.appendChild(el("div", { class: "f05b" },
    el("div", { class: "f05b-controls" }, lenSlider.node, angSlider.node),
    el("div", { class: "f05b-plots" },
      el("div", {}, el("p", { class: "k3-label", text: "Both kernels as the key turns" }), curve),
      el("div", {}, el("p", { class: "k3-label", text: "Weights over eight keys of that length" }), bars)),
    readout, verdict));

  function slice() { return data.slices[li]; }
  function paintText() {
    var s = slice();
    readout.textContent = "";
    readout.append("At θ = ", el("span", { class: "k3-num f05b-theta", text: deg(data.angles[ai]) }),
      ", r = ", el("span", { class: "k3-num", text: W.fmt(s.length, 2) }),
      ": q·k = ", el("span", { class: "k3-num f05b-dot", text: W.fmt(s.dot[ai], 3) }),
      ", softmax kernel exp(q·k) = ", el("span", { class: "k3-num f05b-exp", text: W.fmt(s.exp[ai], 3) }),
      ", ELU+1 kernel ", el("span", { "data-sym": "la-phi", text: "φ(q)·φ(k)" }), " = ",
      el("span", { class: "k3-num f05b-elu", text: W.fmt(s.elu[ai], 3) }), ".");
    verdict.textContent = "";
    verdict.append("On this slice the smallest values are ", el("span", { class: "k3-num f05b-min-exp", text: W.fmt(s.exp_min, 3) }),
      " and ", el("span", { class: "k3-num f05b-min-elu", text: W.fmt(s.elu_min, 3) }),
      " (both positive), and the ratio exp / φ·φ runs from ", el("span", { class: "k3-num f05b-rmin", text: W.fmt(s.ratio_min, 3) }),
      " to ", el("span", { class: "k3-num f05b-rmax", text: W.fmt(s.ratio_max, 3) }),
      ": not a constant, so neither kernel is a rescaled copy of the other.");
    curve.setAttribute("aria-label", "Line plot over the key angle from −180° to 180° at key length " + W.fmt(s.length, 2) +
      ": exp(q·k) peaks at " + W.fmt(Math.max.apply(null, s.exp), 2) + " when the key aligns with the query; φ(q)·φ(k) peaks at " +
      W.fmt(Math.max.apply(null, s.elu), 2) + ".");
    bars.setAttribute("aria-label", "Bar chart of attention weights over eight keys at length " + W.fmt(s.length, 2) +
      ": softmax " + s.w_exp.map(function (w) { return W.fmt(w, 2); }).join(", ") + "; ELU+1 " +
      s.w_elu.map(function (w) { return W.fmt(w, 2); }).join(", ") + ".");
  }
  function narrate() {
    var s = slice();
    ctx.narrate("Key length " + W.fmt(s.length, 2) + ", angle " + deg(data.angles[ai]) + ": exp(q·k) = " + W.fmt(s.exp[ai], 3) +
      ", φ(q)·φ(k) = " + W.fmt(s.elu[ai], 3) + "; largest softmax weight " + W.fmt(Math.max.apply(null, s.w_exp), 2) +
      " against " + W.fmt(Math.max.apply(null, s.w_elu), 2) + " for ELU+1.");
  }
  function save(push) { ctx.state.set({ r: slice().length, angle: data.angles[ai] }, { push: push }); }

  var Plotly = null;
  var css = W.css(mount);
  function marker() {
    return [{ type: "line", xref: "x", yref: "paper", x0: data.angles[ai], x1: data.angles[ai], y0: 0, y1: 1,
      line: { color: css("--ink-3"), width: 1.5, dash: "dot" } }];
  }
  function redraw() {
    if (!Plotly) return;
    var s = slice();
    Plotly.restyle(curve, { y: [s.exp, s.elu] }, [0, 1]);
    Plotly.relayout(curve, { shapes: marker() });
    Plotly.restyle(bars, { y: [s.w_exp, s.w_elu] }, [0, 1]);
  }
  function setLength(i, how) {
    li = Math.max(0, Math.min(L - 1, i));
    if (how !== "input") lenSlider.set(li);
    paintText(); narrate(); redraw();
    if (how !== "restore" && how !== "input") save(true);
  }
  function setAngle(i, how) {
    ai = Math.max(0, Math.min(A - 1, i));
    if (how !== "input") angSlider.set(ai);
    paintText(); narrate();
    if (Plotly) Plotly.relayout(curve, { shapes: marker() });
    if (how === "hover" || how === "click") save(how === "click");
  }

  paintText();
  narrate();
  return ctx.plotly().then(function (P) {
    Plotly = P;
    var s = slice(), rule = css("--rule"), base = W.chartLayout(mount, { margin: { l: 44, r: 8, t: 8, b: 40 }, height: 290 });
    var axis = { fixedrange: true, gridcolor: rule, zeroline: false, linecolor: rule }, font = base.font;
    base.legend = { orientation: "h", x: 0, y: 1.02, yanchor: "bottom", font: font };
    base.hoverlabel = { bgcolor: css("--paper"), bordercolor: rule, font: font };
    var expColor = css("--accent"), eluColor = css("--blue");
    var curves = Plotly.newPlot(curve, [
      { x: data.angles, y: s.exp, name: "exp(q·k)", mode: "lines", line: { color: expColor, width: 2.5 },
        hovertemplate: "θ %{x}°<br>exp(q·k) %{y:.3f}<extra></extra>" },
      { x: data.angles, y: s.elu, name: "φ(q)·φ(k)", mode: "lines", line: { color: eluColor, width: 2.5 },
        hovertemplate: "θ %{x}°<br>φ(q)·φ(k) %{y:.3f}<extra></extra>" },
    ], Object.assign({}, base, {
      xaxis: Object.assign({ range: [-180, 180], dtick: 90, ticksuffix: "°", title: { text: "angle between key and query" } }, axis),
      yaxis: Object.assign({ range: [0, data.y_max], rangemode: "tozero" }, axis),
      shapes: marker(), hovermode: "x",  // hovering anywhere above an angle reads it
    }), { displayModeBar: false, responsive: true });
    var keyNames = data.key_angles.map(function (a, i) { return "k" + (i + 1); });
    var barPlot = Plotly.newPlot(bars, [
      { type: "bar", x: keyNames, y: s.w_exp, name: "softmax", marker: { color: expColor },
        hovertemplate: "%{x}<br>softmax weight %{y:.3f}<extra></extra>" },
      { type: "bar", x: keyNames, y: s.w_elu, name: "ELU+1, normalised", marker: { color: eluColor },
        hovertemplate: "%{x}<br>ELU+1 weight %{y:.3f}<extra></extra>" },
    ], Object.assign({}, base, {
      barmode: "group",
      xaxis: Object.assign({}, axis, { gridcolor: "rgba(0,0,0,0)" }),
      yaxis: Object.assign({ range: [0, data.w_max] }, axis),
    }), { displayModeBar: false, responsive: true });
    return Promise.all([curves, barPlot]);
  }).then(function () {
    curve.on("plotly_hover", function (ev) { setAngle(ev.points[0].pointIndex, "hover"); });
    curve.on("plotly_click", function (ev) { setAngle(ev.points[0].pointIndex, "click"); });
    return {
      restore: function (st) {
        var lens = data.slices.map(function (x) { return x.length; });
        setLength(nearest(lens, st.r, data.default_length), "restore");
        setAngle(nearest(data.angles, st.angle, Math.round((A - 1) * 5 / 8)), "restore");
      },
    };
  });
});
