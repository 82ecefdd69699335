/* FIG 08 · KDA module pathways. Left/top: one chunk of C tokens through a KDA layer drawn as
 * nodes and edges in three coloured pathways (intra-chunk attention, inter-chunk state, gates)
 * plus the layer's projections and norms. Chips toggle (Shift: isolate) a pathway; the canvas pans
 * by drag/arrow keys and zooms by Ctrl+wheel, ± buttons or keys; research mode shows each node's
 * shape and the equation it computes (KaTeX, rendered at build time). Below: the same seeded
 * tokens through one scalar gate and through per-channel gates (kernel states shipped as data). */
K3.register("fig-08-kda-pathways", function (mount, data, ctx) {
  "use strict";
  var W = window.K3W, el = W.el;
  var D = data.diagram, demo = data.demo;
  var PATHS = D.pathways.map(function (p) { return p.id; });
  var ZMIN = data.zoom.min, ZMAX = data.zoom.max;
  var view = { z: 1, cx: D.width / 2, cy: D.height / 2 };
  var off = {}, research = false, equal = false;

  /* ---------- toolbar ---------- */
  var chips = D.pathways.map(function (p) {
    var b = el("button", { type: "button", class: "k3-btn f08-chip", "data-chip": p.id, "aria-pressed": "true",
      title: "Toggle; Shift-click or Shift+Enter shows only this pathway",
      on: { click: function (e) { e.shiftKey ? isolate(p.id) : togglePath(p.id); } } },
      el("span", { class: "f08-swatch", "data-path": p.id, "aria-hidden": "true" }), p.label);
    return b;
  });
  var chipGroup = el("div", { class: "f08-chips", role: "group", "aria-label": "Pathways" });
  chips.forEach(function (c) { chipGroup.appendChild(c); });
  var showAll = el("button", { type: "button", class: "k3-btn f08-all", text: "Show all",
    on: { click: function () { setOff({}, "Showing every pathway."); } } });
  chipGroup.appendChild(showAll);
  var zoomOut = el("button", { type: "button", class: "k3-btn f08-zoom-out", "aria-label": "Zoom out", text: "−",
    on: { click: function () { zoomBy(1 / 1.25, null, true); } } });
  var zoomIn = el("button", { type: "button", class: "k3-btn f08-zoom-in", "aria-label": "Zoom in", text: "+",
    on: { click: function () { zoomBy(1.25, null, true); } } });
  var zoomReset = el("button", { type: "button", class: "k3-btn f08-zoom-reset", text: "Fit",
    "aria-label": "Fit: reset pan and zoom", on: { click: function () { setView(1, D.width / 2, D.height / 2, true); } } });
  var zoomLevel = el("span", { class: "k3-num f08-zoom-level", "aria-hidden": "true" });
  var researchSwitch = el("button", { type: "button", class: "k3-btn f08-research", role: "switch", "aria-checked": "false",
    text: "Research mode", on: { click: function () { setResearch(!research, true); } } });

  /* ---------- diagram ---------- */
  var NS = "svg:";
  var svg = el(NS + "svg", { class: "f08-edges", width: D.width, height: D.height, "aria-hidden": "true" });
  var defs = svg.appendChild(el(NS + "defs"));
  PATHS.forEach(function (p) {
    defs.appendChild(el(NS + "marker", { id: ctx.id + "-arrow-" + p, viewBox: "0 0 10 10", refX: 9, refY: 5,
      markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse" },
      el(NS + "path", { d: "M0,0 L10,5 L0,10 z", class: "f08-arrowhead", "data-path": p })));
  });
  var byId = {};
  var nodes = D.nodes.map(function (n) {
    var sym = { sin: "kda-state", sout: "kda-state", gate: "kda-alpha", beta: "kda-beta" }[n.id];
    var eq = el("div", { class: "f08-eq" });
    eq.innerHTML = n.eq_html;  // trusted: rendered by the build's KaTeX pass
    var node = el("div", { class: "f08-node", "data-node": n.id, "data-path": n.path, "data-sym": sym,
      tabindex: sym ? "0" : null, role: sym ? "group" : null, "aria-label": sym ? n.label : null,
      style: "left:" + n.x + "px;top:" + n.y + "px;width:" + n.w + "px" },
      el("span", { class: "f08-node-label", text: n.label }),
      el("span", { class: "f08-shape k3-num", text: n.shape }), eq);
    byId[n.id] = { spec: n, node: node };
    return node;
  });
  var edges = D.edges.map(function (e) {
    var path = el(NS + "path", { class: "f08-edge", "data-path": e.path, "data-edge": e.from + "-" + e.to,
      "marker-end": "url(#" + ctx.id + "-arrow-" + e.path + ")" });
    svg.appendChild(path);
    return { spec: e, node: path };
  });
  var canvas = el("div", { class: "f08-canvas", style: "width:" + D.width + "px;height:" + D.height + "px" }, svg);
  nodes.forEach(function (n) { canvas.appendChild(n); });
  var viewport = el("div", { class: "f08-viewport", tabindex: "0", role: "group",
    "aria-roledescription": "pannable diagram",
    "aria-label": "KDA chunk diagram. Drag or use the arrow keys to pan; Ctrl and scroll, or plus and minus, to zoom; 0 resets." },
    canvas);

  /* ---------- demo ---------- */
  var cols = []; for (var j = 0; j < demo.d_v; j++) cols.push("v" + (j + 1));
  var rows = []; for (var i = 0; i < demo.d_k; i++) rows.push("k" + (i + 1));
  var mGdn = W.matrix({ caption: "S, Gated DeltaNet (one α)", rows: rows, cols: cols, digits: 3, sym: "kda-state" });
  var mKda = W.matrix({ caption: "S, KDA (α per channel)", rows: rows, cols: cols, digits: 3, sym: "kda-state" });
  mGdn.node.classList.add("f08-s-gdn");
  mKda.node.classList.add("f08-s-kda");
  var gates = el("div", { class: "f08-gates", "data-sym": "kda-alpha" });
  var equalSwitch = el("button", { type: "button", class: "k3-btn f08-equal", role: "switch", "aria-checked": "false",
    text: "Equal channel gates", on: { click: function () { setEqual(!equal, true); } } });
  var diffLine = el("p", { class: "f08-diff" });
  var demoBox = el("div", { class: "f08-demo", role: "group", "aria-label": "Live demo" },
    el("div", { class: "f08-demo-side" },
      el("p", { class: "k3-label", text: "Live demo: the same " + demo.n_tokens + " tokens, two gates" }),
      el("p", { class: "f08-demo-note" }, "Unit keys and queries, ", el("span", { "data-sym": "kda-beta", text: "β = " + W.fmt(demo.beta, 2) }),
        ", " + demo.n_tokens / demo.chunk + " chunks of C = " + demo.chunk + " (production: " + data.production_chunk + ")."),
      gates, equalSwitch),
    el("div", { class: "f08-mats" }, el("div", { class: "k3-scroll" }, mGdn.node), el("div", { class: "k3-scroll" }, mKda.node)),
    diffLine);

  mount.appendChild(el("div", { class: "f08" },
    el("div", { class: "f08-toolbar" },
      chipGroup,
      el("div", { class: "k3-row f08-zoom", role: "group", "aria-label": "Zoom" }, zoomOut, zoomLevel, zoomIn, zoomReset, researchSwitch)),
    el("div", { class: "f08-body" }, viewport, demoBox)));

  /* ---------- drawing ---------- */
  function box(id) {
    var n = byId[id];
    return { x: n.spec.x, y: n.spec.y, w: n.spec.w, h: n.node.offsetHeight };
  }
  // an edge leaves the right side and enters the left side; within a column it runs vertically
  function drawEdges() {
    edges.forEach(function (e) {
      var a = box(e.spec.from), b = box(e.spec.to), d;
      if (Math.abs(a.x - b.x) < 1) {
        var up = b.y < a.y;
        var x = a.x + a.w / 2, y1 = up ? a.y : a.y + a.h, y2 = up ? b.y + b.h : b.y;
        d = "M" + x + "," + y1 + " L" + x + "," + y2;
      } else {
        var x1 = a.x + a.w, ya = a.y + a.h / 2, x2 = b.x, yb = b.y + b.h / 2, mid = (x1 + x2) / 2;
        d = "M" + x1 + "," + ya + " C" + mid + "," + ya + " " + mid + "," + yb + " " + (x2 - 2) + "," + yb;
      }
      e.node.setAttribute("d", d);
    });
  }
  function fit() {
    var w = viewport.clientWidth || D.width, h = viewport.clientHeight || D.height;
    var f = Math.min(w / D.width, h / D.height);
    return w < 600 ? Math.max(f, 0.62) : f;  // phones: start legible, pan to see the rest
  }
  function applyView() {
    var s = fit() * view.z;
    var tx = viewport.clientWidth / 2 - view.cx * s, ty = viewport.clientHeight / 2 - view.cy * s;
    canvas.style.transform = "translate(" + tx.toFixed(1) + "px," + ty.toFixed(1) + "px) scale(" + s.toFixed(4) + ")";
    zoomLevel.textContent = Math.round(view.z * 100) + "%";
    zoomIn.disabled = view.z >= ZMAX - 1e-9;
    zoomOut.disabled = view.z <= ZMIN + 1e-9;
  }
  function clampView() {
    view.z = Math.max(ZMIN, Math.min(ZMAX, view.z));
    view.cx = Math.max(0, Math.min(D.width, view.cx));
    view.cy = Math.max(0, Math.min(D.height, view.cy));
  }
  function setView(z, cx, cy, push) {
    view.z = z; view.cx = cx; view.cy = cy;
    clampView();
    applyView();
    if (push !== null) save(push);
  }
  // zoom keeping the canvas point under (px, py) (viewport coordinates) in place; null = centre
  function zoomBy(factor, at, push) {
    var s = fit() * view.z;
    var px = at ? at[0] : viewport.clientWidth / 2, py = at ? at[1] : viewport.clientHeight / 2;
    var gx = view.cx + (px - viewport.clientWidth / 2) / s, gy = view.cy + (py - viewport.clientHeight / 2) / s;
    var z = Math.max(ZMIN, Math.min(ZMAX, view.z * factor)), s2 = fit() * z;
    setView(z, gx - (px - viewport.clientWidth / 2) / s2, gy - (py - viewport.clientHeight / 2) / s2, push);
    if (push) ctx.narrate("Zoom " + Math.round(view.z * 100) + "%.");
  }

  function paintPaths() {
    chips.forEach(function (c) { c.setAttribute("aria-pressed", off[c.dataset.chip] ? "false" : "true"); });
    nodes.concat(edges.map(function (e) { return e.node; })).forEach(function (n) {
      var hidden = !!off[n.getAttribute("data-path")];
      n.classList.toggle("is-off", hidden);
      if (hidden) n.setAttribute("aria-hidden", "true"); else if (n.tagName !== "path") n.removeAttribute("aria-hidden");
      if (n.hasAttribute("data-sym")) n.tabIndex = hidden ? -1 : 0;
    });
  }
  function pathName(p) { return D.pathways.filter(function (x) { return x.id === p; })[0].label; }
  function countOf(p) {
    return D.nodes.filter(function (n) { return n.path === p; }).length + " nodes and " +
      D.edges.filter(function (e) { return e.path === p; }).length + " edges";
  }
  function setOff(next, text) {
    off = next;
    paintPaths();
    ctx.narrate(text);
    save(true);
  }
  function togglePath(p) {
    var next = Object.assign({}, off);
    if (next[p]) delete next[p]; else next[p] = true;
    setOff(next, pathName(p) + (next[p] ? " hidden" : " shown") + ": " + countOf(p) + ".");
  }
  function isolate(p) {
    var next = {};
    PATHS.forEach(function (q) { if (q !== p) next[q] = true; });
    setOff(next, "Only " + pathName(p) + ": " + countOf(p) + ".");
  }

  function setResearch(on, push) {
    research = on;
    researchSwitch.setAttribute("aria-checked", on ? "true" : "false");
    canvas.classList.toggle("is-research", on);
    drawEdges();
    if (push !== null) {
      ctx.narrate(on ? "Research mode on: every node shows its tensor shape and the equation it computes."
        : "Research mode off.");
      save(push);
    }
  }

  function paintDemo() {
    var S = equal ? demo.S_kda_equal : demo.S_kda;
    var diff = equal ? demo.diff_equal : demo.diff_channels;
    var alphas = equal ? demo.alpha_channels.map(function () { return demo.alpha_scalar; }) : demo.alpha_channels;
    mGdn.update(demo.S_gdn);
    mKda.update(S, { changed: function (i, j) { return Math.abs(S[i][j] - demo.S_gdn[i][j]) >= 0.0005; } });
    mKda.node.querySelector("caption").textContent = equal ? "S, KDA (every channel α = " + W.fmt(demo.alpha_scalar, 2) + ")" : "S, KDA (α per channel)";
    equalSwitch.setAttribute("aria-checked", equal ? "true" : "false");
    gates.textContent = "";
    gates.append(el("span", { class: "f08-gate-label", text: "Gated DeltaNet α" }),
      el("span", { class: "f08-gate k3-num f08-alpha-scalar", text: W.fmt(demo.alpha_scalar, 2) + " on all " + demo.d_k }),
      el("span", { class: "f08-gate-label", text: "KDA α, channels 1–" + demo.d_k }));
    var row = el("span", { class: "f08-gate-row" });
    alphas.forEach(function (a) {
      row.appendChild(el("span", { class: "f08-gate k3-num f08-alpha", style: "--a:" + a, text: W.fmt(a, 2) }));
    });
    gates.appendChild(row);
    diffLine.textContent = "";
    diffLine.append("Largest difference between the two states: ",
      el("span", { class: "k3-num f08-maxdiff", text: W.fmt(diff, 3) }),
      diff === 0 ? " — identical: equal channel gates make KDA exactly Gated DeltaNet." :
        " — per-channel decay keeps some rows and fades others. ",
      el("span", { class: "f08-chunked" }, "The chunked form of KDA (C = " + demo.chunk + ") gives the same state to ",
        el("span", { class: "k3-num f08-chunk-diff", text: demo.diff_chunked.toExponential(0).replace("-", "\u2212") }), "."));
  }
  function setEqual(on, push) {
    equal = on;
    paintDemo();
    if (push !== null) {
      ctx.narrate(on ? "All channel gates set to " + W.fmt(demo.alpha_scalar, 2) + ": KDA's state equals Gated DeltaNet's, largest difference " + W.fmt(demo.diff_equal, 3) + "."
        : "Per-channel gates " + demo.alpha_channels.map(function (a) { return W.fmt(a, 2); }).join(", ") +
          ": the states differ by up to " + W.fmt(demo.diff_channels, 3) + ".");
      save(push);
    }
  }

  /* ---------- state ---------- */
  function save(push) {
    var offList = PATHS.filter(function (p) { return off[p]; });
    var moved = Math.abs(view.z - 1) > 1e-6 || Math.round(view.cx) !== Math.round(D.width / 2) || Math.round(view.cy) !== Math.round(D.height / 2);
    ctx.state.set({
      off: offList.join(",") || null,
      z: moved ? view.z.toFixed(2) : null, x: moved ? Math.round(view.cx) : null, y: moved ? Math.round(view.cy) : null,
      research: research ? 1 : null, equal: equal ? 1 : null,
    }, { push: push });
  }
  function load(st) {
    off = {};
    (st.off || "").split(",").forEach(function (p) { if (PATHS.indexOf(p) >= 0) off[p] = true; });
    var z = parseFloat(st.z), x = parseFloat(st.x), y = parseFloat(st.y);
    view = { z: isFinite(z) ? z : 1, cx: isFinite(x) ? x : D.width / 2, cy: isFinite(y) ? y : D.height / 2 };
    clampView();
    paintPaths();
    setResearch(st.research === "1", null);
    setEqual(st.equal === "1", null);
    applyView();
  }

  /* ---------- pointer, wheel and keys ---------- */
  var drag = null;
  viewport.addEventListener("pointerdown", function (e) {
    if (e.button !== 0) return;
    drag = { id: e.pointerId, x: e.clientX, y: e.clientY, cx: view.cx, cy: view.cy, moved: false };
    viewport.setPointerCapture(e.pointerId);
  });
  viewport.addEventListener("pointermove", function (e) {
    if (!drag || e.pointerId !== drag.id) return;
    var s = fit() * view.z, dx = e.clientX - drag.x, dy = e.clientY - drag.y;
    if (Math.abs(dx) + Math.abs(dy) > 2) drag.moved = true;
    if (drag.moved) { viewport.classList.add("is-dragging"); setView(view.z, drag.cx - dx / s, drag.cy - dy / s, null); }
  });
  function endDrag(e) {
    if (!drag || e.pointerId !== drag.id) return;
    if (drag.moved) { save(true); ctx.narrate("Panned the diagram."); }
    drag = null;
    viewport.classList.remove("is-dragging");
  }
  viewport.addEventListener("pointerup", endDrag);
  viewport.addEventListener("pointercancel", endDrag);
  viewport.addEventListener("wheel", function (e) {
    if (!e.ctrlKey) return;  // a plain wheel scrolls the page
    e.preventDefault();
    var r = viewport.getBoundingClientRect();
    zoomBy(Math.exp(-e.deltaY * 0.0025), [e.clientX - r.left, e.clientY - r.top], false);
    clearTimeout(wheelTimer);
    wheelTimer = setTimeout(function () { save(true); ctx.narrate("Zoom " + Math.round(view.z * 100) + "%."); }, 250);
  }, { passive: false });
  var wheelTimer = null;
  viewport.addEventListener("keydown", function (e) {
    if (e.target !== viewport) return;
    var step = 60 / (fit() * view.z), k = e.key;
    var moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
    if (moves[k]) {
      setView(view.z, view.cx + moves[k][0], view.cy + moves[k][1], true);
      ctx.narrate("Panned " + k.slice(5).toLowerCase() + ".");
    } else if (k === "+" || k === "=") zoomBy(1.25, null, true);
    else if (k === "-" || k === "_") zoomBy(1 / 1.25, null, true);
    else if (k === "0") { setView(1, D.width / 2, D.height / 2, true); ctx.narrate("View reset."); }
    else return;
    e.preventDefault();
  });
  // focusing a node inside the clipped viewport must not scroll it (the transform does the moving)
  viewport.addEventListener("scroll", function () { viewport.scrollLeft = 0; viewport.scrollTop = 0; });
  window.addEventListener("resize", applyView);

  load(ctx.state.get());
  drawEdges();
  applyView();
  ctx.narrate("KDA chunk diagram with " + D.nodes.length + " nodes; live demo states differ by up to " + W.fmt(demo.diff_channels, 3) + ".");
  return { restore: function (st) { load(st); drawEdges(); } };
});
