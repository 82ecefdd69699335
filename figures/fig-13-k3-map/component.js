/* FIG 13 · Kimi K3 map: stat tiles, an SVG of the whole stack (embedding → attention and
 * feed-forward of every layer over the attention-residual blocks → output head), components
 * that open an explanation panel, and SiTU vs SiLU from the kernels (Plotly). Layer kinds,
 * counts and curves come from the builder (hybrid_layout, k3_derived, situ, silu), and so does
 * every text it writes (text, components[].opened, situ.text): this file only places them. */
(function () {
  "use strict";
  var NONE = "none";  // no component open

  function defaultX(sx) {  // start where the curves have visibly parted: the sample nearest g = β
    var best = 0;
    sx.x.forEach(function (x, i) { if (Math.abs(x - sx.beta) < Math.abs(sx.x[best] - sx.beta)) best = i; });
    return best;
  }

  K3.register("fig-13-k3-map", {
    state: function (data) {
      return {
        c: K3.state.oneOf([NONE].concat(data.components.map(function (c) { return c.id; })), NONE),
        x: K3.state.int(0, data.situ.x.length - 1, defaultX(data.situ)),
      };
    },
    setup: setup,
  });

  function setup(mount, data, ctx) {
    var W = window.K3W, el = W.el;
    var S = data.stack, comps = data.components, sx = data.situ;
    var byId = {};
    comps.forEach(function (c, i) { byId[c.id] = i; });
    function sel() { var c = ctx.get().c; return c === NONE ? null : c; }
    function open(id, how) { ctx.set({ c: id || NONE }, how); }

  /* ---- stat tiles ---- */
  var tiles = el("ul", { class: "f13-tiles", "aria-label": ctx.text(["text", "tiles_label"]) });
  data.tiles.forEach(function (t, i) {
    tiles.appendChild(el("li", { class: "f13-tile", "data-fact": t.fact },
      ctx.show(el("span", { class: "f13-tile-v k3-num" }), ["tiles", i, "value"]),
      ctx.show(el("span", { class: "f13-tile-l" }), ["tiles", i, "label"])));
  });

  /* ---- the SVG map ---- */
  var VW = 1000, X0 = 92, X1 = 906, lw = (X1 - X0) / S.n;
  var yA = 44, hA = 46, yF = 94, hF = 46;  // attention row, feed-forward row
  var svg = el("svg:svg", { class: "f13-map", viewBox: "0 0 " + VW + " 196", role: "img", "data-graphic": "diagram",
    "aria-label": ctx.text(["text", "map_label"]) });
  var parts = {};  // component id → SVG elements that belong to it
  function add(comp, node) { (parts[comp] = parts[comp] || []).push(node); node.setAttribute("data-comp", comp); return svg.appendChild(node); }
  function lx(layer) { return X0 + (layer - 1) * lw; }  // left edge of a 1-indexed layer

  S.blocks.forEach(function (b, i) {
    add("attnres", el("svg:rect", { class: "f13-band" + (i % 2 ? " is-odd" : ""), x: lx(b[0]), y: 26, width: (b[1] - b[0] + 1) * lw, height: 122 }));
    add("attnres", ctx.show(el("svg:text", { class: "f13-small", x: lx(b[0]) + 3, y: 38 }), ["text", "block_labels", i]));
    if (i) add("attnres", el("svg:line", { class: "f13-boundary", x1: lx(b[0]), x2: lx(b[0]), y1: 26, y2: 148 }));
  });
  S.kinds.forEach(function (k, i) {
    add(k === "mla" ? "gated-mla" : "kda", el("svg:rect", { class: "f13-layer f13-" + k, x: lx(i + 1) + 0.6, y: yA, width: lw - 1.2, height: hA }));
    // 48 thin tiles side by side: colour alone (blue against violet, ΔE ~20 without red–green vision) is
    // a weak cue at this size, so an MLA tile also has a bar across it
    if (k === "mla") add("gated-mla", el("svg:rect", { class: "f13-mla-mark", x: lx(i + 1) + 0.6, y: yA + hA / 2 - 2, width: lw - 1.2, height: 4 }));
    add(S.ffn[i] === "dense" ? "dense-ffn" : "latent-moe",
      el("svg:rect", { class: "f13-layer f13-" + S.ffn[i], x: lx(i + 1) + 0.6, y: yF, width: lw - 1.2, height: hF }));
  });
  add("embedding", el("svg:rect", { class: "f13-box", x: 4, y: yA, width: 74, height: hA + hF + 4, rx: 6 }));
  add("embedding", el("svg:text", { class: "f13-box-t", x: 41, y: 114, "text-anchor": "middle", text: "embed" }));
  add("lm-head", el("svg:rect", { class: "f13-box", x: 920, y: yA, width: 76, height: hA + hF + 4, rx: 6 }));
  add("lm-head", el("svg:text", { class: "f13-box-t", x: 958, y: 108, "text-anchor": "middle", text: "mix +" }));
  add("lm-head", el("svg:text", { class: "f13-box-t", x: 958, y: 124, "text-anchor": "middle", text: "head" }));
  [[80, 90], [908, 918]].forEach(function (a) {
    svg.appendChild(el("svg:path", { class: "f13-arrow", d: "M" + a[0] + " 117 L" + a[1] + " 117 M" + (a[1] - 4) + " 113 L" + a[1] + " 117 L" + (a[1] - 4) + " 121" }));
  });
  // the first cycle bracketed and the repetition stated; numbers come from the builder's stat line
  add("layout", el("svg:path", { class: "f13-bracket", d: "M" + lx(1) + " 154 v6 H" + lx(5) + " v-6" }));
  if (comps[byId.layout]) add("layout", ctx.show(el("svg:text", { class: "f13-small", x: lx(1), y: 176 }), ["components", byId.layout, "stat"]));
  add("context", ctx.show(el("svg:text", { class: "f13-small f13-ctx", x: X1, y: 176, "text-anchor": "end" }), ["text", "context"]));
  [1, S.blocks[S.blocks.length - 1][1]].forEach(function (layer, j) {
    svg.appendChild(ctx.show(el("svg:text", { class: "f13-small", x: j ? lx(layer) + lw : lx(layer), y: 192, "text-anchor": j ? "end" : "start" }),
      ["text", "end_labels", j]));
  });
  svg.addEventListener("click", function (e) {
    var c = e.target.getAttribute && e.target.getAttribute("data-comp");
    if (c && c in byId) open(c, "click");
  });
  parts.context = (parts.context || []).concat(parts["gated-mla"] || []);  // the cache lives in the MLA layers

  /* ---- component buttons (the keyboard path and the legend) and the panel ---- */
  var panelId = ctx.id + "-panel";
  var btns = comps.map(function (c) {
    return el("button", { type: "button", class: "f13-comp f13-k-" + c.id, "data-id": c.id, "aria-controls": panelId,
      "aria-expanded": "false", on: { click: function () { open(sel() === c.id ? null : c.id, "click"); } } },
      el("span", { class: "f13-swatch", "aria-hidden": "true" }), c.label);
  });
  var bar = el("div", { class: "f13-comps", role: "group", "aria-label": ctx.text(["text", "components_label"]) });
  btns.forEach(function (b) { bar.appendChild(b); });
  bar.addEventListener("keydown", function (e) {
    var i = btns.indexOf(document.activeElement), next = null;
    if (i < 0) return;
    if (e.key === "ArrowRight" || e.key === "ArrowDown") next = (i + 1) % btns.length;
    else if (e.key === "ArrowLeft" || e.key === "ArrowUp") next = (i - 1 + btns.length) % btns.length;
    else if (e.key === "Home") next = 0;
    else if (e.key === "End") next = btns.length - 1;
    if (next === null) return;
    e.preventDefault();
    btns[next].focus();
  });
  var pTitle = el("p", { class: "f13-p-title" }), pStat = el("p", { class: "f13-p-stat k3-num" });
  var pText = el("div", { class: "f13-p-text" }), pLink = el("p", { class: "f13-p-link" });
  var closeBtn = el("button", { type: "button", class: "k3-btn f13-close", "aria-label": "Close the panel", text: "×",
    on: { click: function () { var was = sel(); open(null, "click"); if (was) btns[byId[was]].focus(); } } });
  var hint = ctx.show(el("p", { class: "f13-hint" }), ["text", "hint"]);
  var panel = el("div", { class: "f13-panel", id: panelId, role: "region", "aria-label": "Component details" },
    hint, el("div", { class: "f13-p-body" }, closeBtn, pTitle, pStat, pText, pLink));
  ctx.on(mount, "keydown", function (e) {
    if (e.key === "Escape" && sel()) { var was = sel(); open(null, "key"); btns[byId[was]].focus(); }
  });

  /* ---- SiTU vs SiLU ---- */
  var plot = el("div", { class: "f13-plot", role: "img", "data-graphic": "chart", "aria-label": ctx.text(["situ", "text", "plot_label"]) });
  var slider = W.slider({ label: "Input g", values: sx.x, index: ctx.get().x,
    format: function (v) { return ctx.text(["situ", "x_text", sx.x.indexOf(v)]); },
    onInput: function (i) { ctx.set({ x: i }, "input"); } });
  slider.input.addEventListener("change", ctx.end);
  var rSitu = el("span", { class: "k3-num f13-r-situ", "data-sym": "situ-fn" }), rSilu = el("span", { class: "k3-num f13-r-silu" });
  var readout = el("p", { class: "f13-readout" },
    el("span", { class: "f13-key f13-key-situ", "data-sym": "situ-fn" }, "SiTU", ctx.show(el("sub"), ["situ", "text", "beta_sub"])), " ", rSitu,
    el("span", { class: "f13-key f13-key-silu" }, "SiLU"), " ", rSilu);
  var note = W.html(el("p", { class: "f13-note", "data-sym": "situ-lin" }), sx.note_html);

  mount.appendChild(el("div", { class: "f13" },
    tiles, bar, el("div", { class: "k3-scroll f13-scroll" }, svg),
    el("div", { class: "f13-lower" }, panel,
      el("div", { class: "f13-act" }, ctx.show(el("p", { class: "f13-act-title" }), ["text", "activation_title"]), plot, slider.node, readout, note))));

  function paintPanel(id) {
    btns.forEach(function (b) { b.setAttribute("aria-expanded", b.getAttribute("data-id") === id ? "true" : "false"); });
    panel.classList.toggle("is-open", !!id);
    svg.classList.toggle("has-sel", !!id);
    [].forEach.call(svg.querySelectorAll(".is-on"), function (n) { n.classList.remove("is-on"); });
    if (!id) return;
    (parts[id] || []).forEach(function (n) { n.classList.add("is-on"); });
    var i = byId[id];
    ctx.show(pTitle, ["components", i, "label"]);
    ctx.show(pStat, ["components", i, "stat"]);
    W.html(pText, comps[i].text_html);  // not ctx.show: its fact citations' ids are made unique on the page
    ctx.show(pLink, ["components", i, "link_html"]);
  }

  var Plotly = null;
  var css = W.css(mount);
  function marker(xi) {
    return [{ type: "line", x0: sx.x[xi], x1: sx.x[xi], yref: "paper", y0: 0, y1: 1, line: { color: css("--ink-3"), width: 1, dash: "dot" } },
      { type: "line", xref: "paper", x0: 0, x1: 1, y0: sx.beta, y1: sx.beta, line: { color: css("--accent"), width: 1, dash: "dash" } }];
  }
  function paintX(xi) {
    slider.set(xi);
    ctx.show(rSitu, ["situ", "situ_text", xi]);
    ctx.show(rSilu, ["situ", "silu_text", xi]);
    if (Plotly) Plotly.relayout(plot, { shapes: marker(xi) });
  }

  var view = {
    render: function (state, prev) {
      if (!prev || prev.c !== state.c) paintPanel(sel());
      if (!prev || prev.x !== state.x) paintX(state.x);
    },
    describe: function (prev, next) {
      if (prev.c !== next.c) return { path: sel() ? ["components", byId[sel()], "opened"] : ["text", "closed"] };
      var xi = next.x;
      return { path: ["situ", "text", "said"],
        slots: { g: ["situ", "x_text", xi], situ: ["situ", "situ_text", xi], silu: ["situ", "silu_text", xi] } };
    },
  };
  return ctx.plotly().then(function (P) {
    Plotly = P;
    var axis = { fixedrange: true, zeroline: true, zerolinecolor: css("--rule"), gridcolor: css("--rule"), linecolor: css("--rule") };
    return Plotly.newPlot(plot, [
      { x: sx.x, y: sx.situ, name: "SiTU", mode: "lines", line: { color: css("--accent"), width: 2.5 },
        hovertemplate: "SiTU %{y:.3f}<extra></extra>" },
      { x: sx.x, y: sx.silu, name: "SiLU", mode: "lines", line: { color: css("--ink-3"), width: 2, dash: "dash" },  // grey: blue means KDA on the map
        hovertemplate: "SiLU %{y:.3f}<extra></extra>" },
    ], W.chartLayout(mount, {
      height: 230, margin: { l: 48, r: 8, t: 6, b: 40 }, showlegend: false, hovermode: "x unified",
      xaxis: Object.assign({ range: [sx.x[0], sx.x[sx.x.length - 1]], title: { text: "gate input g", standoff: 4 }, hoverformat: ".2f" }, axis),
      yaxis: Object.assign({ title: { text: "activation", standoff: 4 }, range: [Math.min.apply(null, sx.situ.concat(sx.silu)) - 0.5, Math.max.apply(null, sx.situ.concat(sx.silu)) + 0.5] }, axis),
      shapes: marker(ctx.get().x),
      annotations: [{ x: sx.x[0], y: sx.beta, xanchor: "left", yanchor: "bottom", showarrow: false,
        text: ctx.text(["situ", "text", "cap"]), font: { color: css("--accent"), size: 11 } }],
    }), { displayModeBar: false, responsive: true }).then(function () {
      // moving along the curves is one continuous gesture, ended when the pointer leaves them
      plot.on("plotly_hover", function (ev) { ctx.set({ x: ev.points[0].pointIndex }, "drag"); });
      plot.on("plotly_unhover", ctx.end);
      return view;
    });
  });
  }
})();
