/* K3W widgets: the frame of every Plotly chart, and scrubbing along a chart. */
(function () {
  "use strict";
  var W = window.K3W;
  /* Chart colours come from the page's CSS variables, so charts follow light and dark mode (the
   * runtime restarts chart figures when the scheme changes). css(node) → name → value, each name
   * read once: a chart redrawn on input would otherwise make the browser recompute the page's
   * styles to answer it after every change the figure has just made. */
  W.css = function (node) {
    var seen = {};
    return function (name) {
      if (!(name in seen)) seen[name] = getComputedStyle(node).getPropertyValue(name).trim();
      return seen[name];
    };
  };
  /* The frame every Plotly chart shares: transparent paper, the page's font and ink, no drag. */
  W.chartLayout = function (node, layout) {
    return Object.assign({ paper_bgcolor: "rgba(0,0,0,0)", plot_bgcolor: "rgba(0,0,0,0)", dragmode: false,
      font: { family: getComputedStyle(node).fontFamily, color: W.css(node)("--ink"), size: 11 } }, layout);
  };

  /* Colour arithmetic for text drawn on a colour scale (heatmap cells, bars): parse "#rgb",
   * "#rrggbb" or "rgb(…)" into [r, g, b]; mix two colours; and pick, of two inks, the one with the
   * higher WCAG contrast on a background, so values stay legible in both schemes. */
  W.rgb = function (c) {
    var s = String(c).trim(), m = s.match(/^#([0-9a-f]{3}|[0-9a-f]{6})$/i);
    if (m) {
      var h = m[1].length === 3 ? m[1].replace(/./g, "$&$&") : m[1];
      return [0, 2, 4].map(function (i) { return parseInt(h.slice(i, i + 2), 16); });
    }
    m = s.match(/rgba?\(([^)]+)\)/);
    if (m) return m[1].split(/[ ,/]+/).slice(0, 3).map(Number);
    throw new Error("K3W.rgb: cannot read colour " + JSON.stringify(c));
  };
  W.mix = function (a, b, t) {
    var x = W.rgb(a), y = W.rgb(b);
    return "rgb(" + x.map(function (v, i) { return Math.round(v + (y[i] - v) * t); }).join(",") + ")";
  };
  W.contrast = function (a, b) {
    function lum(c) {
      var v = W.rgb(c).map(function (u) { u /= 255; return u <= 0.03928 ? u / 12.92 : Math.pow((u + 0.055) / 1.055, 2.4); });
      return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2];
    }
    var la = lum(a), lb = lum(b);
    return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
  };
  W.inkOn = function (bg, inks) {
    return inks.reduce(function (best, c) { return W.contrast(bg, c) > W.contrast(bg, best) ? c : best; });
  };

  /* Drag or tap along a chart to pick a grid index; pair it with
   * a slider or keys for keyboard users. Vertical touch panning still scrolls the page.
   * opts: {node, onIndex(i, "drag"), onEnd(), listen?, and how the pointer's x maps to an index:
   *   margin: {l, r} and count — the plot area (node width minus the margins) spans `count` evenly
   *     spaced grid points, e.g. a log axis over a geometric grid, so no scale maths is needed; or
   *   index(x, box) — any grid: x is the pointer's offset from the node's left edge in px}
   * listen(target, type, fn) is how listeners are added: pass a figure's ctx.on so its lifecycle
   * releases them (default: addEventListener). */
  W.scrub = function (opts) {
    var node = opts.node, dragging = false;
    var listen = opts.listen || function (target, type, fn) { target.addEventListener(type, fn); };
    function indexAt(e) {
      var box = node.getBoundingClientRect(), x = e.clientX - box.left;
      if (opts.index) return opts.index(x, box);
      var f = (x - opts.margin.l) / (box.width - opts.margin.l - opts.margin.r);
      return Math.round(Math.max(0, Math.min(1, f)) * (opts.count - 1));
    }
    node.style.touchAction = "pan-y";
    listen(node, "pointerdown", function (e) {
      dragging = true;
      if (node.setPointerCapture) node.setPointerCapture(e.pointerId);
      opts.onIndex(indexAt(e), "drag");
    });
    listen(node, "pointermove", function (e) { if (dragging) opts.onIndex(indexAt(e), "drag"); });
    function end() { if (dragging) { dragging = false; if (opts.onEnd) opts.onEnd(); } }
    listen(node, "pointerup", end);
    listen(node, "pointercancel", end);
  };
  /* The index of the value nearest x: a pointer over an uneven grid, or a stale link's value. */
  W.nearest = function (values, x) {
    var best = 0;
    for (var i = 1; i < values.length; i++) if (Math.abs(values[i] - x) < Math.abs(values[best] - x)) best = i;
    return best;
  };
})();
