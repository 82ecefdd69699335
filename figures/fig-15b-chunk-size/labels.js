/* K3W widgets: FIG 15b's scrub cursor and direct curve labels, drawn over its Plotly chart. They
 * live here, not in the figure file, only to keep each file small; nothing else uses them.
 *
 * Why an overlay: a scrub moves only the cursor (and a label it would cover), but asking Plotly
 * to move a marker trace recomputes and redraws every trace, and moving an annotation re-measures
 * its text: several frames per step on a slow machine. Here a scrub writes a transform and a few
 * attributes and reads no layout; the curves are drawn here too, so a new setting rewrites their
 * points and the labels' places and Plotly, which draws only the axes, does nothing.
 *
 * Why a placement search and not fixed spots: the curves move with every setting (cost model,
 * head width, latency) and the cursor (a full-height line with a dot on each curve) can sit at
 * any power of two, so a label pinned to one point was crossed by a curve in some settings and by
 * the cursor at some C. Each label is tried beside every point of its own curve (above or below
 * it, left of, centred on or right of the point) and kept only if its box stays inside the plot
 * and clear of every curve, the ring at the minimum, the labels already placed and the cursor; of
 * those spots the one nearest the label's home wins (a spot with room to spare from the other
 * curves counts as nearer), so a label moves only when something would cover it and comes home
 * after.
 *
 * When no spot clears everything (a long label on a phone, with the cursor beside the only free
 * stretch), the label's narrower forms (its text broken into lines at "\n", or shortened) are
 * tried the same way, in order.
 *
 * K3W.f15bLabels({labels: [{text, curve, home, narrow?}], font: {family, size}}) → place(geom, cursor)
 *   labels: curve is an index into geom.curves; home a preferred x as a fraction of the plot width;
 *   narrow: narrower forms of the text, to try in order when the text itself finds no spot.
 *   geom: {w, h, curves: [{x: [px], y: [px], half}], ring: {x, y, r}} in plot-area pixels
 *   (y downward), built by the caller from the data and Plotly's plot-area size, so nothing here
 *   reads the page's layout. Text widths come from the SVG toolkit's canvas measure (it lays nothing out).
 *   place(geom, cursor) → [{left, top, width, height, form}, …] per label (form k > 0: narrow[k - 1];
 *   null: no clear spot), for a
 *   cursor at x = cursor px (null: none). Placements are memoised per geom and cursor position.
 * K3W.f15bOverlay({labels: [{text, curve, home, color}], font, dot, curves: [{key, color, width, dash}],
 *                  ring: {r, width}}) → {node, draw(geom), move(x, ys)}
 *   node: an <svg> to lay over the plot (same box); colours are CSS variables, so it follows dark
 *   mode. It draws the curves themselves (opts.curves, in geom.curves' order; dash: an SVG dash
 *   array), the shaded band and the ring at the minimum, clipped to the plot area as Plotly clips
 *   its traces: Plotly draws only the axes, so a new setting (cost model, head width, latency) is a
 *   few attribute writes here, where a Plotly redraw of the traces took 30–200 ms per input.
 *   draw(geom) takes new curves (geom also holds ox, oy: the plot area's offset in the svg; band:
 *   {x0, x1}, its ends in px); move(x, ys) puts the cursor at x with its dots at ys (plot-area px,
 *   one per curve) and moves any label it would cover. Each label carries data-label (its text),
 *   the cursor data-x, each curve data-curve (its key).
 */
(function () {
  "use strict";
  var W = window.K3W;
  /* px: own curve to label, other curves to label (least; with room to spare), cursor half-width,
   * plot edge, label to label; TIGHT: what a spot without room to spare costs, in plot widths of
   * distance from home */
  var GAP = 3, OTHER = 4, ROOM = 14, CURSOR = 8, EDGE = 2, SEP = 4, TIGHT = 0.3;

  /* Does segment (x0, y0)–(x1, y1) meet rectangle r = [left, top, right, bottom]? (Liang–Barsky) */
  function hits(x0, y0, x1, y1, r) {
    var t0 = 0, t1 = 1, dx = x1 - x0, dy = y1 - y0;
    var p = [-dx, dx, -dy, dy], q = [x0 - r[0], r[2] - x0, y0 - r[1], r[3] - y0];
    for (var k = 0; k < 4; k++) {
      if (p[k] === 0) { if (q[k] < 0) return false; continue; }
      var t = q[k] / p[k];
      if (p[k] < 0) { if (t > t1) return false; if (t > t0) t0 = t; } else { if (t < t0) return false; if (t < t1) t1 = t; }
    }
    return true;
  }
  /* an SVG element painted in CSS variables (the page's colours, so dark mode follows) */
  function styled(node, props) {
    Object.keys(props).forEach(function (k) { node.style.setProperty(k, props[k]); });
    return node;
  }
  function grow(b, m) { return [b.left - m, b.top - m, b.left + b.width + m, b.top + b.height + m]; }
  function meets(a, r) { return a[0] < r[2] && r[0] < a[2] && a[1] < r[3] && r[1] < a[3]; }

  W.f15bLabels = function (opts) {
    var font = opts.font.size + "px " + opts.font.family;
    var lineH = W.f15bLineHeight(opts.font.size);
    var forms = opts.labels.map(function (l) {  // each form's box: its lines, and 1 px to spare all round
      return [l.text].concat(l.narrow || []).map(function (t) {
        var lines = t.split("\n");
        return { width: Math.ceil(Math.max.apply(null, lines.map(function (x) { return W.svg.textWidth(font, x); }))) + 2,
          height: lines.length * lineH + 2 };
      });
    });
    var geom = null, memo = {};

    /* Is the box clear of curve c by `gap` px (beyond its half line width)? */
    function clearOf(b, c, gap) {
      var cv = geom.curves[c], r = grow(b, cv.half + gap), x = cv.x, y = cv.y;
      for (var j = 1; j < x.length; j++) {
        if (Math.max(x[j - 1], x[j]) < r[0] || Math.min(x[j - 1], x[j]) > r[2]) continue;
        if (hits(x[j - 1], y[j - 1], x[j], y[j], r)) return false;
      }
      return true;
    }
    /* 0: clear with room to spare, 1: clear, 2: touches something (or leaves the plot) */
    function grade(b, own, placed, cursor) {
      if (b.left < EDGE || b.top < EDGE || b.left + b.width > geom.w - EDGE || b.top + b.height > geom.h - EDGE) return 2;
      var ring = geom.ring, box = grow(b, 0);
      if (ring && meets(box, [ring.x - ring.r, ring.y - ring.r, ring.x + ring.r, ring.y + ring.r])) return 2;
      if (cursor !== null && box[0] < cursor + CURSOR && cursor - CURSOR < box[2]) return 2;
      for (var k = 0; k < placed.length; k++) if (placed[k] && meets(grow(placed[k], SEP), box)) return 2;
      var roomy = true;
      for (var c = 0; c < geom.curves.length; c++) {
        if (!clearOf(b, c, c === own ? GAP : OTHER)) return 2;
        if (c !== own && roomy && !clearOf(b, c, ROOM)) roomy = false;
      }
      return roomy ? 0 : 1;
    }
    function search(k, placed, cursor) {
      for (var f = 0; f < forms[k].length; f++) {
        var b = searchForm(k, forms[k][f], placed, cursor);
        if (b) { b.form = f; return b; }
      }
      return null;
    }
    function searchForm(k, s, placed, cursor) {
      var l = opts.labels[k], cv = geom.curves[l.curve], g = cv.half + GAP + 1;  // 1 px inside the check's margin
      var home = l.home * geom.w, best = null, bestCost = Infinity;
      for (var j = 0; j < cv.x.length; j++) {
        var x = cv.x[j], y = cv.y[j];
        if (y < 0 || y > geom.h) continue;
        // two distances from the curve: the farther one clears a second curve running alongside
        var lefts = [x + GAP, x - s.width / 2, x - s.width - GAP], tops = [y - g - s.height, y + g, y - g - 6 - s.height, y + g + 6];
        for (var a = 0; a < 3; a++) {
          for (var v = 0; v < 4; v++) {
            var b = { left: lefts[a], top: tops[v], width: s.width, height: s.height };
            var cost = Math.abs(b.left + s.width / 2 - home) + (v > 1 ? 6 : 0);
            if (cost >= bestCost) continue;  // cannot win: skip the checks
            var q = grade(b, l.curve, placed, cursor);
            cost += q * TIGHT * geom.w;
            if (q < 2 && cost < bestCost) { best = b; bestCost = cost; }
          }
        }
      }
      return best;
    }
    /* Place the labels one after another in `order`, each clear of those before it; a label keeps
     * its spot in `keep` (if any) while that spot stays clear. A label left without a spot goes
     * first in the next try (the long one needs the free stretch a short one took). */
    function placeAll(cursor, keep) {
      var order = opts.labels.map(function (l, k) { return k; }), out;
      for (var attempt = 0; attempt < order.length; attempt++) {
        out = [];
        var placed = [];
        order.forEach(function (k) {
          var h = keep && keep[k];
          out[k] = h && grade(h, opts.labels[k].curve, placed, cursor) < 2 ? h : search(k, placed, cursor);
          if (out[k]) placed.push(out[k]);
        });
        var lost = order.filter(function (k) { return !out[k]; });
        if (!lost.length) break;
        order = lost.concat(order.filter(function (k) { return out[k]; }));
        keep = null;
      }
      return out;
    }

    return function place(g, cursor) {
      if (g !== geom) { geom = g; memo = {}; }
      if (!memo.home) memo.home = placeAll(null, null);
      if (cursor === null) return memo.home;
      var key = Math.round(cursor);
      if (!memo[key]) memo[key] = placeAll(cursor, memo.home);  // home spots the cursor leaves clear stay
      return memo[key];
    };
  };

  W.f15bLineHeight = function (size) { return Math.ceil(size * 1.35); };

  W.f15bOverlay = function (opts) {
    var el = W.el, place = W.f15bLabels(opts), geom = null, cursor = null, shown = [];
    /* the curves, the band and the ring, as Plotly drew them (its line widths and dash patterns);
     * the nested <svg> clips the curves to the plot area, as Plotly clips its traces */
    var band = styled(el("svg:rect", { class: "f15b-band-area", y: 0 }), { fill: "var(--green)" });
    var lines = opts.curves.map(function (c, k) {
      return styled(el("svg:polyline", { class: "f15b-curve", "data-curve": c.key, "stroke-dasharray": c.dash || null }),
        { stroke: "var(" + c.color + ")", "stroke-width": c.width + "px" });
    });
    var clip = el.apply(null, ["svg:svg", { class: "f15b-curves", overflow: "hidden" }, band].concat(lines));
    var ring = styled(el("svg:circle", { class: "f15b-ring", r: opts.ring.r }), { stroke: "var(--green)", "stroke-width": opts.ring.width + "px" });
    var line = el("svg:line", { class: "f15b-cursor-line", x1: 0, x2: 0, y1: 0 });
    var dots = opts.labels.map(function (l) {
      return styled(el("svg:circle", { class: "f15b-cursor-dot", r: opts.dot }), { fill: "var(" + l.color + ")" });
    });
    var mark = el.apply(null, ["svg:g", { class: "f15b-cursor" }, line].concat(dots));
    var lineH = W.f15bLineHeight(opts.font.size);
    var texts = opts.labels.map(function (l) {  // a <text> per label, its lines as <tspan>s
      var t = styled(el("svg:text", { class: "f15b-label", "data-label": l.text, "dominant-baseline": "central" }),
        { fill: "var(" + l.color + ")", "font-size": opts.font.size + "px" });
      t.forms = [l.text].concat(l.narrow || []);
      return t;
    });
    function write(t, f) {  // the lines of form f, centred in their rows of the label's box
      t.textContent = "";
      t.forms[f].split("\n").forEach(function (line, i) {
        t.appendChild(el("svg:tspan", { x: 0, y: 1 + (i + 0.5) * lineH, text: line }));
      });
    }
    var area = el.apply(null, ["svg:g", {}, clip, ring, mark].concat(texts));
    var node = el("svg:svg", { class: "f15b-overlay", "aria-hidden": "true" }, area);

    function relabel() {  // write a label's place (and form) only when it moves
      place(geom, cursor).forEach(function (b, k) {
        var t = texts[k], at = b ? b.left + 1 + "," + b.top : "";
        if (at === shown[k]) return;
        shown[k] = at;
        if (!b) { t.setAttribute("visibility", "hidden"); return; }  // no clear spot: none seen in any setting
        if (b.form !== t.form) { write(t, b.form); t.form = b.form; }
        t.removeAttribute("visibility");
        t.setAttribute("transform", "translate(" + at + ")");
      });
    }
    return {
      node: node,
      draw: function (g) {
        geom = g;
        area.setAttribute("transform", "translate(" + g.ox + "," + g.oy + ")");
        line.setAttribute("y2", g.h);
        clip.setAttribute("width", g.w);
        clip.setAttribute("height", g.h);
        band.setAttribute("x", g.band.x0);
        band.setAttribute("width", Math.max(0, g.band.x1 - g.band.x0));
        band.setAttribute("height", g.h);
        g.curves.forEach(function (c, k) {
          var pts = "";
          for (var j = 0; j < c.x.length; j++) pts += (j ? " " : "") + c.x[j].toFixed(2) + "," + c.y[j].toFixed(2);
          lines[k].setAttribute("points", pts);
        });
        ring.setAttribute("cx", g.ring.x);
        ring.setAttribute("cy", g.ring.y);
        if (cursor !== null) relabel();
      },
      move: function (x, ys) {
        cursor = x;
        mark.setAttribute("transform", "translate(" + x + ",0)");
        mark.setAttribute("data-x", x);
        ys.forEach(function (y, k) {  // a curve off the axis's range (steps, at large C) has no dot, as Plotly clips it
          dots[k].setAttribute("cy", y);
          dots[k].setAttribute("visibility", y < 0 || y > geom.h ? "hidden" : "visible");
        });
        relabel();
      },
    };
  };
})();
