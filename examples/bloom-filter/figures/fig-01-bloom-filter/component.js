/* FIG 01 · A Bloom filter filling up: the bit array after n insertions (a bit is drawn set when the
 * builder's first_set says it was set by then; the k bits the n-th item points at are outlined) and an SVG
 * line chart of the measured and formula false-positive rates against n, with a marker at n.
 * State: k = number of hash functions (one of data.k_values), n = items inserted. */
(function () {
  "use strict";
  var VW = 360, VH = 220, M = { l: 44, r: 10, t: 10, b: 34 };  // chart viewBox and margins

  K3.register("fig-01-bloom-filter", {
    state: function (data) {
      return { k: K3.state.oneOf(data.k_values, data.k_default), n: K3.state.int(0, data.n_max, data.n_default) };
    },
    setup: function (mount, data, ctx) {
      var W = window.K3W, el = W.el, m = data.m;
      var choice = W.choice({ label: "Hash functions k", value: ctx.get().k,
        options: data.k_values.map(function (k) { return { value: k, text: "k = " + k, sym: "bf-k" }; }),
        onChange: function (k, how) { ctx.set({ k: +k }, how); } });
      var slider = W.slider({ label: "Items inserted", values: W.range(data.n_max + 1), index: ctx.get().n,
        format: function (n) { return "n = " + n; }, onInput: function (i, how) { ctx.set({ n: i }, how); } });
      slider.input.setAttribute("data-sym", "bf-n");
      slider.input.addEventListener("change", function () { ctx.end(); });

      var cells = W.range(m).map(function () { return el("span", { class: "f01b-bit" }); });
      var grid = el("div", { class: "f01b-bits", role: "img", "data-sym": "bf-m" });
      cells.forEach(function (c) { grid.appendChild(c); });

      var x = function (n) { return M.l + (VW - M.l - M.r) * n / data.n_max; };
      var y = function (p) { return VH - M.b - (VH - M.t - M.b) * p; };
      var path = function (ys) { return ys.map(function (p, n) { return (n ? "L" : "M") + x(n).toFixed(1) + " " + y(p).toFixed(1); }).join(""); };
      var svg = el("svg:svg", { class: "f01b-chart", viewBox: "0 0 " + VW + " " + VH, role: "img", "data-graphic": "chart", "data-sym": "bf-p" });
      [0, 0.25, 0.5, 0.75, 1].forEach(function (p) {
        svg.appendChild(el("svg:line", { class: "f01b-grid", x1: M.l, x2: VW - M.r, y1: y(p), y2: y(p) }));
        svg.appendChild(el("svg:text", { class: "f01b-tick", x: M.l - 6, y: y(p) + 4, "text-anchor": "end", text: W.fmt(p, 2) }));
      });
      [0, data.n_max / 2, data.n_max].forEach(function (n) {
        svg.appendChild(el("svg:text", { class: "f01b-tick", x: x(n), y: VH - M.b + 15, "text-anchor": "middle", text: String(n) }));
      });
      svg.appendChild(el("svg:text", { class: "f01b-tick", x: (M.l + VW - M.r) / 2, y: VH - 3, "text-anchor": "middle", text: "items inserted n" }));
      var formulaLine = svg.appendChild(el("svg:path", { class: "f01b-formula" }));
      var measuredLine = svg.appendChild(el("svg:path", { class: "f01b-measured" }));
      var marker = svg.appendChild(el("svg:line", { class: "f01b-marker", y1: M.t, y2: VH - M.b }));
      var dot = svg.appendChild(el("svg:circle", { class: "f01b-dot", r: 4 }));
      var legend = W.legend([{ text: "measured, this filter", swatch: "line", cls: "f01b-key-measured" },
        { text: "(1 − e^(−kn/m))^k", swatch: "line", dash: true, cls: "f01b-key-formula" }], { title: "False-positive rate:" });
      var readout = el("p", { class: "f01b-readout" });
      mount.appendChild(el("div", { class: "f01b" }, el("div", { class: "f01b-controls" }, choice.node, slider.node),
        el("div", { class: "f01b-panels" }, grid, el("div", { class: "f01b-plot" }, svg, legend)), readout));

      function words(s) {
        var i = data.k_values.indexOf(s.k), set = data.bits_set[i][s.n];
        return "After " + s.n + " items with k = " + s.k + ": " + set + " of " + m + " bits set; wrong yes to " +
          W.fmt(100 * data.measured[i][s.n], 1) + "% of " + W.int(data.queries) + " never-inserted items, formula " +
          W.fmt(100 * data.formula[i][s.n], 1) + "%";
      }
      var drawnK = null;
      return {
        render: function (s) {
          var i = data.k_values.indexOf(s.k), first = data.first_set[i];
          var last = s.n > 0 ? data.items[i][s.n - 1] : [];  // the k bits the latest item points at
          choice.set(s.k);
          slider.set(s.n);
          cells.forEach(function (c, b) {
            c.classList.toggle("is-set", first[b] >= 1 && first[b] <= s.n);
            c.classList.toggle("is-last", last.indexOf(b) >= 0);
          });
          if (drawnK !== s.k) {
            measuredLine.setAttribute("d", path(data.measured[i]));
            formulaLine.setAttribute("d", path(data.formula[i]));
            drawnK = s.k;
          }
          marker.setAttribute("x1", x(s.n));
          marker.setAttribute("x2", x(s.n));
          dot.setAttribute("cx", x(s.n));
          dot.setAttribute("cy", y(data.measured[i][s.n]));
          readout.textContent = words(s) + ".";
          grid.setAttribute("aria-label", "Bit array: " + data.bits_set[i][s.n] + " of " + m + " bits set.");
          svg.setAttribute("aria-label", "False-positive rate against items inserted, k = " + s.k + "; at n = " + s.n +
            ": measured " + W.fmt(data.measured[i][s.n], 3) + ", formula " + W.fmt(data.formula[i][s.n], 3) + ".");
        },
        describe: function (prev, next) { return words(next) + "."; },
      };
    },
  });
})();
