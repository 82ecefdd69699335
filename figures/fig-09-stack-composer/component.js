/* FIG 09 · Layer stack composer: a stack of KDA/MLA layers drawn in macrocycles of four; click,
 * tap or Enter/Space toggles a layer; presets, a layer-count stepper and a context slider. A
 * bar chart (K3W.f09LayerChart) shows decode memory per layer; the total is the sum of the per-layer values
 * the build computed (mla_decode_memory per context, kda_decode_memory). Two sets of sizes are
 * shipped: "toy" (ILLUSTRATIVE) for the all-MLA, all-KDA and 3:1 presets, "k3" (SOURCE, from the
 * facts) for the K3 preset; the presets switch between them and a line names the set in use.
 * State: layout = one letter per layer ("kkkm…"), n = the context in tokens, c = the sizes,
 * "toy" or "k3"; a link without c (older links) shows K3's sizes only for K3's own layout. */
(function () {
  "use strict";
  var NAMES = { kda: "KDA", mla: "MLA" };
  var CYCLE = 4;  // layers per macrocycle column (3 KDA + 1 MLA in the 3:1 pattern)
  var SIZES = { toy: "toy sizes", k3: "K3's sizes" };
  function letters(kinds) { return kinds.map(function (k) { return k.charAt(0); }).join(""); }
  function kinds(s) { return s.split("").map(function (c) { return c === "m" ? "mla" : "kda"; }); }

  K3.register("fig-09-stack-composer", {
    state: function (data) {
      return {
        layout: K3.state.pattern(new RegExp("^[km]{1," + data.max_layers + "}$"), letters(data.pattern.slice(0, data.n_layers))),
        n: K3.state.oneOf(data.contexts, data.n_default),
        c: K3.state.oneOf(["toy", "k3"], null),  // null: not in the link, so it follows the layout
      };
    },
    setup: function (mount, data, ctx) {
      var W = window.K3W, el = W.el;
      var noteK3 = null, preset = null;
      var chart = W.f09LayerChart({ names: NAMES, sizes: SIZES, onPick: function (i) { toggle(i, "click"); } });

      /* ---- values: every number is a shipped kernel value or a sum of them ---- */
      function sizesOf(s) { return s.c || (s.layout === letters(data.k3_layout) ? "k3" : "toy"); }
      function read(s) {  // the state as the figure shows it
        var v = { layout: kinds(s.layout), N: s.n, nIdx: data.contexts.indexOf(s.n), cset: sizesOf(s) };
        v.C = data.constants[v.cset];
        v.perLayer = function (kind) { return kind === "mla" ? v.C.mla_per_layer[v.nIdx] : v.C.kda_per_layer; };
        v.count = function (kind) { return v.layout.filter(function (k) { return k === kind; }).length; };
        v.part = function (kind) { return v.count(kind) * v.perLayer(kind); };  // the MLA or the KDA share of the total
        v.total = v.layout.reduce(function (a, k) { return a + v.perLayer(k); }, 0);
        return v;
      }
      function presetSizes(name) { return name === "K3" ? "k3" : "toy"; }
      function presetLayout(name, n) {
        if (name === "all-MLA") return W.range(n, function () { return "mla"; });
        if (name === "all-KDA") return W.range(n, function () { return "kda"; });
        if (name === "3:1") return data.pattern.slice(0, n);
        return data.k3_layout.slice();
      }

      /* ---- actions: each sets the layout with the sizes it is shown in, so they stay ---- */
      function setLayout(layout, how, c) { ctx.set({ layout: letters(layout), c: c || sizesOf(ctx.get()) }, how); }
      function toggle(i, how) {
        var layout = kinds(ctx.get().layout);
        layout[i] = layout[i] === "mla" ? "kda" : "mla";
        setLayout(layout, how);
      }
      function setCount(n, how) {
        var layout = kinds(ctx.get().layout).slice(0, n);
        for (var i = layout.length; i < n; i++) layout.push(data.pattern[i]);  // new layers follow the 3:1 pattern
        setLayout(layout, how);
      }
      function applyPreset(name) {
        var layout = presetLayout(name, ctx.get().layout.length);
        preset = name;  // for describe(), which runs inside ctx.set
        setLayout(layout, "click", presetSizes(name));
        preset = null;
      }

      /* ---- controls ---- */
      var presetButtons = data.presets.map(function (name) {
        return el("button", { type: "button", class: "k3-btn", "aria-pressed": "false", "data-preset": name,
          text: name === "K3" ? "K3 (" + data.k3_layout.length + " layers)" : name,
          on: { click: function () { applyPreset(name); } } });
      });
      var presetRow = el("div", { class: "k3-row f09-presets", role: "group", "aria-label": "Presets" },
        el("span", { class: "k3-label", text: "Presets" }));
      presetButtons.forEach(function (b) { presetRow.appendChild(b); });
      var layersStepper = W.stepper({
        label: "Number of layers", count: data.max_layers, value: data.n_layers - 1,
        format: function (i) { return (i + 1) + " layers"; },
        onChange: function (i, how) { setCount(i + 1, how); },
      });
      var slider = W.slider({
        label: "Context N", values: data.contexts, index: 0,
        format: function (v) { return W.int(v) + " tokens"; },
        onInput: function (i, how) { ctx.set({ n: data.contexts[i] }, how); },
      });
      slider.input.addEventListener("change", function () { ctx.end(); });

      /* the stack: one button per layer, in columns of four (one tab stop; arrow keys move) */
      var stack = W.f09Stack({ cls: "f09-cycles", columnCls: "f09-cycle", perColumn: CYCLE, onPress: toggle, onHover: chart.mark,
        syms: { mla: "mla-latent", kda: "kda-state" },
        label: "Layer stack in macrocycles of four, layer 1 at the bottom left; arrow keys move, Enter or Space toggles" });
      var totalText = document.createTextNode("");
      var totalNum = el("output", { class: "f09-total-num k3-num", "data-total": "" }, totalText);
      /* "12 MLA × 1,000 + … = " MLA part " + " KDA part " at N = … (toy sizes)" */
      var splitHead = document.createTextNode(""), splitTail = document.createTextNode("");
      var partMla = part("mla"), partKda = part("kda");
      var totalSplit = el("p", { class: "f09-split" }, splitHead, partMla.node, " + ", partKda.node, splitTail);
      var barMla = el("span", { class: "f09-bar-mla", "data-sym": "mla-latent" });
      var barKda = el("span", { class: "f09-bar-kda", "data-sym": "kda-state" });
      var note = el("p", { class: "f09-note" });
      var sizes = el("p", { class: "f09-sizes" });

      mount.appendChild(el("div", { class: "f09" },
        el("div", { class: "f09-controls" },
          presetRow,
          el("div", { class: "k3-row f09-knobs" }, layersStepper.node, slider.node)),
        el("div", { class: "f09-grid" },
          el("div", { class: "f09-left" },
            W.legend([{ text: "KDA: fixed state", swatch: "box", cls: "f09-sw-kda", sym: "kda-state" },
              { text: "MLA: latent per token", swatch: "box", cls: "f09-sw-mla", sym: "mla-latent" }]),
            stack.node),
          el("div", { class: "f09-right" },
            chart.plot,
            el("div", { class: "f09-total" },
              el("p", { class: "f09-total-line" }, el("span", { class: "k3-label", text: "Total decode memory" }), " ", totalNum, " elements"),
              /* the total's make-up: each kind's share of it, on a fixed 0–100 % scale */
              el("p", { class: "f09-bar-title k3-axis-title", "aria-hidden": "true", text: "share of the total" }),
              el("div", { class: "f09-bar", "aria-hidden": "true", "data-graphic": "chart" }, barMla, barKda),
              el("div", { class: "f09-ticks", "aria-hidden": "true" },
                el("span", { text: "0 %" }), el("span", { text: "50 %" }), el("span", { text: "100 %" })),
              totalSplit),
            sizes,
            note))));

      /* An input writes only what it changed (issue 16: paint within a frame or two): a button
       * whose kind or spoken name changed, a number whose text changed. */
      function paintStack(v) {
        stack.size(v.layout.length);
        var value = { mla: W.int(v.perLayer("mla")), kda: W.int(v.perLayer("kda")) };
        v.layout.forEach(function (k, i) {
          // the visible "5 K" begins the spoken name, so the name contains what is seen
          stack.set(i, k, (i + 1) + " " + (k === "mla" ? "M" : "K") + ": layer " + (i + 1) + ", " + NAMES[k] + ", " +
            value[k] + " elements; press to make it " + (k === "mla" ? "KDA" : "MLA"));
        });
      }
      function text(node, s) {  // a text node's data: no nodes replaced (nothing for the page's observers)
        if (node.data !== s) node.data = s;
      }
      function part(kind) {
        var t = document.createTextNode("");
        return { node: el("span", { class: "f09-part", "data-part": kind }, t), text: t };
      }

      /* ---- the readouts ---- */
      var shown = {};  // what the stepper, the slider and the share bar show
      function paintTotals(v) {
        var scale = v.total || 1;  // the whole bar is the total
        text(totalText, W.int(v.total));
        var wm = (100 * v.part("mla") / scale) + "%", wk = (100 * v.part("kda") / scale) + "%";
        if (shown.wm !== wm) { shown.wm = wm; barMla.style.width = wm; }
        if (shown.wk !== wk) { shown.wk = wk; barKda.style.width = wk; }
        text(splitHead, v.count("mla") + " MLA × " + W.int(v.perLayer("mla")) + " + " + v.count("kda") + " KDA × " +
          W.int(v.perLayer("kda")) + " = ");
        text(partMla.text, W.int(v.part("mla")));
        text(partKda.text, W.int(v.part("kda")));
        text(splitTail, " at N = " + W.int(v.N) + " (" + SIZES[v.cset] + ")");
        var drawn = letters(v.layout);
        presetButtons.forEach(function (b) {
          var name = b.dataset.preset, on = v.cset === presetSizes(name) && drawn === letters(presetLayout(name, v.layout.length));
          if (b.pressed !== on) { b.pressed = on; b.setAttribute("aria-pressed", on ? "true" : "false"); }
        });
        paintSizes(v);
        var k3 = drawn === letters(data.k3_layout);
        if (k3 !== noteK3) { noteK3 = k3; if (k3) W.html(note, "K3: " + data.k3_layout_html); else note.textContent = ""; }
        if (shown.count !== v.layout.length) { shown.count = v.layout.length; layersStepper.set(v.layout.length - 1); }
        if (shown.nIdx !== v.nIdx) { shown.nIdx = v.nIdx; slider.set(v.nIdx); }
      }
      function paintSizes(v) {
        if (sizes.dataset.sizes === v.cset) return;
        sizes.dataset.sizes = v.cset;
        if (v.cset === "k3") { W.html(sizes, data.k3_constants_html); return; }  // facts with their SOURCE badges
        var c = v.C;
        sizes.textContent = "";
        sizes.append(el("span", { class: "badge badge-illustrative", text: "Illustrative" }),
          " Toy sizes: " + c.heads + " head × " + c.d_h + "² = " + W.int(c.kda_per_layer) + " elements per KDA layer, " +
          W.int(c.mla_per_token) + " per token per MLA layer; one MLA layer outgrows one KDA layer beyond " +
          W.int(c.crossover) + " tokens.");
      }

      function paint(v) {
        paintStack(v);
        paintTotals(v);
        chart.draw(v);
      }
      function say(what, v) {
        return what + ": " + v.count("mla") + " MLA × " + W.int(v.perLayer("mla")) + " + " + v.count("kda") + " KDA × " +
          W.int(v.perLayer("kda")) + " = " + W.int(v.part("mla")) + " + " + W.int(v.part("kda")) + " = " + W.int(v.total) +
          " elements at N = " + W.int(v.N) + ".";
      }

      return {
        render: function (s) { paint(read(s)); },
        describe: function (prev, s) {
          var v = read(s), was = read(prev);
          if (preset) return say("Preset " + preset + ", " + SIZES[v.cset], v);
          if (s.layout.length !== prev.layout.length) return say(v.layout.length + " layers", v);
          var changed = v.layout.map(function (k, i) { return k !== was.layout[i] ? i : -1; }).filter(function (i) { return i >= 0; });
          if (changed.length === 1 && v.cset === was.cset) {
            var i = changed[0], d = v.total - was.total;
            return "Layer " + (i + 1) + " is now " + NAMES[v.layout[i]] + ": total " + (d >= 0 ? "+" : "−") + W.int(Math.abs(d)) +
              " to " + W.int(v.total) + " elements at N = " + W.int(v.N) + " (" + v.count("mla") + " MLA, " + v.count("kda") + " KDA).";
          }
          if (s.n !== prev.n) return say("Context " + W.int(v.N) + " tokens", v);
          return say(v.layout.length + " layers, " + SIZES[v.cset], v);
        },
      };
    },
  });
})();
