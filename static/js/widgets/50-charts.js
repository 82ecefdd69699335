/* K3W widgets: the frame of every Plotly chart, and scrubbing along a chart. */
(function () {
  "use strict";
  var W = window.K3W;
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
})();
