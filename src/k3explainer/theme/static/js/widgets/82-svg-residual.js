/* K3W widgets: a pre-norm residual layer drawn around its stream (FIG 01's open layer).
 *
 * K3W.svg.residual(view, t, opts) → the y under it: draws into the SVG group `view`, from
 * opts.top down, the stream x running through the layer and its branches of three boxes each
 * (norm → op → add): a branch taps the stream, and its add box feeds a ⊕ on the stream.
 * Wide: the stream along the top and the boxes in a row below it (norm and add boxes just wide
 * enough for "out [T, d]", the ops share the rest, all one height); narrow: the stream down the
 * left edge and the boxes in a column beside it.
 *   t     a K3W.svg.type typesetter with a "small" style (the stream's labels)
 *   opts  {top, w, wide, count (boxes, three per branch), card(i, width, minHeight) → {node, h, w}
 *         (called again to measure), arrow (attributes of an arrow: its marker), from, to (the
 *         stream's labels), prefix (classes prefix-arrow, prefix-stream, prefix-plus,
 *         prefix-stream-label)} */
(function () {
  "use strict";
  var S = window.K3W.svg, TAP = 24, G = 24, OUT = 30;

  S.residual = function (view, t, o) {
    var c = function (name) { return o.prefix + "-" + name; };
    var n = o.count, B = n / 3, w = o.w, streamY = o.top + 10, boxes = [], sums = [], i;
    function add(node) { view.appendChild(node); }
    function line(x1, y1, x2, y2, cls) { add(S.line(x1, y1, x2, y2, cls || c("arrow"), o.arrow)); }
    function label(x, y, s, attrs) { add(t.text("small", c("stream-label"), x, y, [s], attrs)); }
    function stream(from, to, segment) {  // the stream, broken where it passes through each ⊕
      sums.forEach(function (p) { segment(from, p - 10); from = p + 9; });
      segment(from, to);
    }
    if (o.wide) {  // stream along the top, boxes in a row below, each add box rising into its ⊕
      var avail = w - 2 * TAP - (n - 1) * G - OUT, small = Math.min(140, Math.max(100, (avail - B * 190) / (2 * B)));
      var big = (avail - 2 * B * small) / B, rowY = streamY + 30, mid = rowY + 24, x = TAP;
      var widths = window.K3W.range(n, function (k) { return k % 3 === 1 ? big : small; });
      var h = Math.max.apply(null, widths.map(function (bw, k) { return o.card(k, bw).h; }));
      for (i = 0; i < n; i++) {
        if (i && i % 3 === 0) x += TAP;  // room for the next tap
        boxes.push(o.card(i, widths[i], h));
        add(S.at(boxes[i].node, x, rowY));
        boxes[i].x = x; x += widths[i] + G;
      }
      for (i = 0; i < n; i += 3) {  // stream → norm, and the branch's own arrows
        var ln = boxes[i], op = boxes[i + 1], sum = boxes[i + 2], cx = sum.x + sum.w / 2;
        add(S.path("M" + (ln.x - TAP / 2) + "," + streamY + "V" + mid + "H" + (ln.x - 2), c("arrow"), o.arrow));
        line(ln.x + ln.w + 2, mid, ln.x + ln.w + G - 2, mid);
        line(op.x + op.w + 2, mid, sum.x - 2, mid);
        line(cx, rowY - 2, cx, streamY + 9);
        add(S.plus(cx, streamY, 9, c("plus")));
        sums.push(cx);
      }
      stream(0, w - 2, function (a, b) { line(a, streamY, b, streamY, c("stream")); });
      label(0, streamY - 6, o.from);
      label(w, streamY - 6, o.to, { "text-anchor": "end" });
      return rowY + h + 14;
    }
    // narrow: stream down the left edge, boxes in a column beside it
    var bw = w - 2 * TAP, sx = TAP / 2, by = streamY + 10, mx = 2 * TAP + bw / 2;
    label(sx + 8, streamY - 2, o.from);
    for (i = 0; i < n; i++) {
      if (i && i % 3 === 0) by += 8;
      boxes.push(o.card(i, bw));
      add(S.at(boxes[i].node, 2 * TAP, by));
      boxes[i].y = by; by += boxes[i].h + (i % 3 === 2 ? 10 : 20);
    }
    for (i = 0; i < n; i += 3) {
      var a = boxes[i], b = boxes[i + 1], s = boxes[i + 2], cy = s.y + s.h / 2;
      line(sx, a.y + 16, 2 * TAP - 2, a.y + 16);
      line(mx, a.y + a.h + 2, mx, b.y - 2);
      line(mx, b.y + b.h + 2, mx, s.y - 2);
      line(2 * TAP - 2, cy, sx + 9, cy);
      add(S.plus(sx, cy, 9, c("plus")));
      sums.push(cy);
    }
    stream(streamY, by + 6, function (p, q) { line(sx, p, sx, q, c("stream")); });
    label(sx + 8, by + 4, o.to);
    return by + 16;
  };
})();
