/* FIG 09 · Layer stack composer: a stack of KDA/MLA layers drawn in macrocycles of four; click,
 * tap or Enter/Space toggles a layer; presets, a layer-count stepper and a context slider. A
 * bar chart (K3W.f09LayerChart) shows decode memory per layer; the total is the sum of the per-layer values
 * the build computed (mla_decode_memory per context, kda_decode_memory). Two sets of sizes are
 * shipped: "toy" (ILLUSTRATIVE) for the all-MLA, all-KDA and 3:1 presets, "k3" (SOURCE, from the
 * facts) for the K3 preset; the presets switch between them and a line names the set in use.
 * State: layout = one letter per layer ("kkkm…"), n = the context in tokens, c = the sizes,
 * "toy" or "k3"; a link without c (older links) shows K3's sizes only for K3's own layout.
 * Every text is the builder's (data.text, and each size set's constants[c].text); the totals are
 * sums over the layout drawn, which the builder's templates mark {=name} (see withSums). */
(function () {
  "use strict";
  var CYCLE = 4;  // layers per macrocycle column (3 KDA + 1 MLA in the 3:1 pattern)
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
      var W = window.K3W, el = W.el, T = data.text;
      var noteK3 = null, preset = null;

      /* ---- texts: the builder's templates, their slots paths into the data ---- */
      function perLayerText(v, kind) {  // one layer's decode memory, of this kind, at this context, with these sizes
        return kind === "mla" ? ["constants", v.cset, "text", "mla_per_layer", v.nIdx] : ["constants", v.cset, "text", "kda_per_layer"];
      }
      function slots(v, names, extra) {  // the slots `names` of view v, and any `extra`
        var all = {
          n: ["text", "n", v.nIdx], m: ["text", "numbers", v.count("mla")], k: ["text", "numbers", v.count("kda")],
          count: ["text", "numbers", v.layout.length], sizes: ["constants", v.cset, "text", "sizes"],
          mla: perLayerText(v, "mla"), kda: perLayerText(v, "kda"),
        };
        var out = Object.assign({}, extra);
        names.forEach(function (name) { out[name] = all[name]; });
        return out;
      }
      /* A {=name} in a template is a sum over the layout drawn (the MLA part, the KDA part, the total):
       * written here in the page's integer form, the rest of the template filled by ctx.text. */
      function withSums(text, v) {
        var sums = { mla: v.part("mla"), kda: v.part("kda"), total: v.total };
        return text.replace(/\{=(\w+)\}/g, function (_, name) {
          if (!(name in sums)) throw new Error(JSON.stringify(text) + ": {=" + name + "}");
          return W.int(sums[name]);
        });
      }
      var SUMS = ["m", "mla", "k", "kda", "n"];  // the slots of every "… = {=total} elements at N" sentence

      var chart = W.f09LayerChart({
        onPick: function (i) { toggle(i, "click"); },
        yTitle: function (v) { return ctx.text(["constants", v.cset, "text", "y_title"]); },
        label: function (v) { return ctx.text(["constants", v.cset, "text", "chart_label"], slots(v, ["n", "mla", "kda"])); },
        tip: function (v, i) {
          var k = v.layout[i];
          return ctx.text(["text", "tip"], { i: ["text", "numbers", i + 1], kind: ["text", "kinds", k], value: perLayerText(v, k) });
        },
      });

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
          text: T.presets[name],
          on: { click: function () { applyPreset(name); } } });
      });
      var presetRow = el("div", { class: "k3-row f09-presets", role: "group", "aria-label": "Presets" },
        el("span", { class: "k3-label", text: "Presets" }));
      presetButtons.forEach(function (b) { presetRow.appendChild(b); });
      var layersStepper = W.stepper({
        label: "Number of layers", count: data.max_layers, value: data.n_layers - 1,
        format: function (i) { return ctx.text(["text", "layers"], { count: ["text", "numbers", i + 1] }); },
        onChange: function (i, how) { setCount(i + 1, how); },
      });
      var slider = W.slider({
        label: "Context N", values: data.contexts, index: 0,
        format: function (v) { return ctx.text(["text", "slider"], { n: ["text", "n", data.contexts.indexOf(v)] }); },
        onInput: function (i, how) { ctx.set({ n: data.contexts[i] }, how); },
      });
      slider.input.addEventListener("change", function () { ctx.end(); });

      /* the stack: one button per layer, in columns of four (one tab stop; arrow keys move) */
      var stack = W.f09Stack({ cls: "f09-cycles", columnCls: "f09-cycle", perColumn: CYCLE, onPress: toggle, onHover: chart.mark,
        syms: { mla: "mla-latent", kda: "kda-state" },
        label: T.stack_label });
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
            W.legend([{ text: T.legend.kda, swatch: "box", cls: "f09-sw-kda", sym: "kda-state" },
              { text: T.legend.mla, swatch: "box", cls: "f09-sw-mla", sym: "mla-latent" }]),
            stack.node),
          el("div", { class: "f09-right" },
            chart.plot,
            el("div", { class: "f09-total" },
              el("p", { class: "f09-total-line" }, el("span", { class: "k3-label", text: "Total decode memory" }), " ", totalNum, " elements"),
              /* the total's make-up: each kind's share of it, on a fixed 0–100 % scale */
              ctx.show(el("p", { class: "f09-bar-title k3-axis-title", "aria-hidden": "true" }), ["text", "share_title"]),
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
        var value = { mla: perLayerText(v, "mla"), kda: perLayerText(v, "kda") };
        v.layout.forEach(function (k, i) {
          stack.set(i, k, ctx.text(["text", "layer_name", k], { i: ["text", "numbers", i + 1], value: value[k] }));
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
        text(splitHead, ctx.text(["text", "split_head"], slots(v, ["m", "mla", "k", "kda"])));
        text(partMla.text, W.int(v.part("mla")));
        text(partKda.text, W.int(v.part("kda")));
        text(splitTail, ctx.text(["text", "split_tail"], slots(v, ["n", "sizes"])));
        var drawn = letters(v.layout);
        presetButtons.forEach(function (b) {
          var name = b.dataset.preset, on = v.cset === presetSizes(name) && drawn === letters(presetLayout(name, v.layout.length));
          if (b.pressed !== on) { b.pressed = on; b.setAttribute("aria-pressed", on ? "true" : "false"); }
        });
        paintSizes(v);
        var k3 = drawn === letters(data.k3_layout);
        if (k3 !== noteK3) { noteK3 = k3; if (k3) W.html(note, data.k3_note_html); else note.textContent = ""; }
        if (shown.count !== v.layout.length) { shown.count = v.layout.length; layersStepper.set(v.layout.length - 1); }
        if (shown.nIdx !== v.nIdx) { shown.nIdx = v.nIdx; slider.set(v.nIdx); }
      }
      function paintSizes(v) {
        if (sizes.dataset.sizes === v.cset) return;
        sizes.dataset.sizes = v.cset;
        if (v.cset === "k3") { W.html(sizes, data.k3_constants_html); return; }  // facts with their SOURCE badges
        sizes.textContent = "";
        sizes.append(el("span", { class: "badge badge-illustrative", text: "Illustrative" }), " ",
          ctx.show(el("span"), ["text", "toy_sizes"]));
      }

      function paint(v) {
        paintStack(v);
        paintTotals(v);
        chart.draw(v);
      }
      function say(path, v, names) { return withSums(ctx.text(["text", "said"].concat(path), slots(v, names)), v); }

      return {
        render: function (s) { paint(read(s)); },
        describe: function (prev, s) {
          var v = read(s), was = read(prev);
          if (preset) return say(["preset", preset], v, SUMS);
          if (s.layout.length !== prev.layout.length) return say(["layers"], v, SUMS.concat(["count"]));
          var changed = v.layout.map(function (k, i) { return k !== was.layout[i] ? i : -1; }).filter(function (i) { return i >= 0; });
          if (changed.length === 1 && v.cset === was.cset) {
            var i = changed[0], kind = v.layout[i];
            return withSums(ctx.text(["text", "said", "toggle"], slots(v, ["n", "m", "k"], {
              i: ["text", "numbers", i + 1], kind: ["text", "kinds", kind], delta: ["constants", v.cset, "text", "delta", kind, v.nIdx],
            })), v);
          }
          if (s.n !== prev.n) return say(["context"], v, SUMS);
          return say(["other"], v, SUMS.concat(["count", "sizes"]));
        },
      };
    },
  });
})();
