/* FIG 08 · KDA module pathways. Left/top: one chunk of C tokens through a KDA layer drawn as
 * nodes and edges in three coloured pathways (intra-chunk attention, inter-chunk state, gates)
 * plus the layer's projections and norms. Chips toggle (Shift: isolate) a pathway; the canvas pans
 * by drag/arrow keys and zooms by Ctrl+wheel, ± buttons or keys (K3W.camera); research mode shows
 * each node's shape and the equation it computes (KaTeX, rendered at build time). Below: the same
 * seeded tokens through one scalar gate and through per-channel gates (kernel states shipped as data). */
(function () {
  "use strict";
  /* the view in the URL as it always was: zoom to 2 decimals, the centre in whole canvas pixels */
  function shown(type, digits) { type.format = function (v) { return v.toFixed(digits); }; return type; }

  K3.register("fig-08-kda-pathways", {
    state: function (data) {
      var D = data.diagram;
      return {
        off: K3.state.subset(D.pathways.map(function (p) { return p.id; }), []),
        z: shown(K3.state.num(data.zoom.min, data.zoom.max, 1), 2),
        x: shown(K3.state.num(0, D.width, D.width / 2), 0),
        y: shown(K3.state.num(0, D.height, D.height / 2), 0),
        research: K3.state.bool(false),
        equal: K3.state.bool(false),
      };
    },
    setup: function (mount, data, ctx) {
      var W = window.K3W, el = W.el;
      var D = data.diagram, demo = data.demo;
      var PATHS = D.pathways.map(function (p) { return p.id; });
      function has(list, p) { return list.indexOf(p) >= 0; }

      /* ---------- toolbar ---------- */
      var chips = D.pathways.map(function (p) {
        return el("button", { type: "button", class: "k3-btn f08-chip", "data-chip": p.id, "aria-pressed": "true",
          title: "Toggle; Shift-click or Shift+Enter shows only this pathway",
          on: { click: function (e) {
            var off = ctx.get().off;
            ctx.set({ off: e.shiftKey ? PATHS.filter(function (q) { return q !== p.id; })
              : has(off, p.id) ? off.filter(function (q) { return q !== p.id; }) : off.concat([p.id]) }, "click");
          } } },
          el("span", { class: "f08-swatch", "data-path": p.id, "aria-hidden": "true" }), p.label);
      });
      var chipGroup = el("div", { class: "f08-chips", role: "group", "aria-label": "Pathways" });
      chips.forEach(function (c) { chipGroup.appendChild(c); });
      chipGroup.appendChild(el("button", { type: "button", class: "k3-btn f08-all", text: "Show all",
        on: { click: function () { ctx.set({ off: [] }, "click"); } } }));
      var researchSwitch = el("button", { type: "button", class: "k3-btn f08-research", role: "switch", "aria-checked": "false",
        text: "Research mode", on: { click: function () { ctx.set({ research: !ctx.get().research }, "click"); } } });

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
        var node = el("div", { class: "f08-node", "data-node": n.id, "data-path": n.path, "data-sym": sym,
          tabindex: sym ? "0" : null, role: sym ? "group" : null, "aria-label": sym ? n.label : null,
          style: "left:" + n.x + "px;top:" + n.y + "px;width:" + n.w + "px" },
          el("span", { class: "f08-node-label", text: n.label }),
          el("span", { class: "f08-shape k3-num", text: n.shape }),
          W.html(el("div", { class: "f08-eq" }), n.eq_html));  // rendered by the build's KaTeX pass
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
      var camera = W.camera({ viewport: viewport, canvas: canvas, width: D.width, height: D.height, zoom: data.zoom,
        legible: { below: 600, scale: 0.62 }, cls: "f08",  // phones: start legible, pan to see the rest
        onView: function (v, how) { ctx.set({ z: v.z, x: v.cx, y: v.cy }, how); }, onEnd: ctx.end });
      var cam = camera.buttons;

      /* ---------- demo ---------- */
      var cols = W.range(demo.d_v, function (j) { return "v" + (j + 1); });
      var rows = W.range(demo.d_k, function (i) { return "k" + (i + 1); });
      var mGdn = W.matrix({ caption: "S, Gated DeltaNet (one α)", rows: rows, cols: cols, digits: 3, sym: "kda-state" });
      var mKda = W.matrix({ caption: "S, KDA (α per channel)", rows: rows, cols: cols, digits: 3, sym: "kda-state" });
      mGdn.node.classList.add("f08-s-gdn");
      mKda.node.classList.add("f08-s-kda");
      var gates = el("div", { class: "f08-gates", "data-sym": "kda-alpha" });
      var equalSwitch = el("button", { type: "button", class: "k3-btn f08-equal", role: "switch", "aria-checked": "false",
        text: "Equal channel gates", on: { click: function () { ctx.set({ equal: !ctx.get().equal }, "click"); } } });
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
          el("div", { class: "k3-row f08-zoom", role: "group", "aria-label": "Zoom" }, cam.zoomOut, cam.level, cam.zoomIn, cam.fit, researchSwitch)),
        el("div", { class: "f08-body" }, viewport, demoBox)));
      ctx.on(window, "resize", camera.refresh);

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
      function paintPaths(off) {
        chips.forEach(function (c) { c.setAttribute("aria-pressed", has(off, c.dataset.chip) ? "false" : "true"); });
        nodes.concat(edges.map(function (e) { return e.node; })).forEach(function (n) {
          var hidden = has(off, n.getAttribute("data-path"));
          n.classList.toggle("is-off", hidden);
          if (hidden) n.setAttribute("aria-hidden", "true"); else if (n.tagName !== "path") n.removeAttribute("aria-hidden");
          if (n.hasAttribute("data-sym")) n.tabIndex = hidden ? -1 : 0;
        });
      }
      function paintDemo(equal) {
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

      /* ---------- what a change says ---------- */
      function pathName(p) { return D.pathways.filter(function (x) { return x.id === p; })[0].label; }
      function countOf(p) {
        return D.nodes.filter(function (n) { return n.path === p; }).length + " nodes and " +
          D.edges.filter(function (e) { return e.path === p; }).length + " edges";
      }
      function describePaths(prev, next) {
        var changed = PATHS.filter(function (p) { return has(prev, p) !== has(next, p); });
        var on = PATHS.filter(function (p) { return !has(next, p); });
        if (changed.length === 1) return pathName(changed[0]) + (has(next, changed[0]) ? " hidden" : " shown") + ": " + countOf(changed[0]) + ".";
        if (on.length === 1) return "Only " + pathName(on[0]) + ": " + countOf(on[0]) + ".";
        return next.length ? null : "Showing every pathway.";
      }
      function describeView(prev, next, how) {
        var home = camera.home;
        if (next.z === home.z && next.x === home.cx && next.y === home.cy) return "View reset.";
        if (next.z !== prev.z) return "Zoom " + Math.round(next.z * 100) + "%.";
        if (how !== "key") return "Panned the diagram.";
        return "Panned " + (next.x > prev.x ? "right" : next.x < prev.x ? "left" : next.y > prev.y ? "down" : "up") + ".";
      }

      return {
        render: function (s, prev) {
          if (!prev || String(prev.off) !== String(s.off)) paintPaths(s.off);
          if (!prev || prev.research !== s.research) {
            researchSwitch.setAttribute("aria-checked", s.research ? "true" : "false");
            canvas.classList.toggle("is-research", s.research);
            drawEdges();
          }
          if (!prev || prev.equal !== s.equal) paintDemo(s.equal);
          camera.show({ z: s.z, cx: s.x, cy: s.y });
        },
        describe: function (prev, next, how) {
          if (String(prev.off) !== String(next.off)) return describePaths(prev.off, next.off);
          if (prev.research !== next.research) {
            return next.research ? "Research mode on: every node shows its tensor shape and the equation it computes." : "Research mode off.";
          }
          if (prev.equal !== next.equal) {
            return next.equal ? "All channel gates set to " + W.fmt(demo.alpha_scalar, 2) + ": KDA's state equals Gated DeltaNet's, largest difference " + W.fmt(demo.diff_equal, 3) + "."
              : "Per-channel gates " + demo.alpha_channels.map(function (a) { return W.fmt(a, 2); }).join(", ") +
                ": the states differ by up to " + W.fmt(demo.diff_channels, 3) + ".";
          }
          return describeView(prev, next, how);
        },
        destroy: camera.destroy,
      };
    },
  });
})();
