/* Shared figure widgets, one small module each, joined at build time (file-name order) into
 * assets/widgets.js, which the runtime loads before the first figure component. One
 * implementation each, configured by data; nothing here does science, and the words a reader
 * reads come from the figure's data (ctx.show).
 *   10-dom          K3W.el (build an element), K3W.html (insert build-time HTML)
 *   20-format       numbers and labels: fmt, sci, sup, int, si, sub, axis, range
 *   30-controls     choice, stepper, slider
 *   40-disclosures  items that expand in place
 *   45-sections     links from a figure to the article's sections, labelled from the page
 *   50-charts       Plotly's frame in the page's colours, scrubbing, colour contrast helpers
 *   52-legend       a row of keys beside a chart: a swatch (square or line) and a label each
 *   55-scrubber     a chart with a marker driven by a slider and by dragging
 *   60-matrix       numeric tables and the key-major state grid
 *   62-heatmap      heat mode for matrices: diverging colours, numbers on hover and focus, legend
 *   62-player       Play/Pause over a figure's step state that pauses off-screen
 *   70-delta-step   one delta-rule step laid out as its equation reads
 *   80-svg          SVG drawings and text that fits in them; 81 cards, 82 a residual layer
 * A project adds widgets several of its figures share in static/js/widgets/ (the build joins
 * both folders); a widget only one figure uses lives in that figure's folder and ships with it.
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

  /* W.html(node, html): insert HTML the build pipeline rendered from a builder's `*_md` text
   * (delivered as `*_html`; trusted). The pipeline renders each text on its own, so the ids of
   * fact citations repeat from one text to the next (and the caption); this makes them unique
   * and rewrites the aria-describedby that points at them. */
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

  /* W.text(node, s): set a node's text only when it differs; rewriting the same text still
   * replaces the text node and re-lays out its line. W.attr(node, name, value) likewise (a number
   * is written as its text; null removes the attribute), W.prop(node, name, value) for a style
   * property such as a custom property (written as its text). */
  W.text = function (node, s) { if (node.textContent !== s) node.textContent = s; return node; };
  W.attr = function (node, name, value) {
    var v = value === null || value === undefined ? null : String(value);
    if (node.getAttribute(name) !== v) {
      if (v === null) node.removeAttribute(name); else node.setAttribute(name, v);
    }
    return node;
  };
  W.prop = function (node, name, value) {
    var v = String(value);
    if (node.style.getPropertyValue(name) !== v) node.style.setProperty(name, v);
    return node;
  };
})();
