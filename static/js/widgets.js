/* Shared figure widgets: one implementation each, configured by data.
 * Loaded by the runtime before the first figure component. Components only format numbers the
 * build computed; nothing here does science.
 */
(function () {
  "use strict";
  var W = (window.K3W = {});

  /* el("p", {class: "x", text: "hi", on: {click: fn}}, child, ...) */
  W.el = function (tag, attrs) {
    var node = tag.indexOf("svg:") === 0
      ? document.createElementNS("http://www.w3.org/2000/svg", tag.slice(4))
      : document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      var v = attrs[k];
      if (v === null || v === undefined || v === false) return;
      if (k === "text") node.textContent = v;
      else if (k === "on") Object.keys(v).forEach(function (ev) { node.addEventListener(ev, v[ev]); });
      else node.setAttribute(k, v === true ? "" : v);
    });
    for (var i = 2; i < arguments.length; i++) {
      var c = arguments[i];
      if (c === null || c === undefined || c === false) continue;
      node.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
    }
    return node;
  };

  /* Fixed-precision numbers with a real minus sign; tests parse them back. */
  W.fmt = function (x, digits) {
    if (x === null || x === undefined) return "—";
    var d = digits === undefined ? 3 : digits;
    var s = Math.abs(x) < 0.5 * Math.pow(10, -d) ? (0).toFixed(d) : x.toFixed(d);
    return s.charAt(0) === "-" ? "\u2212" + s.slice(1) : s;
  };
  /* Small differences in scientific notation, 1.8e−15 (one digit; the exact value is in the data). */
  W.sci = function (x) { return x === 0 ? "0" : x.toExponential(1).replace("-", "\u2212"); };
  /* Integers with thousands separators; large values keep every digit. */
  W.int = function (x) { return Math.round(x).toLocaleString("en-US"); };
  /* 1.23e9 → "1.23 G" style with the exact value left to a title attribute by callers. */
  W.si = function (x, unit) {
    var units = ["", "K", "M", "G", "T", "P", "E"];
    var i = 0, v = x;
    while (Math.abs(v) >= 1000 && i < units.length - 1) { v /= 1000; i++; }
    return (i ? v.toPrecision(3) : String(Math.round(v))) + (unit || i ? " " + units[i] + (unit || "") : "");
  };

  /* Chart colours come from the page's CSS variables, so charts follow light and dark mode (the
   * runtime restarts chart figures when the scheme changes). css(node) → name → value. */
  W.css = function (node) {
    return function (name) { return getComputedStyle(node).getPropertyValue(name).trim(); };
  };
  /* The frame every Plotly chart shares: transparent paper, the page's font and ink, no drag. */
  W.chartLayout = function (node, layout) {
    return Object.assign({ paper_bgcolor: "rgba(0,0,0,0)", plot_bgcolor: "rgba(0,0,0,0)", dragmode: false,
      font: { family: getComputedStyle(node).fontFamily, color: W.css(node)("--ink"), size: 11 } }, layout);
  };

  /* A single-choice group (radio semantics, roving tabindex, arrow keys, Home/End).
   * opts: {label, options: [{value, text, sym?}], value, onChange(value, how)} */
  W.choice = function (opts) {
    var group = W.el("div", { class: "k3-choice", role: "radiogroup", "aria-label": opts.label });
    var buttons = opts.options.map(function (o, i) {
      return group.appendChild(W.el("button", {
        type: "button", class: "k3-btn", role: "radio", "data-value": o.value, "data-sym": o.sym,
        "aria-label": o.aria, text: o.text,
        on: { click: function () { set(o.value, "click"); } },
      }));
    });
    var value = opts.value;
    function index() { return opts.options.findIndex(function (o) { return String(o.value) === String(value); }); }
    function paint() {
      var idx = index();
      buttons.forEach(function (b, i) {
        b.setAttribute("aria-checked", i === idx ? "true" : "false");
        b.tabIndex = i === idx ? 0 : -1;
      });
    }
    function set(v, how) {
      value = v;
      paint();
      if (opts.onChange) opts.onChange(v, how);
    }
    group.addEventListener("keydown", function (e) {
      var idx = index(), n = buttons.length, next = null;
      if (e.key === "ArrowRight" || e.key === "ArrowDown") next = (idx + 1) % n;
      else if (e.key === "ArrowLeft" || e.key === "ArrowUp") next = (idx - 1 + n) % n;
      else if (e.key === "Home") next = 0;
      else if (e.key === "End") next = n - 1;
      if (next === null) return;
      e.preventDefault();
      set(opts.options[next].value, "key");
      buttons[next].focus();
    });
    paint();
    return { node: group, set: function (v) { value = v; paint(); }, get: function () { return value; } };
  };

  /* A stepper: ◀ step k of n ▶ (+ optional play/pause), arrow keys on the group.
   * opts: {label, count, value, format(i) -> text, onChange(i, how), play: bool} */
  W.stepper = function (opts) {
    var value = opts.value || 0;
    var timer = null;
    var readout = W.el("span", { class: "k3-stepper-readout k3-num", "aria-live": "off" });
    var prev = W.el("button", { type: "button", class: "k3-btn", "aria-label": "Previous step", text: "◀",
      on: { click: function () { go(value - 1, "click"); } } });
    var next = W.el("button", { type: "button", class: "k3-btn", "aria-label": "Next step", text: "▶",
      on: { click: function () { go(value + 1, "click"); } } });
    var play = opts.play ? W.el("button", { type: "button", class: "k3-btn", "aria-pressed": "false", text: "Play",
      on: { click: function () { timer ? stop() : startPlay(); } } }) : null;
    // the group itself takes ← → Home End, so the keys keep working when an end button is disabled
    var node = W.el("div", { class: "k3-row k3-stepper", role: "group", tabindex: "0", "aria-label": opts.label },
      prev, readout, next, play);
    function paint() {
      readout.textContent = opts.format ? opts.format(value) : "step " + (value + 1) + " / " + opts.count;
      var focused = document.activeElement;
      prev.disabled = value <= 0;
      next.disabled = value >= opts.count - 1;
      if ((focused === prev || focused === next) && focused.disabled) node.focus();
    }
    function go(i, how) {
      var v = Math.max(0, Math.min(opts.count - 1, i));
      if (v === value) return;
      value = v;
      paint();
      if (opts.onChange) opts.onChange(value, how);
    }
    function startPlay() {
      if (value >= opts.count - 1) go(0, "play");
      play.setAttribute("aria-pressed", "true");
      play.textContent = "Pause";
      timer = setInterval(function () {
        if (value >= opts.count - 1) stop(); else go(value + 1, "play");
      }, window.K3.reducedMotion() ? 1600 : 900);
    }
    function stop() {
      clearInterval(timer);
      timer = null;
      if (play) { play.setAttribute("aria-pressed", "false"); play.textContent = "Play"; }
    }
    node.addEventListener("keydown", function (e) {
      if (e.key === "ArrowRight") { e.preventDefault(); go(value + 1, "key"); }
      else if (e.key === "ArrowLeft") { e.preventDefault(); go(value - 1, "key"); }
      else if (e.key === "Home") { e.preventDefault(); go(0, "key"); }
      else if (e.key === "End") { e.preventDefault(); go(opts.count - 1, "key"); }
    });
    paint();
    return { node: node, set: function (i) { value = Math.max(0, Math.min(opts.count - 1, i)); paint(); },
      get: function () { return value; }, stop: stop };
  };

  /* A labelled range input over an index into `values` (so log scales are data, not maths here).
   * opts: {label, values: [...], index, format(v) -> text, onInput(index, how)} */
  W.slider = function (opts) {
    var id = "k3-slider-" + Math.random().toString(36).slice(2, 8);
    var input = W.el("input", { type: "range", id: id, min: 0, max: opts.values.length - 1, step: 1, value: opts.index });
    var out = W.el("output", { for: id, class: "k3-num" });
    function paint() {
      var v = opts.values[+input.value];
      out.textContent = opts.format ? opts.format(v) : String(v);
      input.setAttribute("aria-valuetext", out.textContent);
    }
    input.addEventListener("input", function () { paint(); if (opts.onInput) opts.onInput(+input.value, "input"); });
    paint();
    var node = W.el("div", { class: "k3-row k3-slider" }, W.el("label", { for: id, class: "k3-label", text: opts.label }), input, out);
    return { node: node, input: input, set: function (i) { input.value = i; paint(); }, get: function () { return +input.value; } };
  };

  /* W.html(node, html): insert HTML the build pipeline rendered from a builder's `*_md` text
   * (delivered as `*_html`; trusted). The pipeline renders each text on its own, so the ids of
   * fact citations repeat from one text to the next (and the caption); this makes them unique
   * and rewrites the aria-describedby that points at them. Used by FIG 12, 13, 14 and 18. */
  var htmlSerial = 0;
  W.html = function (node, html) {
    node.innerHTML = html;
    var suffix = "-h" + (++htmlSerial), renamed = {};
    [].forEach.call(node.querySelectorAll("[id]"), function (e) { renamed[e.id] = true; e.id += suffix; });
    [].forEach.call(node.querySelectorAll("[aria-describedby]"), function (e) {
      e.setAttribute("aria-describedby", e.getAttribute("aria-describedby").split(/\s+/).map(function (id) {
        return renamed[id] ? id + suffix : id;
      }).join(" "));
    });
    return node;
  };

  /* A list of items that expand in place (disclosure buttons with aria-expanded/aria-controls);
   * ↑ ↓ (and ← →) move focus between item buttons, Home/End jump, Enter/Space toggle (native).
   * opts: {label, items: [{id, head: Node, body: Node}], open: [ids], onToggle(openIds, id, how)};
   * returns {node, items (li per id), set(openIds), get() → openIds}. Used by FIG 14 and FIG 18. */
  var discSerial = 0;
  W.disclosures = function (opts) {
    var prefix = "k3-disc-" + (++discSerial) + "-";
    var open = {};
    (opts.open || []).forEach(function (id) { open[id] = true; });
    var list = W.el("ul", { class: "k3-disc", "aria-label": opts.label });
    var parts = {}, buttons = [];
    opts.items.forEach(function (it) {
      var panel = W.el("div", { class: "k3-disc-body", id: prefix + it.id }, it.body);
      var btn = W.el("button", { type: "button", class: "k3-disc-btn", "aria-controls": panel.id, "data-id": it.id,
        on: { click: function () { toggle(it.id, "click"); } } }, it.head);
      buttons.push(btn);
      parts[it.id] = { li: list.appendChild(W.el("li", { class: "k3-disc-item", "data-id": it.id }, btn, panel)), btn: btn, panel: panel };
    });
    function ids() { return opts.items.map(function (it) { return it.id; }).filter(function (id) { return open[id]; }); }
    function paint() {
      opts.items.forEach(function (it) {
        var p = parts[it.id], on = !!open[it.id];
        p.btn.setAttribute("aria-expanded", on ? "true" : "false");
        p.panel.hidden = !on;
        p.li.classList.toggle("is-open", on);
      });
    }
    function toggle(id, how) {
      open[id] = !open[id];
      paint();
      if (opts.onToggle) opts.onToggle(ids(), id, how);
    }
    list.addEventListener("keydown", function (e) {
      var i = buttons.indexOf(document.activeElement), n = buttons.length, next = null;
      if (i < 0) return;  // keys inside an open panel (links) keep their usual meaning
      if (e.key === "ArrowDown" || e.key === "ArrowRight") next = Math.min(n - 1, i + 1);
      else if (e.key === "ArrowUp" || e.key === "ArrowLeft") next = Math.max(0, i - 1);
      else if (e.key === "Home") next = 0;
      else if (e.key === "End") next = n - 1;
      if (next === null) return;
      e.preventDefault();
      buttons[next].focus();
    });
    paint();
    return {
      node: list, items: parts, get: ids,
      set: function (list2) { open = {}; (list2 || []).forEach(function (id) { open[id] = true; }); paint(); },
    };
  };

  /* Drag or tap along a chart to pick a grid index (FIG 15, 15b). The node's width minus
   * margin.l and margin.r (the plot area) spans `count` evenly spaced grid points — e.g. a log
   * axis over a geometric grid — so a pointer's position is an index with no scale maths here.
   * Pair it with a slider for keyboard users. Vertical touch panning still scrolls the page.
   * opts: {node, margin: {l, r}, count, onIndex(i, "drag"), onEnd()} */
  W.scrub = function (opts) {
    var node = opts.node, dragging = false;
    function indexAt(clientX) {
      var box = node.getBoundingClientRect();
      var f = (clientX - box.left - opts.margin.l) / (box.width - opts.margin.l - opts.margin.r);
      return Math.round(Math.max(0, Math.min(1, f)) * (opts.count - 1));
    }
    node.style.touchAction = "pan-y";
    node.addEventListener("pointerdown", function (e) {
      dragging = true;
      if (node.setPointerCapture) node.setPointerCapture(e.pointerId);
      opts.onIndex(indexAt(e.clientX), "drag");
    });
    node.addEventListener("pointermove", function (e) { if (dragging) opts.onIndex(indexAt(e.clientX), "drag"); });
    function end() { if (dragging) { dragging = false; if (opts.onEnd) opts.onEnd(); } }
    node.addEventListener("pointerup", end);
    node.addEventListener("pointercancel", end);
  };

  /* A numeric matrix (or vector, as one row) as a table; string entries are shown as they are.
   * opts: {caption, rows: [labels] (omit for a vector), cols: [labels], corner, digits, sym};
   * update(values, {masked, changed, style}) */
  W.matrix = function (opts) {
    var table = W.el("table", { class: "k3-matrix", "data-sym": opts.sym });
    if (opts.caption) table.appendChild(W.el("caption", { text: opts.caption }));
    var labelled = !!opts.rows;  // without row labels the table is a single vector
    var head = W.el("tr", {}, !labelled ? null : opts.corner ? W.el("th", { scope: "col", text: opts.corner }) : W.el("td"));
    (opts.cols || []).forEach(function (c) { head.appendChild(W.el("th", { scope: "col", text: c })); });
    table.appendChild(W.el("thead", {}, head));
    var body = table.appendChild(W.el("tbody"));
    var cells = (opts.rows || [null]).map(function (r) {
      var tr = body.appendChild(W.el("tr", {}, labelled ? W.el("th", { scope: "row", text: r }) : null));
      return (opts.cols || []).map(function () { return tr.appendChild(W.el("td")); });
    });
    function update(values, marks) {
      var m = marks || {};
      cells.forEach(function (row, i) {
        row.forEach(function (td, j) {
          var v = Array.isArray(values[0]) ? values[i][j] : values[j];
          td.textContent = typeof v === "string" ? v : W.fmt(v, opts.digits);
          td.className = (m.masked && m.masked(i, j) ? "is-masked " : "") + (m.changed && m.changed(i, j) ? "is-changed" : "");
          if (m.style) m.style(td, v, i, j);
        });
      });
    }
    return { node: table, cells: cells, update: update };
  };

  function count(n) { var a = []; for (var i = 1; i <= n; i++) a.push(i); return a; }

  /* Subscript digits, for labels like "S₁₂"; axis labels "k₁ … k₄" for matrices indexed by channel. */
  var SUB = "₀₁₂₃₄₅₆₇₈₉";
  W.sub = function (n) { return String(n).replace(/\d/g, function (c) { return SUB[+c]; }); };
  W.axis = function (prefix, n) {
    var out = [];
    for (var i = 1; i <= n; i++) out.push(prefix + W.sub(i));
    return out;
  };

  /* A key-major state matrix S [d_k × d_v] (rows: key channels, columns: value channels), used by the
   * delta-rule figures (FIG 06, 07, 17). update(values, {changed: bool[][] from the data, tone}) marks
   * the cells that changed (is-changed) and can tint the whole grid ("decayed", "faded").
   * opts: {caption, d_k, d_v, digits, sym} */
  W.stateMatrix = function (opts) {
    var m = W.matrix({ caption: opts.caption, rows: W.axis("k", opts.d_k), cols: W.axis("v", opts.d_v),
      corner: "k╲v", digits: opts.digits, sym: opts.sym });
    m.node.classList.add("k3-state");
    var cap = m.node.caption;
    return {
      node: m.node, cells: m.cells,
      caption: function (text) { if (cap) cap.textContent = text; },
      update: function (values, marks) {
        var mk = marks || {};
        m.update(values, { changed: mk.changed ? function (i, j) { return !!mk.changed[i][j]; } : null });
        m.node.setAttribute("data-tone", mk.tone || "");
      },
    };
  };

  /* One delta-rule step, S_t = S_{t−1} + β k (v − S_{t−1}ᵀk)ᵀ, laid out as the equation reads:
   * a table of the vectors (k, v, read, error; optionally q and the output) above three state grids
   * S_{t−1} + write = S_t. Shared by FIG 06 (stage by stage) and FIG 17 (a whole token per step).
   * Every part carries the data-sym of its symbol in the §06 equation (dr-k, dr-read, …).
   * opts: {d (= d_k = d_v), digits, query: bool}
   * update(step, upto): step = one token of the kernel trace {state_prev, k, v, read, error, write,
   * state, changed[, q, output]}; upto = last stage shown (0 read, 1 error, 2 write, 3 new state;
   * later stages show "·"); the stage `upto` is outlined as current unless opts.current === false. */
  W.deltaStep = function (opts) {
    var d = opts.d, dig = opts.digits;
    var rows = [["k", "dr-k", "key k"], ["v", "dr-v", "value v"], ["read", "dr-read", "read Sᵀk"],
      ["error", "dr-error", "error v − Sᵀk"]];
    if (opts.query) rows.push(["q", "dr-q", "query q"], ["output", "dr-out", "output Sᵀq"]);
    var vec = W.matrix({ caption: opts.vectorsCaption || "vectors", rows: rows.map(function (r) { return r[2]; }),
      cols: count(d).map(String), corner: "", digits: dig });
    rows.forEach(function (r, i) { vec.node.tBodies[0].rows[i].setAttribute("data-sym", r[1]); });
    var before = W.stateMatrix({ caption: "S before", d_k: d, d_v: d, digits: dig, sym: "dr-state" });
    var write = W.stateMatrix({ caption: "write β k (v − Sᵀk)ᵀ", d_k: d, d_v: d, digits: dig, sym: "dr-write" });
    var after = W.stateMatrix({ caption: "S after", d_k: d, d_v: d, digits: dig, sym: "dr-state" });
    var op = function (t) { return W.el("span", { class: "k3-op", "aria-hidden": "true", text: t }); };
    var node = W.el("div", { class: "k3-delta" },
      W.el("div", { class: "k3-scroll k3-delta-vec" }, vec.node),
      W.el("div", { class: "k3-delta-eq" }, before.node, op("+"), write.node, op("="), after.node));
    var dots = function () { return count(d).map(function () { return "·"; }); };
    var grid = function () { return count(d).map(dots); };
    function update(step, upto, labels) {
      var lab = labels || {};
      var stageOf = { read: 0, error: 1 };
      vec.update(rows.map(function (r) {
        if (r[0] in stageOf && stageOf[r[0]] > upto) return dots();
        if (r[0] === "output" && upto < 3) return dots();
        return step[r[0]];
      }));
      before.caption(lab.before || "S before");
      after.caption(lab.after || "S after");
      before.update(step.state_prev);
      write.update(upto >= 2 ? step.write : grid(), { changed: upto >= 2 ? step.changed : null });
      after.update(upto >= 3 ? step.state : grid(), { changed: upto >= 3 ? step.changed : null });
      var current = opts.current === false ? null : upto;
      [].forEach.call(vec.node.tBodies[0].rows, function (tr, i) {
        tr.classList.toggle("is-current", current !== null && stageOf[rows[i][0]] === current);
      });
      write.node.classList.toggle("is-current", current === 2);
      after.node.classList.toggle("is-current", current === 3);
    }
    return { node: node, update: update, vectors: vec, before: before, write: write, after: after };
  };
})();
