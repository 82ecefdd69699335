/* FIG 14 · The evolution map: the chain of steps from GPT-2 to K3 (node list from the spec, years
 * from the facts file), an SVG overview coloured by the wall each step hit, and nodes that expand in
 * place into wall, fix and price with a link to their section. A wall filter marks the steps that
 * hit one wall. The chain follows the argument, not the calendar; the years say so. */
K3.register("fig-14-evolution-map", function (mount, data, ctx) {
  "use strict";
  var W = window.K3W, el = W.el;
  var nodes = data.nodes, N = nodes.length;
  var byId = {};
  nodes.forEach(function (nd, i) { byId[nd.id] = i; });
  var wallLabel = {}, wallTag = {};
  Object.keys(data.kinds).forEach(function (k) { wallLabel[k] = data.kinds[k].label; wallTag[k] = data.kinds[k].tag; });

  var st = ctx.state.get();
  var wall = validWall(st.wall) ? st.wall : "any";

  function validWall(w) { return w === "any" || data.walls.some(function (x) { return x.id === w; }); }
  function openFrom(s) { return (s.open || "").split(",").filter(function (id) { return id in byId; }); }
  function sectionTitle(id) {  // "06 · DeltaNet — …" from the page's own heading
    var h = document.querySelector("#" + CSS.escape(id) + " h2");
    return h ? h.textContent.trim() : id;
  }
  /* the final step gathers all four walls, so every wall marks it; the start and recomputation name none */
  function matches(nd) { return wall === "any" || nd.wall === wall || nd.wall === "all"; }

  /* ---- the SVG overview: one dot per step along a line, coloured by wall ---- */
  var VW = 720, VH = 78, pad = 26, cy = 36, step = (VW - 2 * pad) / (N - 1);
  var svg = el("svg:svg", { class: "f14-overview", viewBox: "0 0 " + VW + " " + VH, "aria-hidden": "true" },
    el("svg:line", { class: "f14-rail", x1: pad, x2: VW - pad, y1: cy, y2: cy }));
  var dots = nodes.map(function (nd, i) {
    var g = el("svg:g", { class: "f14-dot f14-w-" + nd.wall, transform: "translate(" + (pad + i * step) + "," + cy + ")", "data-i": i },
      el("svg:title", { text: (i + 1) + " · " + nd.title + ", " + nd.year + " (" + wallLabel[nd.wall] + ")" }),
      el("svg:text", { class: "f14-year", y: -20, "text-anchor": "middle", text: String(nd.year) }),
      el("svg:circle", { r: 13 }),
      el("svg:text", { class: "f14-num", y: 4.5, "text-anchor": "middle", text: String(i + 1) }),
      el("svg:text", { class: "f14-wall-tag", y: 34, "text-anchor": "middle", text: wallTag[nd.wall] }));
    g.addEventListener("click", function () { toggle(nd.id, true, "click"); disc.items[nd.id].btn.focus(); });
    g.addEventListener("pointerenter", function () { hover(i); });
    g.addEventListener("pointerleave", function () { hover(-1); });
    return svg.appendChild(g);
  });

  /* ---- the nodes themselves, expanding in place ---- */
  var disc = W.disclosures({
    label: "Steps from GPT-2 to Kimi K3",
    open: openFrom(st),
    items: nodes.map(function (nd, i) {
      var link = W.html(el("p", { class: "f14-link" }), nd.link_html);
      var a = link.querySelector("a");
      if (a) a.textContent = "Read §" + sectionTitle(nd.section);
      return {
        id: nd.id,
        head: el("span", { class: "f14-head" },
          el("span", { class: "f14-badge f14-w-" + nd.wall, "aria-hidden": "true", text: String(i + 1) }),
          el("span", { class: "f14-title", text: nd.title }),
          el("span", { class: "f14-year-chip" }, el("span", { class: "visually-hidden", text: ", " }), String(nd.year)),
          el("span", { class: "f14-chip f14-w-" + nd.wall }, el("span", { class: "visually-hidden", text: ", wall: " }), wallLabel[nd.wall])),
        body: el("div", { class: "f14-body" },
          el("p", { class: "f14-when", text: nd.year + " \u00b7 " + nd.dated }),
          el("dl", { class: "f14-dl" },
            part("Wall", nd.wall_html), part("Fix", nd.fix_html), part("Price", nd.price_html)),
          link),
      };
    }),
    onToggle: function (ids, id, how) { changed(id, how); },
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
    label: "Mark the steps that hit one wall",
    options: [{ value: "any", text: "All walls" }].concat(data.walls.map(function (w) {
      return { value: w.id, text: w.label + " (" + w.count + ")", aria: w.label + ": " + w.count + " steps" };
    })),
    value: wall,
    onChange: function (v, how) { setWall(v, how); },
  });
  var allBtn = el("button", { type: "button", class: "k3-btn", on: { click: function () {
    var open = disc.get().length === N ? [] : nodes.map(function (nd) { return nd.id; });
    disc.set(open);
    paint();
    ctx.narrate(open.length ? "All " + N + " steps expanded." : "All steps collapsed.");
    save(true);
  } } });

  mount.appendChild(el("div", { class: "f14" },
    el("div", { class: "f14-controls" }, el("span", { class: "k3-label", text: "Wall" }), filter.node, allBtn),
    W.html(el("p", { class: "f14-note" }), data.note_html),
    svg, disc.node));

  function hover(i) { dots.forEach(function (d, j) { d.classList.toggle("is-hot", i === j); }); }
  function paint() {
    var open = disc.get();
    nodes.forEach(function (nd, i) {
      var on = matches(nd), isOpen = open.indexOf(nd.id) >= 0;
      disc.items[nd.id].li.classList.toggle("is-dim", !on);
      dots[i].classList.toggle("is-dim", !on);
      dots[i].classList.toggle("is-open", isOpen);
    });
    allBtn.textContent = open.length === N ? "Collapse all" : "Expand all";
  }
  function toggle(id, to, how) {
    var open = disc.get(), has = open.indexOf(id) >= 0;
    if (has === to) return;
    disc.set(to ? open.concat([id]) : open.filter(function (x) { return x !== id; }));
    changed(id, how);
  }
  function changed(id, how) {
    var i = byId[id], nd = nodes[i], open = disc.get().indexOf(id) >= 0;
    paint();
    ctx.narrate("Step " + (i + 1) + " of " + N + ", " + nd.title + ", " + nd.year + (open ? ", expanded: wall " + wallLabel[nd.wall] +
      "; links to §" + sectionTitle(nd.section) + "." : ", collapsed.") + " " + disc.get().length + " of " + N + " open.");
    save(how === "click" || how === "key");
  }
  function setWall(v, how) {
    wall = validWall(v) ? v : "any";
    filter.set(wall);
    paint();
    var hit = [];  // steps that name this wall (the final step, which gathers all four, is said apart)
    nodes.forEach(function (nd, i) { if (nd.wall === wall) hit.push(i + 1); });
    if (how !== "restore") {
      ctx.narrate(wall === "any" ? "All " + N + " steps shown." : (wallLabel[wall] + " wall: " + hit.length +
        " of " + N + " steps, numbers " + hit.join(", ") + "; the last step meets all four walls."));
      save(how === "click" || how === "key");
    }
  }
  function save(push) {
    ctx.state.set({ open: disc.get().join(","), wall: wall === "any" ? null : wall }, { push: push });
  }

  paint();
  return {
    restore: function (s) {
      disc.set(openFrom(s));
      setWall(validWall(s.wall) ? s.wall : "any", "restore");
    },
  };
});
