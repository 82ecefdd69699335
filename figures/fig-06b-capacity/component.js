/* FIG 06b · How much a d×d memory holds: n seeded key–value pairs are stored one after another and
 * every stored key is read back. The chart draws each memory's mean relative error against n (the
 * band: the range over the seeds), with a marker at the chosen n; each memory's row shows its
 * error by age at that n (the stored pairs in tenths, oldest first, coloured by error), the error
 * itself and the numbers it keeps (d² for a state, 2·n·d for the cache). Every number was computed
 * at build time (experiments.recall_sweep) for every d and every n on the slider's grid, and every
 * text written with it (by_d[…]'s texts, the templates in text): this file only places them.
 * State: d = key width; n = pairs stored (snapped to d's grid); m = the picked memory (−1: none). */
(function () {
  "use strict";
  var PALETTE = [["--ink-2", null], ["--violet", null], ["--violet", "6 4"], ["--orange", null], ["--blue", null]];
  var H = 250, M = { l: 40, r: 12, t: 12, b: 40 };

  K3.register("fig-06b-capacity", {
    state: function (data) {
      var top = 4 * data.widths[data.widths.length - 1];
      return { d: K3.state.oneOf(data.widths, data.d_default), n: K3.state.int(1, top, Math.round(data.ratio_default * data.d_default)),
        m: K3.state.int(-1, data.memories.length - 1, -1) };
    },
    setup: function (mount, data, ctx) {
      var W = window.K3W, el = W.el, S = W.svg, mems = data.memories;
      var st = ctx.get(), w, g;  // the state drawn: its width's data and the index of n on that grid
      function of(d) { return data.by_d[data.widths.indexOf(d)]; }
      function colour(i) { return "var(" + PALETTE[i % PALETTE.length][0] + ")"; }
      /* the width shown (by_d[wi()]) and, at its grid point g, the texts memory i's line takes */
      function wi() { return data.widths.indexOf(st.d); }
      function memorySlots(i) {
        var a = ["by_d", wi()], last = w.age[g][i].length - 1;
        return { label: ["memories", i, "label"], n: a.concat(["ns", g]), err: a.concat(["mean_text", i, g]),
          lo: a.concat(["lo_text", i, g]), hi: a.concat(["hi_text", i, g]), first: a.concat(["age_text", g, i, 0]),
          last: a.concat(["age_text", g, i, last]), kept: a.concat(["kept_text", i, g]) };
      }
      function summarySlot() { return ["by_d", wi(), "summary", g]; }

      /* ---------- controls ---------- */
      var widths = W.choice({ label: "Key width d", value: st.d,
        options: data.widths.map(function (d, j) {
          return { value: d, text: ctx.text(["by_d", j, "choice", "text"]), aria: ctx.text(["by_d", j, "choice", "aria"]) };
        }),
        onChange: function (d, how) { var c = ctx.get(); ctx.set({ d: +d, n: of(+d).ns[W.nearest(of(+d).ns, c.n * d / c.d)] }, how); } });
      widths.node.setAttribute("data-sym", "cap-d");
      var vals = of(st.d).ns.slice();
      var slider = W.slider({ label: "Pairs stored", values: vals, index: W.nearest(of(st.d).ns, st.n),
        format: function (n) { var j = data.widths.indexOf(ctx.get().d); return ctx.text(["by_d", j, "slider_text", of(ctx.get().d).ns.indexOf(n)]); },
        onInput: function (i) { ctx.set({ n: vals[i] }, "input"); } });
      slider.input.setAttribute("data-sym", "cap-n");
      slider.input.addEventListener("change", function () { ctx.end(); });

      /* ---------- chart: mean error against n, seeds' range as a band ---------- */
      var svg = S.el("svg", { class: "f06b-chart", role: "img", "data-graphic": "chart", height: H });
      var grid = S.g({ class: "f06b-axes", "aria-hidden": "true" }), bands = S.g({}), lines = S.g({}), marker = S.g({ class: "f06b-marker" });
      svg.appendChild(grid); svg.appendChild(bands); svg.appendChild(lines); svg.appendChild(marker);
      var bandNodes = mems.map(function (_, i) { return bands.appendChild(S.path("", "f06b-band", { "data-m": i, style: "fill:" + colour(i) })); });
      var lineNodes = mems.map(function (_, i) {
        return lines.appendChild(S.path("", "f06b-line", { "data-m": i, style: "stroke:" + colour(i), "stroke-dasharray": PALETTE[i % PALETTE.length][1] }));
      });
      var cursor = marker.appendChild(S.line(0, M.t, 0, H - M.b, "f06b-cursor"));
      var dots = mems.map(function (_, i) { return marker.appendChild(S.el("circle", { r: 4, class: "f06b-dot", style: "fill:" + colour(i) })); });
      var chartBox = el("div", { class: "f06b-chartbox", "data-sym": "cap-err" }, svg);
      var width = 600;
      function X(n) { return M.l + (width - M.l - M.r) * n / (4 * st.d); }
      function Y(e) { return H - M.b - (H - M.t - M.b) * Math.min(e, data.y_max) / data.y_max; }
      function path(ys) { return w.ns.map(function (n, j) { return (j ? "L" : "M") + X(n).toFixed(1) + "," + Y(ys[j]).toFixed(1); }).join(""); }
      function drawCurves() {
        width = Math.max(260, chartBox.clientWidth || 600);
        svg.setAttribute("width", width); svg.setAttribute("viewBox", "0 0 " + width + " " + H);
        grid.textContent = "";
        for (var e = 0; e <= data.y_max + 1e-9; e += 0.5) {
          grid.appendChild(S.line(M.l, Y(e), width - M.r, Y(e), e === 1 ? "f06b-one" : "f06b-grid"));
          grid.appendChild(S.el("text", { x: M.l - 6, y: Y(e) + 4, "text-anchor": "end", text: W.fmt(e, 1) }));
        }
        grid.appendChild(ctx.show(S.el("text", { x: M.l + 6, y: Y(1) - 5, class: "f06b-note" }), ["text", "one_line", width < 560 ? "narrow" : "wide"]));
        for (var k = 0; k <= 4; k++) {
          grid.appendChild(S.el("text", { x: X(k * st.d), y: H - M.b + 16, "text-anchor": k ? "middle" : "start", text: String(k * st.d) }));
        }
        grid.appendChild(S.line(X(st.d), M.t, X(st.d), H - M.b, "f06b-dline"));
        grid.appendChild(S.el("text", { x: X(st.d) + 4, y: M.t + 10, class: "f06b-note", text: "n = d" }));
        grid.appendChild(S.el("text", { x: (M.l + width - M.r) / 2, y: H - 6, "text-anchor": "middle", class: "k3-axis-title", text: "pairs stored, n" }));
        grid.appendChild(S.el("text", { x: 12, y: (M.t + H - M.b) / 2, "text-anchor": "middle",
          transform: "rotate(-90 12 " + (M.t + H - M.b) / 2 + ")", class: "k3-axis-title", text: "recall error" }));
        mems.forEach(function (_, i) {
          lineNodes[i].setAttribute("d", path(w.mean[i]));
          var lo = path(w.lo[i]), hi = w.ns.map(function (n, j) { return "L" + X(n).toFixed(1) + "," + Y(w.hi[i][j]).toFixed(1); }).reverse();
          bandNodes[i].setAttribute("d", lo + hi.join("") + "Z");
        });
      }
      W.scrub({ node: svg, listen: ctx.on, onEnd: ctx.end,
        index: function (x, box) { return W.nearest(w.ns, (x - M.l) / (box.width - M.l - M.r) * 4 * st.d); },
        onIndex: function (i, how) { ctx.set({ n: w.ns[i] }, how); } });
      ctx.on(window, "resize", function () { drawCurves(); paint(); });

      /* ---------- one row per memory: age strip | error | numbers kept ---------- */
      var list = el("div", { class: "f06b-list", role: "listbox", "aria-label": ctx.text(["text", "list_label"]) });
      var head = el("div", { class: "f06b-row f06b-head", "aria-hidden": "true" }, el("span", { text: "memory" }),
        ctx.show(el("span", { class: "f06b-c-age" }), ["text", "age_head"]), el("span", { class: "f06b-c-err", text: "error" }),
        el("span", { class: "f06b-c-kept", text: "numbers kept" }));
      function hidden(t) { return el("span", { class: "visually-hidden", text: t }); }
      var rows = mems.map(function (mem, i) {
        var cells = W.range(data.groups, function () { return el("span", { class: "f06b-cell" }); });
        var strip = el("span", { class: "f06b-strip", "data-sym": "cap-err" });
        cells.forEach(function (c) { strip.appendChild(c); });
        var err = el("span", { class: "f06b-err k3-num", "data-sym": "cap-err" }), range = el("span", { class: "f06b-range k3-num" });
        var fill = el("span", { class: "f06b-fill", style: "background:" + colour(i) }), kept = el("span", { class: "f06b-kept k3-num" });
        var row = el("div", { class: "f06b-row", role: "option", tabindex: -1, "data-m": i, "aria-selected": "false",
          on: { pointerenter: function () { ctx.set({ m: i }, "hover"); },
            click: function (ev) {  // a tap on an age cell also reads it out
              ctx.set({ m: i }, "click");
              var j = rows[i].cells.indexOf(ev.target);
              if (j >= 0) showCell(i, j);
            } } },
          el("span", { class: "f06b-name" }, el("span", { class: "f06b-swatch", style: "border-color:" + colour(i), "aria-hidden": "true" }), mem.label),
          el("span", { class: "f06b-c-age" }, hidden(", error by age "), strip),
          el("span", { class: "f06b-c-err" }, hidden(", error "), err, hidden(" (seeds range "), range, hidden(")")),
          el("span", { class: "f06b-c-kept", "data-sym": "cap-mem" }, el("span", { class: "f06b-track", "aria-hidden": "true" }, fill), hidden(", keeps "), kept));
        if (PALETTE[i % PALETTE.length][1]) row.classList.add("is-dashed");
        strip.addEventListener("pointermove", function (ev) { var j = cells.indexOf(ev.target); if (j >= 0) showCell(i, j); });
        list.appendChild(row);
        return { node: row, cells: cells, err: err, range: range, fill: fill, kept: kept, strip: strip };
      });
      list.addEventListener("pointerleave", function () { ctx.end(); showDetail(); });
      list.addEventListener("keydown", function (e) {
        var cur = st.m, next = null, last = mems.length - 1;
        if (e.key === "ArrowDown") next = Math.min(last, cur + 1);
        else if (e.key === "ArrowUp") next = Math.max(0, cur - 1);
        else if (e.key === "Home") next = 0;
        else if (e.key === "End") next = last;
        else if (e.key === "Escape") next = -1;
        if (next === null) return;
        e.preventDefault();
        ctx.set({ m: next }, "key");
        rows[Math.max(0, next)].node.focus();
      });
      // the colour key: its words around three swatches (0, 1, 2)
      var scaleNote = el("p", { class: "f06b-key" });
      data.text.scale.forEach(function (_, k) {
        if (k) scaleNote.appendChild(el("span", { class: "f06b-cell", "aria-hidden": "true" }));
        scaleNote.appendChild(ctx.show(el("span"), ["text", "scale", k]));
      });
      var detail = el("p", { class: "f06b-detail" });
      mount.appendChild(el("div", { class: "f06b" },
        el("div", { class: "f06b-controls" }, el("div", { class: "k3-row" }, el("span", { class: "k3-label", text: "Key width" }), widths.node), slider.node),
        chartBox, el("div", { class: "f06b-table" }, head, list), scaleNote, detail));
      [0, 1, 2].forEach(function (e, j) { tint(scaleNote.querySelectorAll(".f06b-cell")[j], e); });
      function tint(node, e) { node.style.setProperty("--heat", Math.round(100 * Math.min(1, e / 2)) + "%"); }  // linear, 2 and above: full

      function cellSlots(i, j) {  // memory i's age group j at the current n
        var a = ["by_d", wi()];
        return { pairs: a.concat(["age_pairs", g, j]), err: a.concat(["age_text", g, i, j]) };
      }
      function showCell(i, j) {
        if (j >= w.age_starts[g].length) return;
        var slots = cellSlots(i, j), a = ["by_d", wi()];
        slots.label = ["memories", i, "label"];
        slots.n = a.concat(["ns", g]);
        slots.place = ["text", "age_place", w.age_starts[g].length - 1, j];
        ctx.show(detail, ["text", "cell"], slots);
      }
      function showDetail() {  // the picked memory's line, or the summary
        if (st.m >= 0) ctx.show(detail, ["text", "memory"], memorySlots(st.m));
        else ctx.show(detail, summarySlot());
      }

      function paint() {
        var n = w.ns[g], top = w.kept.reduce(function (a, k) { return Math.max(a, k[k.length - 1]); }, 0);
        S.at(cursor, X(n), 0);
        mems.forEach(function (_, i) {
          dots[i].setAttribute("cx", X(n)); dots[i].setAttribute("cy", Y(w.mean[i][g]));
          [lineNodes[i], bandNodes[i], dots[i]].forEach(function (node) {
            node.classList.toggle("is-sel", st.m === i); node.classList.toggle("is-dim", st.m >= 0 && st.m !== i);
          });
          var r = rows[i], a = w.age[g][i];
          r.cells.forEach(function (c, j) {
            c.hidden = j >= a.length;
            if (j < a.length) { tint(c, a[j]); c.title = ctx.text(["text", "cell_title"], cellSlots(i, j)); }
          });
          var at = ["by_d", wi()];
          ctx.show(r.err, at.concat(["mean_text", i, g]));
          ctx.show(r.range, ["text", "range"], { lo: at.concat(["lo_text", i, g]), hi: at.concat(["hi_text", i, g]) });
          r.fill.style.width = (100 * w.kept[i][g] / top) + "%";
          ctx.show(r.kept, at.concat(["kept_text", i, g]));
          r.node.setAttribute("aria-selected", st.m === i ? "true" : "false");
          r.node.tabIndex = i === Math.max(0, st.m) ? 0 : -1;
        });
        showDetail();
        svg.setAttribute("aria-label", ctx.text(["by_d", wi(), "chart_label"], { n: ["by_d", wi(), "ns", g], summary: summarySlot() }));
      }

      return {
        render: function (state, prev) {
          var newD = !prev || prev.d !== state.d;
          st = state; w = of(state.d); g = W.nearest(w.ns, state.n);
          widths.set(state.d);
          if (newD) { vals.length = 0; w.ns.forEach(function (x) { vals.push(x); }); slider.input.max = vals.length - 1; drawCurves(); }
          slider.set(g);
          paint();
        },
        describe: function (prev, s) {  // a new memory: its line (or the summary); a new width or n: every error first
          if (prev.d === s.d && prev.n === s.n) return s.m >= 0 ? { path: ["text", "memory"], slots: memorySlots(s.m) } : { path: summarySlot() };
          var slots = { summary: summarySlot() };
          mems.forEach(function (_, i) { slots["m" + i] = ["by_d", wi(), "mean_text", i, g]; });
          return { path: ["text", "errors"], slots: slots };
        },
      };
    },
  });
})();
