/* FIG 09 · Layer stack composer: a stack of KDA/MLA layers drawn in macrocycles of four; click,
 * tap or Enter/Space toggles a layer; presets, a layer-count stepper and a context slider. A
 * Plotly bar chart shows decode memory per layer; the total is the sum of the per-layer values
 * the build computed (mla_decode_memory per context, kda_decode_memory). Two sets of sizes are
 * shipped: "toy" (ILLUSTRATIVE) for the all-MLA, all-KDA and 3:1 presets, "k3" (SOURCE, from the
 * facts) for the K3 preset; the presets switch between them and a line names the set in use. */
K3.register("fig-09-stack-composer", function (mount, data, ctx) {
  "use strict";
  var W = window.K3W, el = W.el;
  var NAMES = { kda: "KDA", mla: "MLA" };
  var CYCLE = 4;  // layers per macrocycle column (3 KDA + 1 MLA in the 3:1 pattern)
  var SIZES = { toy: "toy sizes", k3: "K3's sizes" };
  var layout, nIdx, cset, focusIdx = 0;

  /* ---- state <-> hash: layout as "kkkm…", context as its token count, sizes as "toy" or "k3" ---- */
  function parseLayout(s) {
    if (typeof s !== "string" || !/^[km]{1,}$/.test(s) || s.length > data.max_layers) return null;
    return s.split("").map(function (c) { return c === "m" ? "mla" : "kda"; });
  }
  function defaultLayout() { return data.pattern.slice(0, data.n_layers); }
  function fromState(s) {
    layout = parseLayout(s.layout) || defaultLayout();
    var i = data.contexts.indexOf(+s.n);
    nIdx = i >= 0 ? i : data.contexts.indexOf(data.n_default);
    // a link without sizes (older links) shows K3's sizes only for K3's own layout
    cset = data.constants[s.c] ? s.c : same(layout, data.k3_layout) ? "k3" : "toy";
    focusIdx = Math.min(focusIdx, layout.length - 1);
  }
  function save(push) {
    ctx.state.set({ layout: layout.map(function (k) { return k.charAt(0); }).join(""), n: data.contexts[nIdx], c: cset },
      { push: push });
  }

  /* ---- values: every number is a shipped kernel value or a sum of them ---- */
  function C() { return data.constants[cset]; }
  function perLayer(kind) { return kind === "mla" ? C().mla_per_layer[nIdx] : C().kda_per_layer; }
  function part(kind) { return count(kind) * perLayer(kind); }  // the MLA or the KDA share of the total
  function count(kind) { return layout.filter(function (k) { return k === kind; }).length; }
  function total() { return layout.reduce(function (a, k) { return a + perLayer(k); }, 0); }
  function presetSizes(name) { return name === "K3" ? "k3" : "toy"; }
  function presetLayout(name, n) {
    if (name === "all-MLA") return fill(n, "mla");
    if (name === "all-KDA") return fill(n, "kda");
    if (name === "3:1") return data.pattern.slice(0, n);
    return data.k3_layout.slice();
  }
  function fill(n, kind) { var a = []; for (var i = 0; i < n; i++) a.push(kind); return a; }
  function same(a, b) { return a.length === b.length && a.every(function (k, i) { return k === b[i]; }); }

  /* ---- controls ---- */
  var presetButtons = data.presets.map(function (name) {
    return el("button", { type: "button", class: "k3-btn", "aria-pressed": "false", "data-preset": name,
      text: name === "K3" ? "K3 (" + data.k3_layout.length + " layers)" : name,
      on: { click: function () { applyPreset(name); } } });
  });
  var presetRow = el("div", { class: "k3-row f09-presets", role: "group", "aria-label": "Presets" },
    el("span", { class: "k3-label", text: "Presets" }));
  presetButtons.forEach(function (b) { presetRow.appendChild(b); });
  var layersStepper = W.stepper({
    label: "Number of layers", count: data.max_layers, value: data.n_layers - 1,
    format: function (i) { return (i + 1) + " layers"; },
    onChange: function (i, how) { setCount(i + 1, how); },
  });
  var slider = W.slider({
    label: "Context N", values: data.contexts, index: 0,
    format: function (v) { return W.int(v) + " tokens"; },
    onInput: function (i) { setContext(i); },
  });
  slider.input.addEventListener("change", function () { save(true); });

  var stack = el("div", { class: "f09-cycles", role: "group",
    "aria-label": "Layer stack in macrocycles of four, layer 1 at the bottom left; arrow keys move, Enter or Space toggles" });
  var plot = el("div", { class: "f09-plot", role: "img" });
  var totalNum = el("output", { class: "f09-total-num k3-num", "data-total": "" });
  var totalSplit = el("p", { class: "f09-split" });
  var barMla = el("span", { class: "f09-bar-mla", "data-sym": "mla-latent" });
  var barKda = el("span", { class: "f09-bar-kda", "data-sym": "kda-state" });
  var note = el("p", { class: "f09-note" });
  var sizes = el("p", { class: "f09-sizes" });

  mount.appendChild(el("div", { class: "f09" },
    el("div", { class: "f09-controls" },
      presetRow,
      el("div", { class: "k3-row f09-knobs" }, layersStepper.node, slider.node)),
    el("div", { class: "f09-grid" },
      el("div", { class: "f09-left" },
        el("p", { class: "f09-legend" },
          el("span", { class: "f09-key f09-key-kda", "data-sym": "kda-state" }, el("i", { class: "f09-sw is-kda" }), "KDA: fixed state"),
          el("span", { class: "f09-key f09-key-mla", "data-sym": "mla-latent" }, el("i", { class: "f09-sw is-mla" }), "MLA: latent per token")),
        stack),
      el("div", { class: "f09-right" },
        plot,
        el("div", { class: "f09-total" },
          el("p", { class: "f09-total-line" }, el("span", { class: "k3-label", text: "Total decode memory" }), " ", totalNum, " elements"),
          el("div", { class: "f09-bar", "aria-hidden": "true" }, barMla, barKda),
          totalSplit),
        sizes,
        note))));

  /* ---- the stack: one button per layer, columns of four ---- */
  var cells = [];
  function drawStack() {
    stack.innerHTML = "";
    cells = [];
    for (var c = 0; c * CYCLE < layout.length; c++) {
      var col = stack.appendChild(el("div", { class: "f09-cycle" }));
      for (var i = c * CYCLE; i < Math.min(layout.length, (c + 1) * CYCLE); i++) cells.push(col.appendChild(cell(i)));
    }
    paintStack();
  }
  function cell(i) {
    return el("button", { type: "button", class: "f09-layer", "data-layer": i + 1,
      on: { click: function () { toggle(i, "click"); }, focus: function () { focusIdx = i; roving(); },
        pointerenter: function () { markBar(i); }, pointerleave: function () { markBar(-1); } } },
      el("span", { class: "f09-layer-n", text: String(i + 1) }), " ", el("span", { class: "f09-layer-k" }),
      el("span", { class: "visually-hidden" }));
  }
  function paintStack() {
    cells.forEach(function (b, i) {
      var k = layout[i];
      b.className = "f09-layer is-" + k;
      b.setAttribute("data-sym", k === "mla" ? "mla-latent" : "kda-state");
      b.setAttribute("data-kind", k);
      // the visible "5 K" plus a spoken description (no aria-label, so the name contains what is seen)
      b.querySelector(".f09-layer-k").textContent = k === "mla" ? "M" : "K";
      b.lastChild.textContent = ": layer " + (i + 1) + ", " + NAMES[k] + ", " + W.int(perLayer(k)) +
        " elements; press to make it " + (k === "mla" ? "KDA" : "MLA");
    });
    roving();
  }
  function roving() { cells.forEach(function (b, i) { b.tabIndex = i === focusIdx ? 0 : -1; }); }
  stack.addEventListener("keydown", function (e) {
    var n = layout.length, next = null;
    if (e.key === "ArrowUp") next = focusIdx + 1;
    else if (e.key === "ArrowDown") next = focusIdx - 1;
    else if (e.key === "ArrowRight") next = focusIdx + CYCLE;
    else if (e.key === "ArrowLeft") next = focusIdx - CYCLE;
    else if (e.key === "Home") next = 0;
    else if (e.key === "End") next = n - 1;
    if (next === null) return;
    e.preventDefault();
    focusIdx = Math.max(0, Math.min(n - 1, next));
    roving();
    cells[focusIdx].focus();
    markBar(focusIdx);
  });

  /* ---- the readouts ---- */
  function paintTotals() {
    var nm = count("mla"), nk = count("kda"), t = total();
    var scale = layout.length * Math.max(perLayer("mla"), perLayer("kda"));  // all-of-the-larger kind = full bar
    totalNum.textContent = W.int(t);
    barMla.style.width = (100 * part("mla") / scale) + "%";
    barKda.style.width = (100 * part("kda") / scale) + "%";
    totalSplit.innerHTML = "";
    totalSplit.append(nm + " MLA × " + W.int(perLayer("mla")) + " + " + nk + " KDA × " + W.int(perLayer("kda")) + " = ",
      el("span", { class: "f09-part", "data-part": "mla", text: W.int(part("mla")) }), " + ",
      el("span", { class: "f09-part", "data-part": "kda", text: W.int(part("kda")) }),
      " at N = " + W.int(data.contexts[nIdx]) + " (" + SIZES[cset] + ")");
    presetButtons.forEach(function (b) {
      var name = b.dataset.preset;
      b.setAttribute("aria-pressed", cset === presetSizes(name) && same(layout, presetLayout(name, layout.length)) ? "true" : "false");
    });
    paintSizes();
    note.innerHTML = same(layout, data.k3_layout) ? "K3: " + data.k3_layout_html : "";
    layersStepper.set(layout.length - 1);
    slider.set(nIdx);
  }
  function paintSizes() {
    if (sizes.dataset.sizes === cset) return;
    sizes.dataset.sizes = cset;
    if (cset === "k3") { sizes.innerHTML = data.k3_constants_html; return; }  // facts with their SOURCE badges
    var c = C();
    sizes.innerHTML = "";
    sizes.append(el("span", { class: "badge badge-illustrative", text: "Illustrative" }),
      " Toy sizes: " + c.heads + " head × " + c.d_h + "² = " + W.int(c.kda_per_layer) + " elements per KDA layer, " +
      W.int(c.mla_per_token) + " per token per MLA layer; one MLA layer outgrows one KDA layer beyond " +
      W.int(c.crossover) + " tokens.");
  }
  function paint() { paintStack(); paintTotals(); drawPlot(); }

  /* ---- the bar chart ---- */
  var Plotly, marked = -1;
  var css = W.css(mount);
  function traces() {
    var x = layout.map(function (k, i) { return i + 1; });
    var col = { mla: css("--blue"), kda: css("--violet") };
    return [{
      type: "bar", x: x, y: layout.map(perLayer),
      marker: { color: layout.map(function (k) { return col[k]; }),
        line: { color: css("--ink"), width: layout.map(function (k, i) { return i === marked ? 2.5 : 0; }) } },
      customdata: layout.map(function (k) { return NAMES[k]; }),
      hovertemplate: "layer %{x}: %{customdata}<br>%{y:,} elements<extra></extra>",
    }];
  }
  function plotLayout() {
    var top = Math.max(perLayer("mla"), perLayer("kda")) * 1.08;  // rescales with the sizes in use
    return W.chartLayout(mount, {
      margin: { l: 70, r: 8, t: 8, b: 36 }, height: plot.clientHeight || 250, bargap: 0.15,
      xaxis: { title: { text: "layer" }, fixedrange: true, range: [0.5, layout.length + 0.5], showgrid: false,
        tickmode: layout.length > 24 ? "auto" : "linear", dtick: 1 },
      yaxis: { title: { text: "elements, " + SIZES[cset] }, fixedrange: true, range: [0, top], gridcolor: css("--rule"),
        tickformat: "~s", zeroline: false },
      showlegend: false,
    });
  }
  function drawPlot() {
    plot.setAttribute("aria-label", "Bar chart of decode memory per layer at N = " + W.int(data.contexts[nIdx]) +
      " tokens with " + SIZES[cset] + ": each MLA layer " + W.int(perLayer("mla")) + " elements, each KDA layer " +
      W.int(perLayer("kda")) + ".");
    if (Plotly) Plotly.react(plot, traces(), plotLayout(), { displayModeBar: false, responsive: true });
  }
  function markBar(i) {
    if (marked === i) return;
    marked = i;
    if (Plotly) Plotly.restyle(plot, { "marker.line.width": [layout.map(function (k, j) { return j === marked ? 2.5 : 0; })] });
  }

  /* ---- actions ---- */
  function toggle(i, how) {
    var before = total();
    layout[i] = layout[i] === "mla" ? "kda" : "mla";
    focusIdx = i;
    paint();
    save(true);
    var d = total() - before;
    ctx.narrate("Layer " + (i + 1) + " is now " + NAMES[layout[i]] + ": total " + (d >= 0 ? "+" : "−") + W.int(Math.abs(d)) +
      " to " + W.int(total()) + " elements at N = " + W.int(data.contexts[nIdx]) + " (" + count("mla") + " MLA, " + count("kda") + " KDA).");
  }
  function applyPreset(name) {
    layout = presetLayout(name, layout.length);
    cset = presetSizes(name);
    focusIdx = Math.min(focusIdx, layout.length - 1);
    drawStack();
    paintTotals();
    drawPlot();
    save(true);
    narrateStack("Preset " + name + ", " + SIZES[cset]);
  }
  function setCount(n, how) {
    var next = layout.slice(0, n);
    for (var i = layout.length; i < n; i++) next.push(data.pattern[i]);  // new layers follow the 3:1 pattern
    layout = next;
    focusIdx = Math.min(focusIdx, n - 1);
    drawStack();
    paintTotals();
    drawPlot();
    save(how === "click" || how === "key");
    narrateStack(n + " layers");
  }
  function setContext(i) {
    nIdx = i;
    paint();
    save(false);
    narrateStack("Context " + W.int(data.contexts[nIdx]) + " tokens");
  }
  function narrateStack(what) {
    ctx.narrate(what + ": " + count("mla") + " MLA × " + W.int(perLayer("mla")) + " + " + count("kda") + " KDA × " +
      W.int(perLayer("kda")) + " = " + W.int(part("mla")) + " + " + W.int(part("kda")) + " = " + W.int(total()) +
      " elements at N = " + W.int(data.contexts[nIdx]) + ".");
  }

  fromState(ctx.state.get());
  drawStack();
  paintTotals();
  drawPlot();
  return ctx.plotly().then(function (P) {
    Plotly = P;
    return Plotly.newPlot(plot, traces(), plotLayout(), { displayModeBar: false, responsive: true });
  }).then(function () {
    plot.on("plotly_click", function (ev) { toggle(ev.points[0].pointIndex, "click"); });
    plot.on("plotly_hover", function (ev) { markBar(ev.points[0].pointIndex); });
    plot.on("plotly_unhover", function () { markBar(-1); });
    return {
      restore: function (s) { fromState(s); drawStack(); paintTotals(); drawPlot(); },
    };
  });
});
