/* FIG 16 · Prefill versus decode: pick a mechanism, a phase and a context length N; a schematic
 * of one layer shows what is read from memory, what is computed and what is kept, each with its
 * count from mechanism_costs, the named terms that count adds up, and a bar on a shared log scale;
 * a table compares all mechanisms in the same phase, and a note states MLA's trade against softmax
 * attention in that phase. Counts, ratios, bar lengths and every text come from the builder
 * (ctx.show places them). */
(function () {
  "use strict";
  var COLORS = { read: "--orange", computed: "--blue", kept: "--violet" };  // per region of data.regions

  /* ---------- glyphs: small pictures of the data each region touches ---------- */
  function cells(list, color) {  // list of [x, y, w, h, filled]
    var el = window.K3W.el, svg = el("svg:svg", { viewBox: "0 0 72 48", width: 72, height: 48 });
    list.forEach(function (c) {
      svg.appendChild(el("svg:rect", { x: c[0], y: c[1], width: c[2], height: c[3], rx: 1,
        fill: c[4] ? "var(" + color + ")" : "none", stroke: "var(--ink-3)", "stroke-width": 0.6,
        "fill-opacity": c[4] ? 0.85 : 0 }));
    });
    return svg;
  }
  function grid(n, size, x0, y0, on) {
    var out = [];
    for (var i = 0; i < n; i++) for (var j = 0; j < n; j++) out.push([x0 + j * size, y0 + i * size, size - 1, size - 1, on(i, j)]);
    return out;
  }
  function strip(n, x0, y0, w, h) { var out = []; for (var j = 0; j < n; j++) out.push([x0 + j * w, y0, w - 1, h, true]); return out; }
  var GLYPHS = {
    triangle: function () { return grid(6, 7, 14, 3, function (i, j) { return j <= i; }); },
    row: function () { return grid(6, 7, 14, 3, function (i, j) { return i === 5; }); },
    chunks: function () { return grid(6, 7, 14, 3, function (i, j) { return Math.floor(i / 2) === Math.floor(j / 2) && j <= i; }); },
    square: function () { return grid(4, 9, 18, 5, function () { return true; }); },
    cache: function () { return strip(9, 0, 10, 8, 10).concat(strip(9, 0, 26, 8, 10)); },
    strip: function () { return strip(9, 0, 20, 8, 6); },
    inputs: function () { return strip(9, 0, 4, 8, 10).concat(strip(9, 0, 19, 8, 10), strip(9, 0, 34, 8, 10)); },
    mixed: function () { return grid(3, 7, 0, 4, function () { return true; }).concat(grid(3, 7, 24, 4, function () { return true; }),
      grid(3, 7, 48, 4, function () { return true; }), strip(9, 0, 32, 8, 6)); },
  };

  K3.register("fig-16-prefill-decode", {
    state: function (data) {
      return {
        mech: K3.state.oneOf(data.mechanisms.map(function (m) { return m.key; }), data.mechanisms[0].key),
        phase: K3.state.oneOf(data.phases.map(function (p) { return p.key; }), data.phases[0].key),
        n: K3.state.oneOf(data.n, data.n[data.n_default_index]),
      };
    },
    setup: function (mount, data, ctx) {
      var W = window.K3W, el = W.el;
      var byKey = {};
      data.mechanisms.forEach(function (m) { byKey[m.key] = m; });
      var mech = ctx.get().mech, phase = ctx.get().phase, idx = data.n.indexOf(ctx.get().n);  // what paint() shows
      var REGIONS = data.regions;
      function nSlot(i) { return { n: ["n_text", i] }; }
      function valueAt(m, p, quantity, i) { return ["value_text", m, p, quantity, i]; }

      /* ---------- controls ---------- */
      var mechChoice = W.choice({
        label: "Mechanism",
        options: data.mechanisms.map(function (m) { return { value: m.key, text: m.label }; }),
        value: mech, onChange: function (v, how) { ctx.set({ mech: v }, how); },
      });
      var phaseChoice = W.choice({
        label: "Phase",
        options: data.phases.map(function (p) { return { value: p.key, text: p.label }; }),
        value: phase, onChange: function (v, how) { ctx.set({ phase: v }, how); },
      });
      var slider = W.slider({
        label: "Context N", values: data.n, index: idx,
        format: function (n) { return ctx.text(["text", "slider"], nSlot(data.n.indexOf(n))); },
        onInput: function (i) { ctx.set({ n: data.n[i] }, "input"); },
      });
      slider.input.setAttribute("aria-label", "Context length N");
      slider.node.classList.add("k3-sticky");  // on a phone N stays in reach over the whole figure (see the sheet)
      slider.input.addEventListener("change", function () { ctx.end(); });  // a finished slide or key press

      /* ---------- the schematic: read → computed → kept ---------- */
      var panels = {};
      var schematic = el("div", { class: "f16-flow" });
      REGIONS.forEach(function (r, i) {
        var p = {
          glyph: el("div", { class: "f16-glyph", "aria-hidden": "true" }),
          value: el("p", { class: "f16-value k3-num" }),
          fill: el("span", { class: "f16-fill" }),
          text: el("p", { class: "f16-text" }),
          parts: el("ul", { class: "f16-parts" }),
        };
        var color = "var(" + COLORS[r.key] + ")";
        p.fill.style.background = color;
        p.node = el("section", { class: "f16-panel", "data-region": r.key, "aria-label": r.title },
          ctx.show(el("h3", { class: "f16-title" }), ["regions", i, "title"]), p.glyph, p.value,
          el("span", { class: "f16-bar", "aria-hidden": "true", "data-graphic": "chart" }, p.fill),
          el("span", { class: "f16-scale k3-axis-title", "aria-hidden": "true" },
            ctx.show(el("span"), ["bar_ends_text", r.quantity, 0]), ctx.show(el("span"), ["text", "scale"]),
            ctx.show(el("span"), ["bar_ends_text", r.quantity, 1])),
          p.text, p.parts);
        p.node.style.setProperty("--f16-c", color);
        panels[r.key] = p;
        if (i) schematic.appendChild(el("span", { class: "f16-arrow", "aria-hidden": "true", text: "→" }));
        schematic.appendChild(p.node);
      });

      /* ---------- comparison table: every mechanism in this phase ---------- */
      var caption = el("caption");
      var rows = {};
      var tbody = el("tbody");
      data.mechanisms.forEach(function (m, k) {
        var cells = REGIONS.map(function (r) { return el("td", { class: "k3-num", "data-q": r.quantity }); });
        var tr = el("tr", { "data-mech": m.key }, ctx.show(el("th", { scope: "row" }), ["mechanisms", k, "label"]),
          cells[0], cells[1], cells[2]);
        rows[m.key] = { node: tr, values: cells };
        tbody.appendChild(tr);
      });
      var table = el("table", { class: "f16-table" }, caption,
        el("thead", {}, el("tr", {}, el("th", { scope: "col", text: "Mechanism" }),
          el("th", { scope: "col", text: "read (elements)" }), el("th", { scope: "col", text: "computed (FLOPs)" }),
          el("th", { scope: "col", text: "kept (elements)" }))), tbody);

      /* ---------- MLA's trade against softmax attention in this phase ---------- */
      var tradeNums = el("span", { class: "f16-trade-nums" });
      var tradeWhy = el("span", { class: "f16-trade-why" }), whyPhase = null;
      var trade = el("p", { class: "f16-trade" }, tradeNums, " ", tradeWhy);

      var consts = el("p", { class: "f16-consts" }, el("span", { class: "badge badge-illustrative", text: "Illustrative" }), " ",
        ctx.show(el("span"), ["constants_html"]));  // rendered at build time

      mount.appendChild(el("div", { class: "f16" },
        el("div", { class: "f16-controls" },
          el("div", { class: "f16-group" }, el("span", { class: "k3-label", text: "Mechanism" }), mechChoice.node),
          el("div", { class: "f16-group" }, el("span", { class: "k3-label", text: "Phase" }), phaseChoice.node),
          slider.node),
        schematic,
        el("div", { class: "k3-scroll" }, table),
        trade,
        consts));

      /* ---------- painting ---------- */
      // What a mechanism and a phase decide (glyphs, words, which terms a count adds up) is built
      // when they change; moving N only rewrites numbers and bar widths (rebuilding the glyphs on
      // every slider step took ~15–20 ms of script and layout per step).
      var shaped = null;
      function paintShape() {
        var story = data.story[mech][phase], memory = byKey[mech].memory;
        var glyphs = { read: phase === "prefill" ? "inputs" : memory, computed: story.glyph, kept: memory };
        REGIONS.forEach(function (r) {
          var p = panels[r.key];
          p.glyph.textContent = "";
          p.glyph.appendChild(cells(GLYPHS[glyphs[r.key]](), COLORS[r.key]));
          ctx.show(p.text, ["story", mech, phase, r.key]);
          // the mechanism's memory is the symbol other sections' equations name (KV cache, state, latent)
          var sym = r.key === "kept" || (r.key === "read" && phase === "decode") ? byKey[mech].sym : null;
          if (sym) p.node.setAttribute("data-sym", sym); else p.node.removeAttribute("data-sym");
        });
        ["read", "computed"].forEach(function (region) {  // the terms each count adds up, when there are several
          var list = partsOf(region), ul = panels[region].parts;
          ul.textContent = "";
          panels[region].partValues = [];
          if (list.length < 2) return;
          list.forEach(function (part, k) {
            var value = el("span", { class: "f16-part-value k3-num" });
            panels[region].partValues.push(value);
            ul.appendChild(el("li", { "data-part": part.key },
              ctx.show(el("span", { class: "f16-part-label" }), partsPath(region).concat([k, "label"])), value));
          });
        });
        data.mechanisms.forEach(function (m) { rows[m.key].node.classList.toggle("is-current", m.key === mech); });
      }
      function partsPath(region) { return ["parts", mech, phase, region === "read" ? "reads" : "flops"]; }
      function partsOf(region) { return data.parts[mech][phase][region === "read" ? "reads" : "flops"]; }
      function paint() {
        if (shaped !== mech + "/" + phase) paintShape();
        shaped = mech + "/" + phase;
        var bars = data.bars[mech][phase];
        REGIONS.forEach(function (r) {
          var p = panels[r.key];
          ctx.show(p.value, ["text", "amount", r.quantity], { value: valueAt(mech, phase, r.quantity, idx) });
          p.fill.style.width = (100 * bars[r.quantity][idx]) + "%";
        });
        ["read", "computed"].forEach(function (region) {
          panels[region].partValues.forEach(function (node, k) {
            ctx.show(node, partsPath(region).concat([k, "value_text", idx]));
          });
        });
        paintTrade();
        ctx.show(caption, ["text", "caption", phase], nSlot(idx));
        data.mechanisms.forEach(function (m) {
          REGIONS.forEach(function (r, i) {
            ctx.show(rows[m.key].values[i], valueAt(m.key, phase, r.quantity, idx));  // unit in the header
          });
        });
      }
      function paintTrade() {
        var slots = nSlot(idx);
        Object.keys(data.trade[phase].numbers_text).forEach(function (name) {
          slots[name] = ["trade", phase, "numbers_text", name, idx];
        });
        ctx.show(tradeNums, ["trade", phase, "text"], slots);
        if (whyPhase !== phase) ctx.show(tradeWhy, ["trade", phase, "why_html"]);  // rendered at build time
        whyPhase = phase;
      }

      return {
        render: function (state) {
          mech = state.mech;
          phase = state.phase;
          idx = data.n.indexOf(state.n);
          mechChoice.set(mech);
          phaseChoice.set(phase);
          slider.set(idx);
          paint();
        },
        describe: function (prev, next) {
          var i = data.n.indexOf(next.n), slots = nSlot(i);
          ["reads", "flops", "kept"].forEach(function (q) { slots[q] = valueAt(next.mech, next.phase, q, i); });
          return { path: ["text", "describe", next.mech, next.phase], slots: slots };
        },
      };
    },
  });
})();
