/* FIG 08 · KDA module pathways. Top: one chunk of C tokens through a KDA layer drawn as nodes in
 * four pathways (per-channel gates, intra-chunk attention, inter-chunk state, projections and norms),
 * edges routed in lanes between the boxes (K3W.lanes) on a left-to-right grid, or a top-to-bottom
 * one when the figure is narrow (both grids come from the builder). A stepper walks the pathways one
 * at a time and says what each does (K3W.f08Story, story.js); chips hide (Shift: isolate) a
 * pathway; the diagram fits the width and pans/zooms (K3W.camera, camera.js); research mode shows
 * each node's shape and the equation it computes (MathML, rendered at build time). Below: the same
 * seeded tokens through one scalar gate and through per-channel gates (kernel states shipped as
 * data; K3W.kdaGateDemo, gate-demo.js). Every sentence is the builder's (data.text, the pathways'
 * and the demo's texts): this places them. */
(function () {
  "use strict";
  /* the URL keeps zoom to 2 decimals and the centre as a fraction of the canvas (4 decimals: a tenth of a pixel), so a
   * view survives the switch between the wide and the tall grid */
  function shown(type, digits) { type.format = function (v) { return v.toFixed(digits); }; return type; }

  K3.register("fig-08-kda-pathways", {
    state: function (data) {
      var D = data.diagram;
      return {
        step: K3.state.int(0, D.pathways.length, 0),
        off: K3.state.subset(D.pathways.map(function (p) { return p.id; }), []),
        z: shown(K3.state.num(data.zoom.min, data.zoom.max, 1), 2),
        x: shown(K3.state.num(0, 1, 0.5), 4),
        y: shown(K3.state.num(0, 1, 0.5), 4),
        research: K3.state.bool(false),
        equal: K3.state.bool(false),
      };
    },
    setup: function (mount, data, ctx) {
      var W = window.K3W, el = W.el;
      var D = data.diagram, P = D.pathways, NS = "svg:";
      var PATHS = P.map(function (p) { return p.id; });
      function has(list, p) { return list.indexOf(p) >= 0; }

      /* ---------- toolbar: stepper over pathways, chips, zoom, research ---------- */
      function stepLabel(i) { return ctx.text(["text", "step_label", i]); }
      var stepper = W.stepper({
        label: ctx.text(["text", "stepper"]), count: P.length + 1, value: ctx.get().step, format: stepLabel,
        onChange: function (i, how) { ctx.set({ step: i }, how); },
      });
      stepper.node.classList.add("f08-stepper");
      // the readout is as wide as its longest label (monospace), so ▶ stays put while stepping
      stepper.node.style.setProperty("--widest", Math.max.apply(null, W.range(P.length + 1, function (i) { return stepLabel(i).length; })) + "ch");
      var player = W.player({ ctx: ctx, what: ctx.text(["text", "walk"]), last: P.length,
        at: function () { return ctx.get().step; }, go: function (i) { ctx.set({ step: i }, "play"); } });
      stepper.node.appendChild(player.node);
      var chips = P.map(function (p) {
        return el("button", { type: "button", class: "k3-btn f08-chip", "data-chip": p.id, "aria-pressed": "true",
          title: ctx.text(["text", "chip_title"]),
          on: { click: function (e) {
            var off = ctx.get().off;
            ctx.set({ off: e.shiftKey ? PATHS.filter(function (q) { return q !== p.id; })
              : has(off, p.id) ? off.filter(function (q) { return q !== p.id; }) : off.concat([p.id]) }, "click");
          } } },
          el("span", { class: "f08-swatch", "data-path": p.id, "aria-hidden": "true" }), p.label);
      });
      var chipGroup = el("div", { class: "f08-chips", role: "group", "aria-label": "Pathways shown" });
      chips.forEach(function (c) { chipGroup.appendChild(c); });
      chipGroup.appendChild(el("button", { type: "button", class: "k3-btn f08-all", text: "Show all",
        on: { click: function () { ctx.set({ off: [] }, "click"); } } }));
      var researchSwitch = el("button", { type: "button", class: "k3-btn f08-research", role: "switch", "aria-checked": "false",
        text: "Research mode", on: { click: function () { ctx.set({ research: !ctx.get().research }, "click"); } } });

      /* ---------- diagram: boxes and edges; the lanes place them ---------- */
      var svg = el(NS + "svg", { class: "f08-edges", "aria-hidden": "true" });
      var defs = svg.appendChild(el(NS + "defs"));
      PATHS.forEach(function (p) {
        // a fixed 10 px head (not scaled by the stroke, so a lit wire's head is no bigger): the lanes
        // space the wires into one box at least LAYOUTS.port apart, so heads never touch
        defs.appendChild(el(NS + "marker", { id: ctx.id + "-arrow-" + p, viewBox: "0 0 10 10", refX: 9, refY: 5,
          markerUnits: "userSpaceOnUse", markerWidth: 10, markerHeight: 10, orient: "auto-start-reverse" },
          el(NS + "path", { d: "M0,0 L10,5 L0,10 z", class: "f08-arrowhead", "data-path": p })));
      });
      var SYM = { sin: "kda-state", sout: "kda-state", gate: "kda-alpha", beta: "kda-beta" };
      function shape(i, lead) {  // node i's tensor shapes, in pieces that wrap between tensors, never inside brackets
        var parts = D.nodes[i].shape_parts, out = el("span", { class: "f08-shape k3-num" }, lead || "");
        parts.forEach(function (_, j) {
          out.append(ctx.show(el("span", { class: "f08-dim" }), ["diagram", "nodes", i, "shape_parts", j]), j < parts.length - 1 ? " " : "");
        });
        return out;
      }
      function equation(node, i) { return ctx.show(node, ["diagram", "nodes", i, "eq_html"]); }  // rendered by the build's math pass
      var nodes = D.nodes.map(function (n, i) {
        var sym = SYM[n.id];
        return el("div", { class: "f08-node", "data-node": n.id, "data-path": n.path, "data-sym": sym,
          tabindex: sym ? "0" : null, role: sym ? "group" : null, "aria-label": sym ? n.label : null },
          ctx.show(el("span", { class: "f08-node-label" }), ["diagram", "nodes", i, "label"]),
          shape(i),
          equation(el("div", { class: "f08-eq" }), i));
      });
      var edges = D.edges.map(function (e) {
        return svg.appendChild(el(NS + "path", { class: "f08-edge", "data-path": e.path, "data-edge": e.from + "-" + e.to,
          "marker-end": "url(#" + ctx.id + "-arrow-" + e.path + ")" }));
      });
      var canvas = el("div", { class: "f08-canvas" }, svg);
      nodes.forEach(function (n) { canvas.appendChild(n); });
      var viewport = el("div", { class: "f08-viewport", tabindex: "0", role: "group",
        "aria-roledescription": "pannable diagram",
        "aria-label": ctx.text(["text", "viewport"]) },
        canvas);
      var size = { width: 1, height: 1 };
      var zoomLevel = function (z) { return ["text", "zoom_level", Math.round(z * 100) - data.text.zoom_level_from]; };
      var camera = W.camera({ viewport: viewport, canvas: canvas, width: 1, height: 1, zoom: data.zoom, cls: "f08",
        labels: { zoomOut: ctx.text(["text", "zoom_out"]), zoomIn: ctx.text(["text", "zoom_in"]), fit: ctx.text(["text", "fit"]) },
        showLevel: function (node, z) { ctx.show(node, zoomLevel(z)); },
        onView: function (v, how) { ctx.set({ z: v.z, x: v.cx / size.width, y: v.cy / size.height }, how); },
        onEnd: ctx.end });
      var cam = camera.buttons;

      /* ---------- what the current step says, on the page (the live region says it too) ---------- */
      var words = W.f08Story(D, ctx);
      var eqList = el("dl", { class: "f08-eqs" });
      var story = el("div", { class: "f08-story" }, words.node, eqList);
      var demo = W.kdaGateDemo(data, ctx);

      var root = el("div", { class: "f08" },
        el("div", { class: "f08-toolbar" }, stepper.node, chipGroup,
          el("div", { class: "k3-row f08-zoom", role: "group", "aria-label": "Zoom and detail" },
            cam.zoomOut, cam.level, cam.zoomIn, cam.fit, researchSwitch)),
        el("div", { class: "f08-body" }, viewport, story, demo.node));
      mount.appendChild(root);

      /* ---------- drawing ---------- */
      var laidOut = null;
      function layoutName() {
        return mount.clientWidth >= D.layouts.wide.min_width ? "wide" : "tall";
      }
      function layout(research) {
        var name = layoutName(), spec = D.layouts[name], key = name + research;
        if (key === laidOut) return false;
        laidOut = key;
        root.setAttribute("data-layout", name);
        nodes.forEach(function (n) { n.style.width = spec.node_w + "px"; n.style.height = ""; });
        if (research && spec.node_w_research > spec.node_w) fitEquations(name, spec);
        // every box measured before any is moved: a size read after a write lays the diagram out
        // again (a switch to research mode forced 25 layouts, one per box read, instead of 6)
        var sizes = nodes.map(function (box) { return { w: box.offsetWidth, h: box.offsetHeight }; });
        var g = W.lanes({
          flow: spec.flow, tracks: spec.tracks, gap: spec.gap, lane: spec.lane, port: spec.port, margin: 10,
          nodes: D.nodes.map(function (n, i) {
            return { id: n.id, layer: n.grid[name][0], track: n.grid[name][1], w: sizes[i].w, h: sizes[i].h };
          }),
          edges: D.edges.map(function (e) { return { from: e.from, to: e.to, via: e.via[name] }; }),
        });
        D.nodes.forEach(function (n, i) {  // a box with several wires in may come back taller
          var b = g.boxes[n.id];
          nodes[i].style.left = b.x + "px";
          nodes[i].style.top = b.y + "px";
          if (b.w > sizes[i].w + 0.5) nodes[i].style.width = b.w + "px";
          if (b.h > sizes[i].h + 0.5) nodes[i].style.height = b.h + "px";
        });
        edges.forEach(function (p, i) { p.setAttribute("d", W.lanes.path(g.routes[i], 6)); });
        size = { width: Math.ceil(g.width), height: Math.ceil(g.height) };
        canvas.style.width = size.width + "px";
        canvas.style.height = size.height + "px";
        svg.setAttribute("width", size.width);
        svg.setAttribute("height", size.height);
        camera.size(size.width, size.height);
        return true;
      }
      /* research mode: each layer (column) only as wide as its widest unbreakable piece (an equation
       * piece or a tensor shape) needs, between node_w and node_w_research, so the canvas stays narrow
       * enough that its equations read at Fit */
      function fitEquations(name, spec) {
        var need = {};
        D.nodes.forEach(function (n, i) {
          var box = nodes[i], s = box.getBoundingClientRect().width / box.offsetWidth, cs = getComputedStyle(box);
          var pad = box.offsetWidth - box.clientWidth + parseFloat(cs.paddingLeft) + parseFloat(cs.paddingRight);
          var widest = 0;
          box.querySelectorAll(".f08-eq math, .f08-dim").forEach(function (m) { widest = Math.max(widest, m.getBoundingClientRect().width / s); });
          var l = n.grid[name][0], w = s > 0 ? Math.ceil(widest + pad + 1) : spec.node_w_research;
          need[l] = Math.max(need[l] || spec.node_w, Math.min(spec.node_w_research, w));
        });
        D.nodes.forEach(function (n, i) { nodes[i].style.width = need[n.grid[name][0]] + "px"; });
      }
      function view(s) { camera.show({ z: s.z, cx: s.x * size.width, cy: s.y * size.height }); }
      ctx.on(window, "resize", function () { layout(ctx.get().research); view(ctx.get()); });

      function paintPaths(off) {
        chips.forEach(function (c) { c.setAttribute("aria-pressed", has(off, c.dataset.chip) ? "false" : "true"); });
        nodes.concat(edges).forEach(function (n) {
          var hidden = has(off, n.getAttribute("data-path"));
          n.classList.toggle("is-off", hidden);
          if (hidden) n.setAttribute("aria-hidden", "true"); else if (n.tagName !== "path") n.removeAttribute("aria-hidden");
          if (n.hasAttribute("data-sym")) n.tabIndex = hidden ? -1 : 0;
        });
      }
      /* a step lights one pathway: its nodes and edges, and (fainter) the nodes its edges touch */
      function paintStep(step, research) {
        var p = step ? P[step - 1].id : null;
        var touched = {};
        D.edges.forEach(function (e) { if (e.path === p) { touched[e.from] = true; touched[e.to] = true; } });
        D.nodes.forEach(function (n, i) {
          nodes[i].classList.toggle("is-lit", !!p && n.path === p);
          nodes[i].classList.toggle("is-context", !!p && n.path !== p && !!touched[n.id]);
          nodes[i].classList.toggle("is-dim", !!p && n.path !== p && !touched[n.id]);
        });
        D.edges.forEach(function (e, i) {
          edges[i].classList.toggle("is-lit", !!p && e.path === p);
          edges[i].classList.toggle("is-dim", !!p && e.path !== p);
        });
        words.show(step);
        eqList.textContent = "";
        if (!research) return;
        D.nodes.forEach(function (n, i) {
          if (p && n.path !== p) return;
          eqList.append(el("dt", { "data-path": n.path }, ctx.show(el("span"), ["diagram", "nodes", i, "label"]), shape(i, " ")),
            equation(el("dd", { class: "f08-eq" }), i));
        });
      }

      /* ---------- what a change says (pathway words: the story widget) ---------- */
      function describeView(prev, next, how) {
        var view = ["text", "view"];
        if (next.z === 1 && next.x === 0.5 && next.y === 0.5) return { path: view.concat("fitted") };
        if (next.z !== prev.z) return { path: view.concat("zoom"), slots: { level: zoomLevel(next.z) } };
        if (how !== "key") return { path: view.concat("panned") };
        return { path: view.concat("panned_" + (next.x > prev.x ? "right" : next.x < prev.x ? "left" : next.y > prev.y ? "down" : "up")) };
      }

      return {
        render: function (s, prev, how) {
          if (!prev || String(prev.off) !== String(s.off)) paintPaths(s.off);
          if (!prev || prev.research !== s.research) {
            researchSwitch.setAttribute("aria-checked", s.research ? "true" : "false");
            root.classList.toggle("is-research", s.research);
            layout(s.research);
          }
          if (!prev || prev.step !== s.step || prev.research !== s.research) {
            if (how === "restore") player.stop();
            stepper.set(s.step);
            paintStep(s.step, s.research);
          }
          if (!prev || prev.equal !== s.equal) demo.paint(s.equal);
          view(s);
        },
        describe: function (prev, next, how) {
          if (prev.step !== next.step) return words.describeStep(next.step);
          if (String(prev.off) !== String(next.off)) return words.describePaths(prev.off, next.off);
          if (prev.research !== next.research) return { path: ["text", next.research ? "research_on" : "research_off"] };
          if (prev.equal !== next.equal) return demo.describe(next.equal);
          return describeView(prev, next, how);
        },
        pause: player.pause, resume: player.resume,
        destroy: function () { player.stop(); camera.destroy(); },
      };
    },
  });
})();
