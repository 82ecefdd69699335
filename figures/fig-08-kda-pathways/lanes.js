/* K3W widgets: node-and-edge diagrams whose edges run in lanes, so no edge crosses a box (FIG 08).
 *
 * Nodes sit on a grid of layers (along the flow) and tracks (across it). Between two layers, and
 * between two tracks, lies a channel with no box in it; every edge is drawn only inside channels:
 *   next layer        source face → a lane in the channel after the source → the target's face
 *   skips layers      … → a lane in the track channel `via` (0 = the outer margin before track 0)
 *                     → a lane in the channel before the target → the target's face
 *   same layer        straight across the channel to the neighbouring track
 * Lanes are shared where that reads as one wire: all edges leaving a node share its first lane
 * (a bus), all long edges into a node share its last one. A channel is as wide as its lanes need,
 * so the geometry follows the measured boxes (research mode makes them taller) and is the same for
 * the same boxes. Builders check that each edge is one of the three kinds.
 * Each channel's lanes take the order (of every order, up to 6 lanes) with the fewest places where
 * one wire runs through another, or over it; ties keep the grid's order. The wires into one box end
 * spread over its upstream face, at least `port` apart: a box with several wires in grows across
 * the flow if it must (boxes comes back with the size to draw it at).
 *
 * K3W.lanes({flow: "right"|"down", tracks, nodes: [{id, layer, track, w, h}], edges: [{from, to,
 *   via}], gap, lane, port, margin}) → {width, height, boxes: {id: {x, y, w, h}}, routes: [[[x, y], …]],
 *   crossings (how many remain)}; the same input returns the same (shared, read-only) result
 * K3W.lanes.path(points, radius) → an SVG path "d" with rounded corners
 */
(function () {
  "use strict";
  var W = window.K3W;
  function sum(list, n) { var s = 0; for (var i = 0; i < n; i++) s += list[i]; return s; }
  function fill(n, v) { var a = []; for (var i = 0; i < n; i++) a.push(v); return a; }

  /* transversal crossings between two edges' orthogonal polylines; two wires running on top of
   * each other count too, unless they share an end (a bus out of one box, the last lane into one) */
  function crossings(a, b, related) {
    // most pairs of wires lie apart: their boxes (2 px wider, the overlap test's tolerance) settle
    // it before any pair of segments is looked at (the lane search asks for ~10^5 pairs)
    var A = extent(a), B = extent(b);
    if (A[0] > B[1] + 2 || B[0] > A[1] + 2 || A[2] > B[3] + 2 || B[2] > A[3] + 2) return 0;
    var n = 0, e = 0.5;
    for (var i = 1; i < a.length; i++) {
      for (var j = 1; j < b.length; j++) {
        var p = a[i - 1], q = a[i], r = b[j - 1], t = b[j];
        var ah = Math.abs(p[1] - q[1]) < 0.01, bh = Math.abs(r[1] - t[1]) < 0.01;
        if (ah === bh) {
          var k = ah ? 1 : 0, o = 1 - k;
          if (!related && Math.abs(p[k] - r[k]) < 2 &&
              Math.min(Math.max(p[o], q[o]), Math.max(r[o], t[o])) - Math.max(Math.min(p[o], q[o]), Math.min(r[o], t[o])) > 1) n++;
          continue;
        }
        var H = ah ? [p, q] : [r, t], V = ah ? [r, t] : [p, q], y = H[0][1], x = V[0][0];
        if (x > Math.min(H[0][0], H[1][0]) + e && x < Math.max(H[0][0], H[1][0]) - e &&
            y > Math.min(V[0][1], V[1][1]) + e && y < Math.max(V[0][1], V[1][1]) - e) n++;
      }
    }
    return n;
  }
  function extent(route) {  // [x0, x1, y0, y1] of a polyline, kept on it (routes are never changed)
    if (!route.extent) {
      var x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
      route.forEach(function (p) { x0 = Math.min(x0, p[0]); x1 = Math.max(x1, p[0]); y0 = Math.min(y0, p[1]); y1 = Math.max(y1, p[1]); });
      route.extent = [x0, x1, y0, y1];
    }
    return route.extent;
  }
  function permutations(list) {  // every order of a short list, the given one first
    if (list.length < 2) return [list.slice()];
    var out = [];
    list.forEach(function (x, i) {
      permutations(list.slice(0, i).concat(list.slice(i + 1))).forEach(function (rest) { out.push([x].concat(rest)); });
    });
    return out;
  }

  var drawn = {};  // input → result: switching a view back reuses its routing (the search costs ~100 ms)
  W.lanes = function (o) {
    var key = JSON.stringify(o);
    if (!drawn[key]) drawn[key] = layOut(o);
    return drawn[key];
  };
  function layOut(o) {
    var right = o.flow === "right", gap = o.gap || 24, step = o.lane || 8, margin = o.margin || 8;
    var portGap = o.port || 0;
    var byId = {}, ins = {};
    o.nodes.forEach(function (n) { ins[n.id] = 0; });
    o.nodes.forEach(function (n) {  // a = size along the flow, b = across it
      byId[n.id] = { n: n, a: right ? n.w : n.h, b: right ? n.h : n.w };
    });
    o.edges.forEach(function (e) { if (byId[e.from].n.layer !== byId[e.to].n.layer) ins[e.to]++; });
    // a box with several wires in is made tall enough that their arrowheads lie portGap apart
    var INSET = 8;
    Object.keys(byId).forEach(function (id) {
      if (ins[id] > 1) byId[id].b = Math.max(byId[id].b, 2 * INSET + (ins[id] - 1) * portGap);
    });
    var L = 1 + Math.max.apply(null, o.nodes.map(function (n) { return n.layer; })), T = o.tracks;
    var A = fill(L, 0), B = fill(T, 0);
    o.nodes.forEach(function (n) {
      var m = byId[n.id];
      A[n.layer] = Math.max(A[n.layer], m.a);
      B[n.track] = Math.max(B[n.track], m.b);
    });
    // lanes: gapLanes[l] lie before layer l, trackLanes[t] before track t; keys start sorted by the
    // grid (not by the order the edges are listed in), then each channel takes the order that
    // crosses fewest wires
    var gapLanes = fill(L + 1, null).map(function () { return []; });
    var trackLanes = fill(T + 1, null).map(function () { return []; });
    function want(list, key, rank) { if (!list.some(function (k) { return k.key === key; })) list.push({ key: key, rank: rank }); }
    var kinds = o.edges.map(function (e) {
      var s = byId[e.from].n, d = byId[e.to].n;
      if (s.layer === d.layer) return "across";
      want(gapLanes[s.layer + 1], "s:" + e.from, [0, s.track, s.layer]);
      if (d.layer === s.layer + 1) return "next";
      want(trackLanes[e.via], "k:" + e.from, [s.layer, s.track, 0]);
      want(gapLanes[d.layer], "d:" + e.to, [1, d.track, d.layer]);
      return "long";
    });
    function byRank(x, y) {
      for (var i = 0; i < 3; i++) if (x.rank[i] !== y.rank[i]) return x.rank[i] - y.rank[i];
      return x.key < y.key ? -1 : 1;
    }
    gapLanes.forEach(function (l) { l.sort(byRank); });
    trackLanes.forEach(function (l) { l.sort(byRank); });
    function width(lanes, outer) { return lanes.length ? Math.max(outer ? 0 : gap, (lanes.length + 1) * step) : outer ? margin : gap; }
    var G = gapLanes.map(function (l, i) { return width(l, i === 0 || i === L); });
    var K = trackLanes.map(function (l, i) { return width(l, i === 0 || i === T); });
    var u0 = A.map(function (_, l) { return sum(G, l + 1) + sum(A, l); });
    var v0 = B.map(function (_, t) { return sum(K, t + 1) + sum(B, t); });
    function lanePos(lanes, starts, sizes, chans, i, key) {
      var at = lanes[i].map(function (k) { return k.key; }).indexOf(key);
      var begin = i === 0 ? 0 : starts[i - 1] + sizes[i - 1];
      return begin + chans[i] * (at + 1) / (lanes[i].length + 1);
    }
    function gapAt(l, key) { return lanePos(gapLanes, u0, A, G, l, key); }
    function trackAt(t, key) { return lanePos(trackLanes, v0, B, K, t, key); }

    var box = {};
    Object.keys(byId).forEach(function (id) {
      var m = byId[id], n = m.n;
      box[id] = { u: u0[n.layer] + (A[n.layer] - m.a) / 2, v: v0[n.track] + (B[n.track] - m.b) / 2, a: m.a, b: m.b };
    });
    function mid(id) { return box[id].v + box[id].b / 2; }

    // the wires that end on a box's upstream face (not those from a box beside it), found once:
    // route() runs for every lane order the search tries
    var arriving = {};
    Object.keys(byId).forEach(function (id) {
      arriving[id] = o.edges.map(function (e, i) { return i; }).filter(function (i) { return kinds[i] !== "across" && o.edges[i].to === id; });
    });
    /* the wires for the current lane orders (u along the flow, v across it) */
    function route() {
      // entry ports: a target's incoming edges spread over its upstream face in the order they
      // arrive, evenly, or portGap apart about the middle when even spacing would be tighter
      var approach = o.edges.map(function (e, i) {
        return kinds[i] === "next" ? mid(e.from) : kinds[i] === "long" ? trackAt(e.via, "k:" + e.from) : null;
      });
      var port = {};
      Object.keys(byId).forEach(function (id) {
        var into = arriving[id].slice();
        into.sort(function (i, j) { return approach[i] - approach[j] || i - j; });
        var b = box[id].b, n = into.length, even = b / (n + 1);
        var sp = even >= portGap || n < 2 ? even : Math.min(portGap, (b - 2 * INSET) / (n - 1));
        into.forEach(function (i, k) { port[i] = mid(id) + (k - (n - 1) / 2) * sp; });
      });
      return o.edges.map(function (e, i) {
        var s = box[e.from], d = box[e.to], pts;
        if (kinds[i] === "across") {
          var uc = s.u + s.a / 2;
          pts = s.v < d.v ? [[uc, s.v + s.b], [uc, d.v]] : [[uc, s.v], [uc, d.v + d.b]];
        } else {
          var sv = mid(e.from), dv = port[i], l1 = gapAt(byId[e.from].n.layer + 1, "s:" + e.from);
          pts = [[s.u + s.a, sv], [l1, sv]];
          if (kinds[i] === "long") {
            var c = approach[i], l2 = gapAt(byId[e.to].n.layer, "d:" + e.to);
            pts.push([l1, c], [l2, c], [l2, dv]);
          } else pts.push([l1, dv]);
          pts.push([d.u, dv]);
        }
        return pts;
      });
    }
    // wires that share an end may run on top of each other (a bus): asked for every pair, every order
    var related = o.edges.map(function (e) { return o.edges.map(function (f) { return e.from === f.from || e.to === f.to; }); });
    function sameRoute(a, b) {
      if (a.length !== b.length) return false;
      for (var k = 0; k < a.length; k++) if (a[k][0] !== b[k][0] || a[k][1] !== b[k][1]) return false;
      return true;
    }
    function pairCounts(routes) {  // crossings of every pair of wires: [i][j]
      var m = routes.map(function () { return []; });
      for (var i = 0; i < routes.length; i++) {
        for (var j = i + 1; j < routes.length; j++) m[i][j] = m[j][i] = crossings(routes[i], routes[j], related[i][j]);
      }
      return m;
    }
    // each channel in turn keeps the lane order with the fewest crossings over the whole drawing
    // (ties keep the grid's order, so the result is fixed by the boxes); twice round, since a
    // channel's best order can change once its neighbours have moved. A new order moves only a few
    // wires, so a candidate's total is the current one plus what changes for the wires it moved
    // (the same count as recounting every pair, at a fraction of the cost: a channel has up to 720
    // orders to try)
    var cur = route(), counts = pairCounts(cur), best = 0;
    counts.forEach(function (row, i) { row.forEach(function (n, j) { if (j > i) best += n; }); });
    var improved = true;  // a second pass after one that moved nothing would try the same orders again
    for (var pass = 0; pass < 2 && best > 0 && improved; pass++) {
      improved = false;
      gapLanes.concat(trackLanes).forEach(function (lanes) {
        if (lanes.length < 2 || lanes.length > 6 || best === 0) return;
        var start = lanes.slice(), keep = start, keepRoutes = cur, base = best;
        permutations(start).forEach(function (order) {
          lanes.splice.apply(lanes, [0, lanes.length].concat(order));
          var next = route(), moved = [], still = [];
          next.forEach(function (r, i) { (sameRoute(r, cur[i]) ? still : moved).push(i); });
          var n = base;
          moved.forEach(function (i, a) {  // (a wire that did not move is cur's, whose extent is known)
            still.forEach(function (j) { n += crossings(next[i], cur[j], related[i][j]) - counts[i][j]; });
            moved.slice(a + 1).forEach(function (j) { n += crossings(next[i], next[j], related[i][j]) - counts[i][j]; });
          });
          if (n < best) { best = n; keep = order; keepRoutes = next; }
        });
        lanes.splice.apply(lanes, [0, lanes.length].concat(keep));
        if (keepRoutes !== cur) { cur = keepRoutes; counts = pairCounts(cur); improved = true; }
      });
    }
    var routes = route().map(function (pts) { return pts.map(function (p) { return right ? p : [p[1], p[0]]; }); });
    var boxes = {};
    Object.keys(box).forEach(function (id) {
      var b = box[id];
      boxes[id] = right ? { x: b.u, y: b.v, w: b.a, h: b.b } : { x: b.v, y: b.u, w: b.b, h: b.a };
    });
    var along = sum(G, L + 1) + sum(A, L), across = sum(K, T + 1) + sum(B, T);
    return { width: right ? along : across, height: right ? across : along, boxes: boxes, routes: routes, crossings: best };
  }

  /* orthogonal polyline → path with corners rounded by up to `radius` (never more than half a leg) */
  W.lanes.path = function (pts, radius) {
    var clean = pts.filter(function (p, i) { return !i || Math.abs(p[0] - pts[i - 1][0]) + Math.abs(p[1] - pts[i - 1][1]) > 0.01; });
    function f(v) { return Math.round(v * 10) / 10; }
    var d = "M" + f(clean[0][0]) + "," + f(clean[0][1]);
    for (var i = 1; i < clean.length - 1; i++) {
      var p = clean[i - 1], q = clean[i], n = clean[i + 1];
      var l1 = Math.abs(q[0] - p[0]) + Math.abs(q[1] - p[1]), l2 = Math.abs(n[0] - q[0]) + Math.abs(n[1] - q[1]);
      var r = Math.min(radius, l1 / 2, l2 / 2);
      var ax = q[0] - Math.sign(q[0] - p[0]) * r, ay = q[1] - Math.sign(q[1] - p[1]) * r;
      var bx = q[0] + Math.sign(n[0] - q[0]) * r, by = q[1] + Math.sign(n[1] - q[1]) * r;
      d += " L" + f(ax) + "," + f(ay) + " Q" + f(q[0]) + "," + f(q[1]) + " " + f(bx) + "," + f(by);
    }
    var last = clean[clean.length - 1];
    return d + " L" + f(last[0]) + "," + f(last[1]);
  };
})();
