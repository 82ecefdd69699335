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
 *
 * K3W.lanes({flow: "right"|"down", tracks, nodes: [{id, layer, track, w, h}], edges: [{from, to,
 *   via}], gap, lane, margin}) → {width, height, boxes: {id: {x, y, w, h}}, routes: [[[x, y], …]]}
 * K3W.lanes.path(points, radius) → an SVG path "d" with rounded corners
 */
(function () {
  "use strict";
  var W = window.K3W;
  function sum(list, n) { var s = 0; for (var i = 0; i < n; i++) s += list[i]; return s; }
  function fill(n, v) { var a = []; for (var i = 0; i < n; i++) a.push(v); return a; }

  W.lanes = function (o) {
    var right = o.flow === "right", gap = o.gap || 24, step = o.lane || 8, margin = o.margin || 8;
    var byId = {};
    o.nodes.forEach(function (n) {  // a = size along the flow, b = across it
      byId[n.id] = { n: n, a: right ? n.w : n.h, b: right ? n.h : n.w };
    });
    var L = 1 + Math.max.apply(null, o.nodes.map(function (n) { return n.layer; })), T = o.tracks;
    var A = fill(L, 0), B = fill(T, 0);
    o.nodes.forEach(function (n) {
      var m = byId[n.id];
      A[n.layer] = Math.max(A[n.layer], m.a);
      B[n.track] = Math.max(B[n.track], m.b);
    });
    // lanes: gapLanes[l] lie before layer l, trackLanes[t] before track t; keys are sorted so the
    // order is fixed by the grid, not by the order the edges are listed in
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
    // entry ports: a target's incoming edges spread over its upstream face, in the order they arrive
    var approach = o.edges.map(function (e, i) {
      return kinds[i] === "next" ? mid(e.from) : kinds[i] === "long" ? trackAt(e.via, "k:" + e.from) : null;
    });
    var port = {};
    Object.keys(byId).forEach(function (id) {
      var ins = o.edges.map(function (e, i) { return i; }).filter(function (i) { return approach[i] !== null && o.edges[i].to === id; });
      ins.sort(function (i, j) { return approach[i] - approach[j] || i - j; });
      ins.forEach(function (i, k) { port[i] = box[id].v + box[id].b * (k + 1) / (ins.length + 1); });
    });
    var routes = o.edges.map(function (e, i) {
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
      return pts.map(function (p) { return right ? p : [p[1], p[0]]; });
    });
    var boxes = {};
    Object.keys(box).forEach(function (id) {
      var b = box[id];
      boxes[id] = right ? { x: b.u, y: b.v, w: b.a, h: b.b } : { x: b.v, y: b.u, w: b.b, h: b.a };
    });
    var along = sum(G, L + 1) + sum(A, L), across = sum(K, T + 1) + sum(B, T);
    return { width: right ? along : across, height: right ? across : along, boxes: boxes, routes: routes };
  };

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
