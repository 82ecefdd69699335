/* FIG 01 · GPT-2 forward pass, drawn as one SVG: the pipeline from token ids to logits, each box
 * with its shapes and parameter count (from gpt2_params at build time). The ×12 block opens in
 * place into one layer drawn around its residual stream; the sum under the drawing lists every
 * parameter tensor once and lands on the kernel's total.
 *
 * The drawing is laid out for the width it gets, at one SVG unit per CSS pixel so text stays at
 * its size: a row of boxes when wide, a column on a phone. Text is measured and wrapped by
 * K3W.svg's typesetter in the fonts the SVG sets (STYLES), and boxes grow to hold it. Every text
 * it typesets or places (counts, shares, sentences, labels) is written by the builder.
 * State: layer = "closed" | "open" (#fig-01.layer=open). */
(function () {
  "use strict";
  var STYLES = {  // [family, size px, weight, line height px]
    title: ["--sans", 13.5, 700, 17], shape: ["--mono", 11, 400, 15], name: ["--sans", 12, 400, 16],
    count: ["--mono", 12, 700, 16], small: ["--mono", 10.5, 400, 14], note: ["--sans", 12, 400, 15],
    head: ["--sans", 11, 700, 15], sum: ["--mono", 12, 400, 17],
  };

  K3.register("fig-01-gpt2-pipeline", {
    state: function () { return { layer: K3.state.oneOf(["closed", "open"], "closed") }; },
    setup: function (mount, data, ctx) {
      var W = window.K3W, el = W.el, S = W.svg, T = S.type(STYLES);
      var cfg = data.config, L = data.layer;
      function textOf(key) { return ctx.text(["text", key]); }
      var layerId = ctx.id + "-layer", arrowId = ctx.id + "-arrow", arrow = { "marker-end": S.ref(arrowId) };
      var isOpen = ctx.get().layer === "open";

      function toggle(how) { ctx.set({ layer: isOpen ? "closed" : "open" }, how); }
      function close(how) { ctx.set({ layer: "closed" }, how); focusKey("blocks"); }
      function arrowLine(x1, y1, x2, y2) { return S.line(x1, y1, x2, y2, "f01-arrow", arrow); }

      /* ---- a box (K3W.svg.card): title, shapes, parameter tensors (or "no parameters"), note ---- */
      function box(b, w, opts) {
        return S.card(T, {
          title: b.title, chain: b.chain,
          rows: b.parts.map(function (p) {
            return { name: p.name, value: p.count_text, detail: p.shape, sym: p.sym, key: "part:" + b.id + ":" + p.name,
              aria: p.aria, attrs: { "data-count": p.count } };
          }),
          empty: "no parameters", note: b.note,
        }, w, Object.assign({ prefix: "f01", attrs: { "data-box": b.id, "data-sym": b.sym || null } }, opts));
      }
      function partLabel(r) { return r.aria; }

      /* ---- the ×12 block: a stack of cards, and the button that opens one layer ---- */
      function pipelineBox(b, w, h) {
        if (b.id !== "blocks") return box(b, w, { minHeight: h, focus: partLabel });
        // its hint and aria-expanded follow the state (show); it is named by what it shows, counts and hint included
        var bx = box(b, w, { minHeight: h, hint: textOf("hint_open"), stack: [8, 4], press: toggle });
        bx.node.setAttribute("class", "f01-box f01-box-blocks");
        bx.node.setAttribute("data-key", "blocks");
        bx.node.setAttribute("aria-controls", layerId);
        return bx;
      }

      /* ---- closed: the stack of identical layers the ×12 stands for, split attention / MLP / LN ---- */
      function stackView(w, wide) {
        var view = S.g({ class: "f01-layer-closed" }), y = 0;
        var head = T.wrap("head", textOf("stack_head"), w);
        view.appendChild(T.text("head", "f01-head", 0, y + 11, head));
        y += T.lh("head") * head.length + 9;
        var stack = view.appendChild(S.g({ class: "f01-stack", "aria-hidden": "true" }));
        stack.addEventListener("click", function () { ctx.set({ layer: "open" }, "click"); });
        var pitch = wide ? 19 : 15, labelW = 52, barW = w - labelW - 8;
        stack.appendChild(S.rect(0, y, w, pitch * cfg.n_layer, "f01-hit"));  // the gaps between bars click too
        for (var i = 1; i <= cfg.n_layer; i++, y += pitch) {
          stack.appendChild(T.text("small", "f01-slab-name", labelW, y + pitch - 5, [data.layer_names[i - 1]], { "text-anchor": "end" }));
          var x = labelW + 8;
          data.block_split.forEach(function (p) {
            var sw = Math.max(2, barW * p.share);
            stack.appendChild(S.rect(x, y + 2, sw, pitch - 4, "f01-split-" + p.id));
            x += sw;
          });
        }
        y += 10;
        var key = T.legend("note", "f01-key", 0, y, data.block_split.map(function (p) {
          return { swatch: "f01-split-" + p.id, text: p.key_text };
        }), w);
        key.nodes.forEach(function (n) { view.appendChild(n); });
        y += key.h + 6;
        var sentence = T.wrap("note", textOf("stack_note"), w);
        view.appendChild(T.text("note", "f01-stack-note", 0, y + 11, sentence));
        return { node: view, h: y + T.lh("note") * sentence.length };
      }

      /* ---- open: one layer around its residual stream (K3W.svg.residual), and what it adds up to ---- */
      function layerView(w, wide) {
        var view = S.g({ class: "f01-layer-open", id: layerId }), y = 0;
        var cw = T.width("name", "Close ✕") + 20;
        var closer = S.g({ class: "f01-close", role: "button", tabindex: "0", "data-key": "close", "aria-label": textOf("close_label") },
          S.rect(0, 0, cw, 24, "f01-close-bg", { rx: 5 }),
          T.text("name", "f01-close-label", cw / 2, 16, ["Close ✕"], { "text-anchor": "middle" }));
        view.appendChild(S.at(S.pressable(closer, close), w - cw, -4));
        var head = T.wrap("head", textOf("layer_head"), w - cw - 10);
        view.appendChild(T.text("head", "f01-head", 0, y + 11, head));
        y += Math.max(30, T.lh("head") * head.length + 12);
        y = S.residual(view, T, { top: y, w: w, wide: wide, count: L.length, arrow: arrow, prefix: "f01",
          card: function (i, bw, h) { return box(L[i], bw, { minHeight: h }); },
          from: textOf("stream_from"), to: textOf(wide ? "stream_to_wide" : "stream_to_narrow") });
        /* the per-block sum, wrapped between terms */
        var bold = { "font-weight": 700 }, blockSum = data.layer_sum;
        var runs = blockSum.terms.map(function (t) { return [t]; }).concat([[blockSum.equals],
          [blockSum.block_total, "f01-block-total", bold], [blockSum.per_block], [blockSum.times],
          [blockSum.blocks_total, "f01-blocks-total", bold]]);
        var perBlock = T.flow("sum", "f01-layer-sum", 0, y + 12, runs, w, { "data-sym": "g2-block" });
        view.appendChild(perBlock.node);
        return { node: view, h: y + T.lh("sum") * perBlock.rows + 4 };
      }

      /* ---- the whole drawing, for a width: both views are drawn once, and opening or closing the
       * layer (show) flips which one is on, so a toggle neither re-typesets nor re-lays out text ---- */
      var svg = null, drawnWidth = 0, on = null;
      function draw() {
        var avail = Math.floor(mount.clientWidth);
        if (!avail) return;
        drawnWidth = avail;
        // narrower than 860 px the boxes get too thin for their text: a column, at most 640 px wide
        // so a count stays near its name
        var wide = avail >= 860, w = wide ? avail : Math.min(avail, 640), GAP = 26, y = 0;
        var canvas = S.el("svg", { class: "f01-svg", width: w, role: "group",
          "aria-label": textOf("svg_label") }, S.arrowhead(arrowId, "f01-arrowhead"));
        var P = data.pipeline, blocksAt = P.findIndex(function (b) { return b.id === "blocks"; });
        var region = S.g({ class: "f01-region" }), blocks = null, tail = [];
        var closed = stackView(wide ? w - 28 : w - 20, wide), opened = layerView(wide ? w - 28 : w - 20, wide);
        // on a wide screen both views share one height, so opening a layer moves nothing below it;
        // in a column the boxes under the region (tail) move down by the open view's extra height
        var regionH = (wide ? Math.max(closed.h, opened.h) : closed.h) + 28, regionBg;
        function placeRegion(top) {
          regionBg = region.appendChild(S.rect(0, top, w, regionH, "f01-region-bg", { rx: 8 }));
          region.appendChild(S.at(closed.node, 14, top + 16));
          region.appendChild(S.at(opened.node, 14, top + 16));
        }
        if (wide) {
          var bw = (w - 5 * GAP - 8) / P.length;
          var h = Math.max.apply(null, P.map(function (b) { return box(b, bw, { hint: textOf("hint_open") }).h; }));
          P.forEach(function (b, i) {
            var x = i * (bw + GAP), bx = pipelineBox(b, bw, h);
            if (i === blocksAt) blocks = bx.node;
            canvas.appendChild(S.at(bx.node, x, 0));
            if (i) canvas.appendChild(arrowLine(x - GAP + 9, h / 2, x - 2, h / 2));
          });
          var zx = blocksAt * (bw + GAP), top = h + 40;  // the block zooms out into the region below
          region.appendChild(S.el("polygon", { class: "f01-zoom", points: [zx + 4, h + 10, zx + bw + 4, h + 10, w, top, 0, top].join(" ") }));
          placeRegion(top);
          canvas.appendChild(region);
          y = top + regionH + 2;
        } else {
          P.forEach(function (b, i) {
            var bx = pipelineBox(b, w - 10, 0);
            if (i === blocksAt) blocks = bx.node;
            if (i) tail.push({ node: canvas.appendChild(arrowLine(w / 2, y - GAP + 4, w / 2, y - 2)), y: 0 });
            tail.push({ node: canvas.appendChild(S.at(bx.node, 0, y)), y: y });
            y += bx.h + (b.id === "blocks" ? 8 : 0);
            if (i === blocksAt) {  // the block opens in place, right under it
              y += 10;
              placeRegion(y);
              canvas.appendChild(region);
              y += regionH;
              tail = [];  // only what comes after the region moves
            }
            y += GAP;
          });
          y -= GAP - 2;
        }
        var focused = document.activeElement && svg && svg.contains(document.activeElement)
          ? document.activeElement.getAttribute("data-key") : null;
        if (svg) svg.replaceWith(canvas); else sum.before(canvas);  // the drawing sits above the sum
        svg = canvas;
        on = { region: region, regionBg: regionBg, regionH: regionH, views: [closed.node, opened.node],
          extra: wide ? 0 : opened.h - closed.h, tail: tail, h: y, blocks: blocks,
          hint: blocks.querySelector(".f01-open-hint tspan"), shown: null };
        show();
        if (focused) focusKey(focused);
      }
      function show() {  // writes only what opening or closing the layer changes
        if (!on || on.shown === isOpen) return;
        on.shown = isOpen;
        on.region.classList.toggle("is-open", isOpen);
        on.views.forEach(function (v, i) {
          var off = (i === 1) !== isOpen;
          v.classList.toggle("f01-off", off);
          if (off) v.setAttribute("aria-hidden", "true"); else v.removeAttribute("aria-hidden");
        });
        ctx.show(on.hint, ["text", isOpen ? "hint_close" : "hint_open"]);
        on.blocks.setAttribute("aria-expanded", String(isOpen));
        // the drawing's height only on a change: a new viewBox re-lays out every text in it
        var dy = isOpen ? on.extra : 0, h = String(Math.ceil(on.h + dy));
        if (on.extra) {
          on.regionBg.setAttribute("height", on.regionH + dy);
          on.tail.forEach(function (t) { S.at(t.node, 0, t.y + dy); });
        }
        if (svg.getAttribute("height") !== h) {
          svg.setAttribute("height", h);
          svg.setAttribute("viewBox", "0 0 " + svg.getAttribute("width") + " " + h);
        }
      }
      function focusKey(key) { var node = svg && svg.querySelector('[data-key="' + CSS.escape(key) + '"]'); if (node) node.focus(); }

      /* ---- the sum: every tensor counted once, and where the parameters live (HTML, it wraps) ---- */
      var sum = el("p", { class: "f01-sum", "aria-label": "Parameter total" });
      data.addends.forEach(function (a, k) {
        var addend = ["addends", k];
        sum.appendChild(el("span", { class: "f01-op", "aria-hidden": "true", text: k ? "+" : "" }));
        sum.appendChild(el("span", { class: "f01-addend", "data-addend": a.id, "data-sym": a.sym, tabindex: a.sym ? 0 : null },
          ctx.show(el("span", { class: "f01-addend-count k3-num", "data-count": a.count }), addend.concat(["count_text"])),
          ctx.show(el("span", { class: "f01-addend-label" }), addend.concat(["label"]))));
      });
      sum.appendChild(el("span", { class: "f01-op", "aria-hidden": "true", text: "=" }));
      sum.appendChild(el("span", { class: "f01-addend f01-total" },
        ctx.show(el("strong", { class: "f01-addend-count k3-num", "data-count": data.total }), ["text", "total"]),
        ctx.show(el("span", { class: "f01-addend-label" }), ["text", "total_label"])));

      // the share bar and its legend: the parts that hold parameters, by their place in the sum
      var shown = [];
      data.addends.forEach(function (a, k) { if (a.count) shown.push({ a: a, path: ["addends", k] }); });
      var bar = el("div", { class: "f01-bar", role: "img", "data-graphic": "chart", "aria-label": textOf("share_label") });
      shown.forEach(function (s) {
        var a = s.a;
        bar.appendChild(el("span", { class: "f01-seg f01-seg-" + a.id, "data-sym": a.sym, style: "width:" + 100 * a.share + "%",
          title: a.title_text }, a.share > 0.08 ? ctx.show(el("span"), s.path.concat(["share_text"])) : null));
      });

      var config = el("div", { class: "f01-config" },
        el("p", {}, el("span", { class: "k3-label", text: "Config " }), W.html(el("span"), data.config_html)),
        el("p", { class: "f01-padded" }, W.html(el("span"), data.padded_html)));

      var legend = W.legend(shown.map(function (s) {
        return { text: s.a.legend_text, swatch: "box", cls: "f01-seg-" + s.a.id };
      }), { title: textOf("share_title"), hidden: true });

      var root = mount.appendChild(el("div", { class: "f01" }, config, sum, el("div", { class: "f01-share" }, bar, legend)));
      ctx.on(root, "keydown", function (e) {  // Escape folds the layer from anywhere in the figure
        if (e.key === "Escape" && isOpen) { e.preventDefault(); close("key"); }
      });
      var resize = new ResizeObserver(function () { if (Math.floor(mount.clientWidth) !== drawnWidth) draw(); });
      resize.observe(mount);

      return {
        render: function (state) { isOpen = state.layer === "open"; if (svg) show(); else draw(); },
        describe: function (prev, next) { return { path: ["text", next.layer === "open" ? "said_open" : "said_closed"] }; },
        destroy: function () { resize.disconnect(); },
      };
    },
  });
})();
