/* FIG 14 · The evolution map: the chain of steps from GPT-2 to K3 (node list from the spec, years
 * from the facts file), an SVG overview coloured by the wall that forced each step, and nodes that
 * expand in place into wall, fix and price with a link to their section. A wall filter marks the
 * steps that answer one wall (and K3, which meets all four). The chain follows the argument, not the calendar; the years say so.
 * Every text it shows is the builder's (the spec's node texts, and the sentences in data.text and
 * on each node and wall). */
(function () {
  "use strict";
  K3.register("fig-14-evolution-map", {
    state: function (data) {
      return {
        open: K3.state.subset(data.nodes.map(function (nd) { return nd.id; }), []),
        wall: K3.state.oneOf(["any"].concat(data.walls.map(function (w) { return w.id; })), "any"),
      };
    },
    setup: function (mount, data, ctx) {
      var W = window.K3W, el = W.el;
      var nodes = data.nodes, N = nodes.length;
      var allIds = nodes.map(function (nd) { return nd.id; });
      var wallLabel = {}, wallTag = {}, wallIndex = {};
      Object.keys(data.kinds).forEach(function (k) { wallLabel[k] = data.kinds[k].label; wallTag[k] = data.kinds[k].tag; });
      data.walls.forEach(function (w, j) { wallIndex[w.id] = j; });
      var bulk = false;  // the action under way is "Expand all" / "Collapse all"

      function isOpen(id) { return ctx.get().open.indexOf(id) >= 0; }
      function setOpen(ids, how) { ctx.set({ open: ids }, how); }
      /* the final step gathers all four walls, so every wall marks it; the start and recomputation name none */
      function matches(nd, wall) { return wall === "any" || nd.wall === wall || nd.wall === "all"; }

      /* ---- the SVG overview: one dot per step along a line, coloured by wall ---- */
      var VW = 720, VH = 78, pad = 26, cy = 36, step = (VW - 2 * pad) / (N - 1);
      var svg = el("svg:svg", { class: "f14-overview", viewBox: "0 0 " + VW + " " + VH, "aria-hidden": "true" },
        el("svg:line", { class: "f14-rail", x1: pad, x2: VW - pad, y1: cy, y2: cy }));
      var dots = nodes.map(function (nd, i) {
        var g = el("svg:g", { class: "f14-dot f14-w-" + nd.wall, transform: "translate(" + (pad + i * step) + "," + cy + ")", "data-i": i },
          ctx.show(el("svg:title"), ["nodes", i, "dot_title"]),
          // the whole column around a dot takes the tap: a dot alone is under 24 px wide on a phone
          el("svg:rect", { class: "f14-hit", x: -step / 2, y: -cy, width: step, height: VH }),
          el("svg:text", { class: "f14-year", y: -20, "text-anchor": "middle", text: String(nd.year) }),
          el("svg:circle", { r: 13 }),
          el("svg:text", { class: "f14-num", "text-anchor": "middle", "dominant-baseline": "central", text: String(i + 1) }),
          el("svg:text", { class: "f14-wall-tag", y: 34, "text-anchor": "middle", text: wallTag[nd.wall] }));
        g.addEventListener("click", function () {  // a dot opens its step (never closes it) and moves focus there
          if (!isOpen(nd.id)) setOpen(ctx.get().open.concat([nd.id]), "click");
          disc.items[nd.id].btn.focus();
        });
        g.addEventListener("pointerenter", function () { hover(i); });
        g.addEventListener("pointerleave", function () { hover(-1); });
        return svg.appendChild(g);
      });

      /* ---- the nodes themselves, expanding in place ---- */
      var disc = W.disclosures({
        label: ctx.text(["text", "steps_label"]),
        items: nodes.map(function (nd, i) {
          return {
            id: nd.id,
            head: el("span", { class: "f14-head" },
              el("span", { class: "f14-badge f14-w-" + nd.wall, "aria-hidden": "true", text: String(i + 1) }),
              el("span", { class: "f14-title", text: nd.title }),
              el("span", { class: "f14-year-chip" }, el("span", { class: "visually-hidden", text: ", " }), String(nd.year)),
              el("span", { class: "f14-chip f14-w-" + nd.wall }, el("span", { class: "visually-hidden", text: ", wall: " }), wallLabel[nd.wall])),
            body: el("div", { class: "f14-body" },
              ctx.show(el("p", { class: "f14-when" }), ["nodes", i, "when"]),
              el("dl", { class: "f14-dl" },
                part("Wall", nd.wall_html), part("Fix", nd.fix_html), part("Price", nd.price_html)),
              W.sectionLink(el("p", { class: "f14-link" }), nd.link_html, nd.section, "Read §")),
          };
        }),
        onToggle: function (ids, id, how) { setOpen(ids, how); },
      });
      function part(name, html) {
        return el("div", { class: "f14-part" }, el("dt", { text: name }), W.html(el("dd"), html));
      }
      nodes.forEach(function (nd, i) {
        var li = disc.items[nd.id].li;
        li.classList.add("f14-w-" + nd.wall);
        li.addEventListener("pointerenter", function () { hover(i); });
        li.addEventListener("pointerleave", function () { hover(-1); });
      });

      var filter = W.choice({
        label: ctx.text(["text", "filter_label"]),
        options: [{ value: "any", text: "All walls" }].concat(data.walls.map(function (w, j) {
          return { value: w.id, text: ctx.text(["walls", j, "option"]), aria: ctx.text(["walls", j, "option_label"]) };
        })),
        value: ctx.get().wall,
        onChange: function (v, how) { ctx.set({ wall: v }, how); },
      });
      var allBtn = el("button", { type: "button", class: "k3-btn", on: { click: function () {
        bulk = true;
        try { setOpen(ctx.get().open.length === N ? [] : allIds, "click"); } finally { bulk = false; }
      } } });

      mount.appendChild(el("div", { class: "f14" },
        el("div", { class: "f14-controls" }, el("span", { class: "k3-label", text: "Wall" }), filter.node, allBtn),
        W.html(el("p", { class: "f14-note" }), data.note_html),
        svg, disc.node));

      function hover(i) { dots.forEach(function (d, j) { d.classList.toggle("is-hot", i === j); }); }

      /* the narration: a wall chosen says which steps answer it; one step opened or closed names it,
       * then how many are open; "Expand all" and "Collapse all" (or several at once) say how many */
      function openSaid(prev, next) {
        var changed = allIds.filter(function (id) { return (prev.indexOf(id) >= 0) !== (next.indexOf(id) >= 0); });
        if (bulk || changed.length !== 1) return { then: ["open_steps_text", next.length] };
        var i = allIds.indexOf(changed[0]);
        return { step: ["nodes", i, next.indexOf(changed[0]) >= 0 ? "said_expanded" : "said_collapsed"],
          open: ["open_text", next.length] };
      }
      function wallSaid(wall) { return wall === "any" ? ["text", "all_walls_said"] : ["walls", wallIndex[wall], "said"]; }

      return {
        render: function (s, prev) {  // writes only what changed (class toggles to the same value are no-ops)
          disc.set(s.open);
          if (!prev || prev.wall !== s.wall) filter.set(s.wall);
          nodes.forEach(function (nd, i) {
            var on = matches(nd, s.wall);
            disc.items[nd.id].li.classList.toggle("is-dim", !on);
            dots[i].classList.toggle("is-dim", !on);
            dots[i].classList.toggle("is-open", s.open.indexOf(nd.id) >= 0);
          });
          W.text(allBtn, s.open.length === N ? "Collapse all" : "Expand all");
        },
        describe: function (prev, next) {
          var wall = prev.wall !== next.wall ? wallSaid(next.wall) : null;
          var open = prev.open.join() !== next.open.join() ? openSaid(prev.open, next.open) : null;
          if (!open) return wall ? { path: wall } : null;
          if (open.then) return wall ? { path: ["text", "said_wall_and"], slots: { wall: wall, then: open.then } } : { path: open.then };
          if (wall) return { path: ["text", "said_wall_and_step"], slots: { wall: wall, step: open.step, open: open.open } };
          return { path: ["text", "said_step"], slots: open };
        },
      };
    },
  });
})();
