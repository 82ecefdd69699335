/* FIG 03 · What attention costs: a log-scale slider over N drives the N×N score matrix (drawn
 * log-compressed, with its true size in cells, pixels and screens) and four separate cost
 * readouts. Every value is a kernel result shipped per slider position; nothing is computed here. */
(function () {
  "use strict";
  K3.register("fig-03-attention-cost", {
    state: function (data) { return { n: K3.state.oneOf(data.N, data.N[data.index]) }; },
    setup: function (mount, data, ctx) {
      var W = window.K3W, el = W.el;
      var C = data.constants;
      var last = data.N.length - 1;
      var SVGW = 300, MAX = 250, X0 = 40, Y0 = 30;  // drawing box: the largest N fills MAX px

      function svg(tag) {  // el() for SVG: svg("rect", attrs, child, ...)
        var args = [].slice.call(arguments);
        args[0] = "svg:" + tag;
        return el.apply(null, args);
      }
      function times(g) { return "×" + W.fmt(g, 0) + " per doubling of N"; }
      function at(i) { return data.N[Math.max(0, Math.min(last, i))]; }

      /* ---- slider (values are the builder's N list: the log scale is data); a drag or a key press is
       * one gesture, ended by the input's "change" ---- */
      var slider = W.slider({ label: "Sequence length N", values: data.N, index: data.N.indexOf(ctx.get().n), format: W.int,
        onInput: function (i, how) { ctx.set({ n: data.N[i] }, how); } });
      slider.input.setAttribute("aria-describedby", ctx.id + "-keys");
      slider.input.addEventListener("change", ctx.end);
      slider.input.addEventListener("keydown", function (e) {  // Shift+arrow: a whole doubling of N
        if (!e.shiftKey || (e.key !== "ArrowRight" && e.key !== "ArrowLeft" && e.key !== "ArrowUp" && e.key !== "ArrowDown")) return;
        e.preventDefault();
        var up = e.key === "ArrowRight" || e.key === "ArrowUp";
        ctx.set({ n: at(data.N.indexOf(ctx.get().n) + (up ? data.octave : -data.octave)) }, "key");
      });
      var keysHint = el("span", { id: ctx.id + "-keys", class: "f03-keys k3-stuck-hidden", text: "Shift + arrow doubles or halves N." });

      /* ---- left: the score matrix, log-compressed ---- */
      var maxRect = svg("rect", { x: X0, y: Y0, width: MAX, height: MAX, class: "f03-max" });
      var square = svg("rect", { x: X0, y: Y0, class: "f03-square", "data-sym": "cost-cells" });
      var tri = svg("path", { class: "f03-tri" });
      var grid = svg("path", { class: "f03-grid-lines" });
      /* cell borders while there are few enough cells to see (a drawing detail, not a cost) */
      function gridPath(n, s) {
        if (n > 48) return "";
        var d = "";
        for (var k = 1; k < n; k++) {
          var o = (s * k / n).toFixed(2);
          d += "M" + (X0 + +o) + "," + Y0 + "v" + s + "M" + X0 + "," + (Y0 + +o) + "h" + s;
        }
        return d;
      }
      var topLabel = svg("text", { x: X0, y: Y0 - 10, class: "f03-axis" });
      var sideLabel = svg("text", { class: "f03-axis", "text-anchor": "middle" });
      var maxLabel = svg("text", { x: X0 + MAX, y: Y0 + MAX + 16, class: "f03-axis f03-faint", "text-anchor": "end",
        text: "drawn side for N = " + W.int(data.N[last]) });
      var pic = svg("svg", { viewBox: "0 0 " + SVGW + " " + (Y0 + MAX + 22), class: "f03-svg", role: "img", "data-graphic": "diagram" },
        maxRect, square, tri, grid, topLabel, sideLabel, maxLabel);
      var cellsOut = el("strong", { class: "k3-num", "data-value": "cells" });
      var pxOut = el("span", { class: "k3-num", "data-value": "width_px" });
      var screensOut = el("span", { class: "k3-num", "data-value": "screens" });
      var facts = el("p", { class: "f03-true", "data-sym": "cost-cells" },
        cellsOut, " score cells per head, per layer (N²). Drawn at " + C.px_per_cell + " px per cell, one side would be ",
        pxOut, " px wide: ", screensOut, " screens of " + W.int(C.screen_px) + " px.");
      var left = el("div", { class: "f03-left" }, el("p", { class: "k3-label", text: "The N×N score matrix (log-compressed)" }), pic, facts);

      /* ---- right: four readouts ---- */
      function readout(key, sym, title, when, formula) {
        var big = el("span", { class: "f03-big k3-num", "data-value": key });
        var exact = el("span", { class: "f03-exact k3-num" });
        var grow = el("span", { class: "f03-grow" });
        var card = el("div", { class: "f03-card", "data-card": key, "data-sym": sym, tabindex: 0 },
          el("span", { class: "f03-card-title", text: title }),
          el("span", { class: "f03-when", text: when }),
          el("span", { class: "f03-formula k3-num", text: formula }), big, exact, grow);
        return { node: card, big: big, exact: exact, grow: grow };
      }
      var cards = {
        train: readout("train", "cost-cells", "Training: score matrix held", "materialised per layer and head, before FlashAttention", "N² cells"),
        prefill: readout("prefill", "cost-prefill", "Prefill: attention arithmetic", "FLOPs per layer for QKᵀ and PV over a prompt of N tokens, causal (N²/2 query–key pairs)", "2·N²·D FLOPs"),
        decode: readout("decode", "cost-reads", "Decode: one step's traffic", "cache elements per layer for one new token", "read 2·N·D · write 2·D"),
        cache: readout("cache", "cost-cache", "KV cache kept", "elements per layer, held between steps", "2·N·D elements"),
      };
      var writesOut = el("span", { class: "k3-num", "data-value": "writes", "data-sym": "cost-writes" });
      // under the reads' own unit line, so "elements read" sits right below the number it names
      cards.decode.exact.parentNode.insertBefore(el("span", { class: "f03-writes" }, "writes ", writesOut, " elements (2·D)"), cards.decode.exact.nextSibling);
      var constants = el("p", { class: "f03-constants" }, el("span", { class: "badge badge-illustrative", text: "Illustrative" }),
        " constants: D = " + C.n_heads + " heads × " + C.d_head + " = " + W.int(C.D) + ", " + C.bytes_per_element +
        " bytes per element, " + C.px_per_cell + " px per cell, " + W.int(C.screen_px) + "-px screen.");
      var flash = W.html(el("p", { class: "f03-flash" }), data.flash_html);  // rendered at build time (fact badges)
      var right = el("div", { class: "f03-right" }, el("div", { class: "f03-cards" },
        cards.train.node, cards.prefill.node, cards.decode.node, cards.cache.node), constants, flash);

      mount.appendChild(el("div", { class: "f03" },
        el("div", { class: "f03-controls k3-sticky" }, slider.node, keysHint), el("div", { class: "f03-grid" }, left, right)));

      /* ---- paint ---- */
      function bytes(x) { return W.si(x, "B"); }
      function paint(i) {
        var n = data.N[i], g = data.growth;
        var s = MAX * data.side[i];
        square.setAttribute("width", s);
        square.setAttribute("height", s);
        tri.setAttribute("d", "M" + X0 + "," + Y0 + "L" + X0 + "," + (Y0 + s) + "L" + (X0 + s) + "," + (Y0 + s) + "Z");
        topLabel.textContent = "N = " + W.int(n) + " keys";
        sideLabel.setAttribute("transform", "translate(" + (X0 - 10) + "," + (Y0 + s / 2) + ") rotate(-90)");
        sideLabel.textContent = W.int(n) + " queries";
        pic.setAttribute("aria-label", "Score matrix for N = " + W.int(n) + ": " + W.int(data.cells[i]) +
          " cells, drawn with a logarithmically compressed side; the lower triangle is what a causal model uses.");
        cellsOut.textContent = W.int(data.cells[i]);
        pxOut.textContent = W.int(data.width_px[i]);
        var sc = data.screens[i];
        screensOut.textContent = sc < 100 ? W.fmt(sc, sc < 10 ? 2 : 1) : W.int(sc);
        grid.setAttribute("d", gridPath(data.N[i], s));

        cards.train.big.textContent = W.int(data.cells[i]);
        cards.train.exact.textContent = "cells per head · " + bytes(data.train_bytes_layer[i]) + " per layer for " + C.n_heads + " heads";
        cards.train.grow.textContent = times(g.cells);
        cards.prefill.big.textContent = W.si(data.prefill_flops[i], "FLOP");
        cards.prefill.exact.textContent = W.int(data.prefill_flops[i]);
        cards.prefill.grow.textContent = times(g.prefill);
        cards.decode.big.textContent = W.int(data.decode_reads[i]);
        writesOut.textContent = W.int(data.decode_writes);
        cards.decode.exact.textContent = "elements read · " + bytes(data.decode_read_bytes[i]);
        cards.decode.grow.textContent = "reads " + times(g.reads) + "; writes ×" + W.fmt(g.writes, 0);
        cards.cache.big.textContent = W.int(data.cache_elements[i]);
        cards.cache.exact.textContent = "elements · " + bytes(data.cache_bytes[i]) + " per layer";
        cards.cache.grow.textContent = times(g.cache);
      }
      function describe(i) {
        return "N = " + W.int(data.N[i]) + ": " + W.int(data.cells[i]) + " score cells per head; prefill " +
          W.int(data.prefill_flops[i]) + " FLOPs per layer; one decode step reads " + W.int(data.decode_reads[i]) +
          " and writes " + W.int(data.decode_writes) + " elements; the KV cache holds " + W.int(data.cache_elements[i]) +
          " elements per layer.";
      }

      if (ctx.reducedMotion()) mount.classList.add("f03-still");
      return {
        render: function (s) {
          var i = data.N.indexOf(s.n);
          slider.set(i);
          paint(i);
        },
        describe: function (prev, next) { return describe(data.N.indexOf(next.n)); },
      };
    },
  });
})();
