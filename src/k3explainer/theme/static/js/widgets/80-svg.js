/* K3W widgets: SVG drawings, and text that fits in them.
 *
 * A drawing laid out for the width it gets, at one SVG unit per CSS pixel, keeps its text at the
 * page's size; boxes then grow to hold the text. For that the text is measured with a canvas in
 * the very font the SVG sets on it (the widths are remembered, so a redraw on resize measures
 * nothing twice), wrapped greedily at word breaks, and written as one <text> with a <tspan> per
 * line; each line keeps its trailing space, so textContent reads as the sentence it was.
 *
 *   K3W.svg.el(tag, attrs, ...children)     an SVG element (K3W.el with the "svg:" prefix)
 *   K3W.svg.g(attrs, ...children)            a group
 *   K3W.svg.rect(x, y, w, h, cls, attrs)     a rectangle
 *   K3W.svg.path(d, cls, attrs)              a path; line(x1, y1, x2, y2, cls, attrs) a straight one
 *   K3W.svg.bend(x0, y0, x1, y1)             the d of a horizontal S-bend between two points
 *   K3W.svg.at(node, x, y)                   moves a node (translate) and returns it
 *   K3W.svg.arrowhead(id, cls)               <defs> holding an arrowhead marker; then put
 *                                            {"marker-end": K3W.svg.ref(id)} on a path
 *   K3W.svg.plus(cx, cy, r, cls)             ⊕, where two streams add (hidden from screen readers)
 *   K3W.svg.pressable(node, fn)              a node (role="button") that calls fn("click" | "key")
 *                                            on a click, Enter or Space
 *   K3W.svg.textWidth(font, s)              s's width in a CSS font ("12px sans-serif"), remembered;
 *                                            for text placed by hand
 *   K3W.svg.type(styles) → t                 a typesetter for named text styles,
 *       styles: {name: [family, size px, weight, line height px]}; a family "--sans" is read from
 *       the page's CSS custom property of that name
 *     t.width(style, s)                      s's width in that style (remembered)
 *     t.wrap(style, s, w) → [lines]          greedy word wrap; a word wider than w gets a line of its own
 *     t.size(style), t.lh(style)             font size, line height
 *     t.text(style, cls, x, y, lines, attrs) one <text>, one <tspan> per line, the font set on it
 *     t.flow(style, cls, x, y, runs, w, attrs) → {node, rows}: runs [[text, cls, attrs]] set one
 *                                            after another as <tspan>s, wrapped between runs at w
 *     t.legend(style, cls, x, y, items, w) → {nodes, h}: items [{swatch: cls, text}], a swatch and
 *                                            its label each, wrapped like a sentence */
(function () {
  "use strict";
  var W = window.K3W;
  var S = (W.svg = {});

  S.el = function (tag) {
    var args = [].slice.call(arguments);
    args[0] = "svg:" + tag;
    return W.el.apply(null, args);
  };
  S.g = function () {
    var args = [].slice.call(arguments);
    return S.el.apply(null, ["g", args[0] || {}].concat(args.slice(1)));
  };
  S.rect = function (x, y, w, h, cls, attrs) {
    return S.el("rect", Object.assign({ x: x, y: y, width: w, height: h, class: cls }, attrs || {}));
  };
  S.path = function (d, cls, attrs) { return S.el("path", Object.assign({ d: d, class: cls }, attrs || {})); };
  S.line = function (x1, y1, x2, y2, cls, attrs) { return S.path("M" + x1 + "," + y1 + "L" + x2 + "," + y2, cls, attrs); };
  S.bend = function (x0, y0, x1, y1) {
    var mid = (x0 + x1) / 2;
    return "M" + x0 + " " + y0 + " C" + mid + " " + y0 + " " + mid + " " + y1 + " " + x1 + " " + y1;
  };
  S.at = function (node, x, y) { node.setAttribute("transform", "translate(" + x + "," + y + ")"); return node; };
  S.ref = function (id) { return "url(#" + id + ")"; };
  S.arrowhead = function (id, cls) {
    return S.el("defs", {}, S.el("marker", { id: id, viewBox: "0 0 8 8", refX: 7, refY: 4, markerWidth: 8, markerHeight: 8,
      markerUnits: "userSpaceOnUse", orient: "auto-start-reverse" }, S.path("M0,0L8,4L0,8z", cls)));
  };
  /* an SVG node that acts as a button (HTML buttons do this natively): click, Enter and Space
   * call fn with how = "click" or "key" */
  S.pressable = function (node, fn) {
    node.addEventListener("click", function () { fn("click"); });
    node.addEventListener("keydown", function (e) {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); fn("key"); }
    });
    return node;
  };
  S.plus = function (cx, cy, r, cls) {
    var a = r - 4;
    return S.g({ class: cls, "aria-hidden": "true" }, S.el("circle", { cx: cx, cy: cy, r: r }),
      S.path("M" + (cx - a) + "," + cy + "h" + 2 * a + "M" + cx + "," + (cy - a) + "v" + 2 * a));
  };

  var pen = null, measured = {};  // one canvas and one memory for every drawing on the page
  function measure(font, s) {
    var key = font + "|" + s;
    if (!(key in measured)) {
      pen = pen || document.createElement("canvas").getContext("2d");
      pen.font = font;
      measured[key] = pen.measureText(s).width;
    }
    return measured[key];
  }
  S.textWidth = measure;  // (CSS font shorthand, text) → px; for text placed by hand, e.g. labels over a chart

  S.type = function (styles) {
    var css = getComputedStyle(document.documentElement), F = {};
    Object.keys(styles).forEach(function (k) {
      var s = styles[k], family = s[0].indexOf("--") === 0 ? css.getPropertyValue(s[0]).trim() : s[0];
      F[k] = { family: family, size: s[1], weight: s[2], lh: s[3], font: s[2] + " " + s[1] + "px " + family };
    });
    var t = {
      size: function (k) { return F[k].size; },
      lh: function (k) { return F[k].lh; },
      width: function (k, s) { return measure(F[k].font, s); },
      wrap: function (k, s, w) {
        var lines = [], line = "";
        s.split(" ").forEach(function (word) {
          var next = line ? line + " " + word : word;
          if (line && t.width(k, next) > w) { lines.push(line); line = word; } else line = next;
        });
        return lines.concat(line ? [line] : []);
      },
      text: function (k, cls, x, y, lines, attrs) {
        var f = F[k], node = S.el("text", Object.assign({ class: cls, x: x, y: y, "font-family": f.family,
          "font-size": f.size, "font-weight": f.weight }, attrs || {}));
        lines.forEach(function (s, i) {
          node.appendChild(S.el("tspan", { x: x, dy: i ? f.lh : 0, text: s + (i < lines.length - 1 ? " " : "") }));
        });
        return node;
      },
      flow: function (k, cls, x, y, runs, w, attrs) {
        var node = t.text(k, cls, x, y, [], attrs), used = 0, rows = 1;
        runs.forEach(function (r) {
          var rw = t.width(k, r[0]), span = S.el("tspan", { class: r[1] || null, text: r[0] });
          if (used && used + rw > w) { span.setAttribute("x", x); span.setAttribute("dy", F[k].lh); used = 0; rows++; }
          Object.keys(r[2] || {}).forEach(function (a) { span.setAttribute(a, r[2][a]); });
          node.appendChild(span);
          used += rw;
        });
        return { node: node, rows: rows };
      },
      legend: function (k, cls, x, y, items, w) {
        var nodes = [], kx = 0, row = y;
        items.forEach(function (it) {
          var kw = 16 + t.width(k, it.text) + 16;
          if (kx && kx + kw > w) { kx = 0; row += F[k].lh + 4; }
          nodes.push(S.rect(x + kx, row + 2, 10, 10, it.swatch, { rx: 2 }), t.text(k, cls, x + kx + 15, row + 11, [it.text]));
          kx += kw;
        });
        return { nodes: nodes, h: row - y + F[k].lh };
      },
    };
    return t;
  };
})();
