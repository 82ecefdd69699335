/* FIG 03 · What attention costs: a log-scale slider over N drives the N×N score matrix (drawn
 * log-compressed, with its true size in cells, pixels and screens) and four separate cost
 * readouts. Every value is a kernel result shipped per slider position, and every text that shows
 * one is written by the builder (numbers as the page prints them, sentences, {slot} templates):
 * nothing is computed or worded here. */
(function () {
  "use strict";
  K3.register("fig-03-attention-cost", {
    state: function (data) { return { n: K3.state.oneOf(data.N, data.N[data.index]) }; },
    setup: function (mount, data, ctx) {
      var W = window.K3W, el = W.el;
      var last = data.N.length - 1, TEXT = ["text"];
      var SVGW = 300, MAX = 250, X0 = 40, Y0 = 30;  // drawing box: the largest N fills MAX px

      function svg(tag) {  // el() for SVG: svg("rect", attrs, child, ...)
        var args = [].slice.call(arguments);
        args[0] = "svg:" + tag;
        return el.apply(null, args);
      }
      function say(key) { return TEXT.concat([key]); }
      function shown(key) { return ctx.show(el("span"), say(key)); }  // a fixed text beside a number
      function at(i) { return data.N[Math.max(0, Math.min(last, i))]; }

      /* ---- slider (values are the builder's N list: the log scale is data); a drag or a key press is
       * one gesture, ended by the input's "change" ---- */
      var slider = W.slider({ label: "Sequence length N", values: data.N, index: data.N.indexOf(ctx.get().n),
        format: function (n) { return ctx.text(["n_text", data.N.indexOf(n)]); },
        onInput: function (i, how) { ctx.set({ n: data.N[i] }, how); } });
      slider.input.setAttribute("aria-describedby", ctx.id + "-keys");
      slider.input.addEventListener("change", ctx.end);
      slider.input.addEventListener("keydown", function (e) {  // Shift+arrow: a whole doubling of N
        if (!e.shiftKey || (e.key !== "ArrowRight" && e.key !== "ArrowLeft" && e.key !== "ArrowUp" && e.key !== "ArrowDown")) return;
        e.preventDefault();
        var up = e.key === "ArrowRight" || e.key === "ArrowUp";
        ctx.set({ n: at(data.N.indexOf(ctx.get().n) + (up ? data.octave : -data.octave)) }, "key");
      });
      var keysHint = ctx.show(el("span", { id: ctx.id + "-keys", class: "f03-keys k3-stuck-hidden" }), say("keys_hint"));

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
      var maxLabel = ctx.show(svg("text", { x: X0 + MAX, y: Y0 + MAX + 16, class: "f03-axis f03-faint", "text-anchor": "end" }),
        say("max_label"));
      var pic = svg("svg", { viewBox: "0 0 " + SVGW + " " + (Y0 + MAX + 22), class: "f03-svg", role: "img", "data-graphic": "diagram" },
        maxRect, square, tri, grid, topLabel, sideLabel, maxLabel);
      var cellsOut = el("strong", { class: "k3-num", "data-value": "cells" });
      var pxOut = el("span", { class: "k3-num", "data-value": "width_px" });
      var screensOut = el("span", { class: "k3-num", "data-value": "screens" });
      var facts = el("p", { class: "f03-true", "data-sym": "cost-cells" },
        cellsOut, shown("cells_after"), pxOut, shown("px_after"), screensOut, shown("screens_after"));
      var left = el("div", { class: "f03-left" }, ctx.show(el("p", { class: "k3-label" }), say("matrix_label")), pic, facts);

      /* ---- right: four readouts (the builder's cards: title, when, formula, growth per doubling) ---- */
      var cards = {};
      data.cards.forEach(function (c, k) {
        var card = ["cards", k];
        var big = el("span", { class: "f03-big k3-num", "data-value": c.key });
        var exact = el("span", { class: "f03-exact k3-num" });
        cards[c.key] = { big: big, exact: exact, node: el("div", { class: "f03-card", "data-card": c.key, "data-sym": c.sym, tabindex: 0 },
          ctx.show(el("span", { class: "f03-card-title" }), card.concat(["title"])),
          ctx.show(el("span", { class: "f03-when" }), card.concat(["when"])),
          ctx.show(el("span", { class: "f03-formula k3-num" }), card.concat(["formula"])), big, exact,
          ctx.show(el("span", { class: "f03-grow" }), card.concat(["grow"]))) };
      });
      var writesOut = ctx.show(el("span", { class: "k3-num", "data-value": "writes", "data-sym": "cost-writes" }), ["writes_text"]);
      // under the reads' own unit line, so "elements read" sits right below the number it names
      cards.decode.exact.parentNode.insertBefore(el("span", { class: "f03-writes" }, shown("writes_before"), writesOut,
        shown("writes_after")), cards.decode.exact.nextSibling);
      var constants = el("p", { class: "f03-constants" }, el("span", { class: "badge badge-illustrative", text: "Illustrative" }),
        shown("constants"));
      var flash = W.html(el("p", { class: "f03-flash" }), data.flash_html);  // rendered at build time (fact badges)
      var right = el("div", { class: "f03-right" }, el("div", { class: "f03-cards" },
        cards.train.node, cards.prefill.node, cards.decode.node, cards.cache.node), constants, flash);

      mount.appendChild(el("div", { class: "f03" },
        el("div", { class: "f03-controls k3-sticky" }, slider.node, keysHint), el("div", { class: "f03-grid" }, left, right)));

      /* ---- paint ---- */
      function paint(i) {
        var s = MAX * data.side[i], n = { n: ["n_text", i] };
        square.setAttribute("width", s);
        square.setAttribute("height", s);
        tri.setAttribute("d", "M" + X0 + "," + Y0 + "L" + X0 + "," + (Y0 + s) + "L" + (X0 + s) + "," + (Y0 + s) + "Z");
        ctx.show(topLabel, say("top_label"), n);
        sideLabel.setAttribute("transform", "translate(" + (X0 - 10) + "," + (Y0 + s / 2) + ") rotate(-90)");
        ctx.show(sideLabel, say("side_label"), n);
        pic.setAttribute("aria-label", ctx.text(say("matrix_aria"), { n: ["n_text", i], cells: ["cells_text", i] }));
        ctx.show(cellsOut, ["cells_text", i]);
        ctx.show(pxOut, ["width_px_text", i]);
        ctx.show(screensOut, ["screens_text", i]);
        grid.setAttribute("d", gridPath(data.N[i], s));

        ctx.show(cards.train.big, ["cells_text", i]);
        ctx.show(cards.train.exact, say("train_exact"), { bytes: ["train_bytes_text", i] });
        ctx.show(cards.prefill.big, ["prefill_si_text", i]);
        ctx.show(cards.prefill.exact, ["prefill_text", i]);
        ctx.show(cards.decode.big, ["reads_text", i]);
        ctx.show(cards.decode.exact, say("reads_exact"), { bytes: ["read_bytes_text", i] });
        ctx.show(cards.cache.big, ["cache_text", i]);
        ctx.show(cards.cache.exact, say("cache_exact"), { bytes: ["cache_bytes_text", i] });
      }
      function describe(i) {
        return { path: say("describe"), slots: { n: ["n_text", i], cells: ["cells_text", i], prefill: ["prefill_text", i],
          reads: ["reads_text", i], writes: ["writes_text"], cache: ["cache_text", i] } };
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
