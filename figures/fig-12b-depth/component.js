/* FIG 12b · What depth does to the stream a layer reads (experiments.depth_experiment, at build time;
 * every sentence is written there too, builder.reader_text, and placed here).
 * One seeded stack of random MLP layers read three ways: the plain residual stream, attention
 * residuals with random queries, and the same with the reading layer's query aimed at layer
 * `target`. Two log–log charts over the reading layer l (the size of its input; the target's share
 * of it), and a strip of every source's weight in the mix at the chosen l.
 * State: l = the reading layer (a stop of data.depths), q = which attention-residual query the
 * strip and readouts show ("aligned" | "random"), s = the selected source (0 = the embedding). */
(function () {
  "use strict";
  var VW = 360, VH = 216, M = { l: 42, r: 12, t: 10, b: 38 };  // chart viewBox and plot margins

  K3.register("fig-12b-depth", {
    state: function (data) {
      return { l: K3.state.oneOf(data.depths, data.k3_depth), q: K3.state.oneOf(["aligned", "random"], "aligned"),
        s: K3.state.int(0, data.n_layers - 1, data.target) };
    },
    setup: function (mount, data, ctx) {
      var W = window.K3W, el = W.el, S = W.svg, R = data.rules, D = data.depths, tg = data.target;
      var lo = Math.log(D[0]), hi = Math.log(data.n_layers);
      function x(l) { return M.l + (VW - M.l - M.r) * (Math.log(l) - lo) / (hi - lo); }
      function jOf(st) { return D.indexOf(st.l); }
      function sel(st) { return Math.min(st.s, st.l - 1); }  // a source below the reading layer

      /* ---------- controls ---------- */
      var depth = W.slider({ label: "Reading layer", values: D, index: jOf(ctx.get()),
        format: function (l) { return ctx.text(["depth_text", D.indexOf(l)]); },
        onInput: function (i) { ctx.set({ l: D[i] }, "input"); } });
      depth.input.addEventListener("change", function () { ctx.end(); });
      depth.node.classList.add("f12b-depth");
      var query = W.choice({ label: "Attention-residual query", value: ctx.get().q,
        options: ["aligned", "random"].map(function (q) {
          var o = ["text", "query_option", q];
          return { value: q, text: ctx.text(o.concat("text")), aria: ctx.text(o.concat("aria")), sym: "ar-query" };
        }),
        onChange: function (v, how) { ctx.set({ q: v }, how); } });

      /* ---------- two log–log charts over the reading layer ---------- */
      function chart(title, note, sym, axis, lines) {
        var a = axis.log_range, ph = VH - M.t - M.b;
        function y(v) { return M.t + ph * (1 - (Math.log10(Math.max(v, Math.pow(10, a[0]))) - a[0]) / (a[1] - a[0])); }
        var g = S.g({ class: "f12b-axes" });
        axis.ticks.forEach(function (v, k) {
          g.appendChild(S.line(M.l, y(v), VW - M.r, y(v), "f12b-grid"));
          g.appendChild(S.el("text", { x: M.l - 5, y: y(v) + 4, "text-anchor": "end", text: axis.tick_text[k] }));
        });
        [2, 4, 8, 16, 32, 64, data.k3_depth].forEach(function (l) {
          if (l < D[0] || l > data.n_layers) return;
          g.appendChild(S.el("text", { x: x(l), y: VH - M.b + 15, "text-anchor": "middle", class: l === data.k3_depth ? "f12b-k3" : null, text: String(l) }));
        });
        g.appendChild(S.line(x(data.k3_depth), M.t, x(data.k3_depth), VH - M.b, "f12b-k3-line"));
        g.appendChild(ctx.show(S.el("text", { x: (M.l + VW - M.r) / 2, y: VH - 6, "text-anchor": "middle", class: "k3-axis-title" }), ["text", "x_title"]));
        var paths = lines.map(function (ln) { return S.path(ln.d(y), "f12b-l f12b-l-" + ln.cls); });
        var cursor = S.path("", "f12b-cursor");
        var dots = lines.map(function (ln) { return S.el("circle", { r: 4, class: "f12b-dot f12b-d-" + ln.cls }); });
        var svg = S.el("svg", { viewBox: "0 0 " + VW + " " + VH, class: "f12b-svg", role: "img", "data-graphic": "chart" }, g, cursor);
        paths.concat(dots).forEach(function (n) { svg.appendChild(n); });
        scrub(svg);
        return { node: el("figure", { class: "f12b-chart", "data-sym": sym },
          el("figcaption", { class: "f12b-title" }, ctx.text(title), ctx.show(el("span"), note)), svg),
          svg: svg, paint: function (j, q) {
            cursor.setAttribute("d", "M" + x(D[j]).toFixed(1) + "," + M.t + "V" + (VH - M.b));
            lines.forEach(function (ln, k) {
              dots[k].setAttribute("cx", x(D[j])); dots[k].setAttribute("cy", y(ln.v(j)));
              var dim = (ln.cls === "aligned" || ln.cls === "random") && ln.cls !== q;
              paths[k].classList.toggle("is-dim", dim); dots[k].classList.toggle("is-dim", dim);
            });
          } };
      }
      function curve(vals) {  // vals(j) at every stop → a path through the points
        return function (y) { return D.map(function (l, j) { return (j ? "L" : "M") + x(l).toFixed(1) + "," + y(vals(j)).toFixed(1); }).join(""); };
      }
      function line(cls, vals) { return { cls: cls, v: vals, d: curve(vals) }; }
      function rms(k) { return function (j) { return R[k].rms[j]; }; }
      function share(k) { return function (j) { return R[k].shares[j][tg]; }; }
      var size = chart(["text", "size_title"], ["text", "size_note"], "depth-rms", data.rms_axis,
        [line("plain", rms("plain")), line("random", rms("random")), line("aligned", rms("aligned"))]);
      var part = chart(["text", "share_title"], ["text", "share_note"], "depth-share", data.share_axis,
        [line("equal", function (j) { return R.plain.weights[j][0]; }), line("plain", share("plain")),
          line("random", share("random")), line("aligned", share("aligned"))]);
      function scrub(svg) {  // drag or tap along a chart: the nearest reading layer
        var xs = D.map(x);
        W.scrub({ node: svg, listen: ctx.on, onEnd: ctx.end,
          index: function (px, box) { return W.nearest(xs, px * VW / box.width); },
          onIndex: function (i, how) { ctx.set({ l: D[i] }, how); } });
      }
      function key(cls) {
        return { node: ctx.show(el("span"), ["text", "key", cls]), swatch: "line", dash: cls === "random" || cls === "equal", cls: "f12b-s-" + cls };
      }

      /* ---------- the strip: every source's weight in the mix at layer l ---------- */
      var BW = 600, BH = 24;
      function bar(cls, sym) {
        var svg = el("svg:svg", { class: "f12b-bar f12b-bar-" + cls, viewBox: "0 0 " + BW + " " + BH, preserveAspectRatio: "none",
          "aria-hidden": "true", "data-sym": sym });
        var segs = [];
        for (var i = 0; i < data.n_layers; i++) segs.push(svg.appendChild(el("svg:rect", { class: "f12b-seg", y: 0, height: BH, "data-i": i })));
        var mark = svg.appendChild(el("svg:rect", { class: "f12b-mark", y: 1, height: BH - 2, "vector-effect": "non-scaling-stroke" }));
        ctx.on(svg, "pointerover", function (e) { var i = e.target.getAttribute("data-i"); if (i !== null) ctx.set({ s: +i }, "hover"); });
        ctx.on(svg, "click", function (e) { var i = e.target.getAttribute("data-i"); if (i !== null) ctx.set({ s: +i }, "click"); });
        ctx.on(svg, "pointerleave", ctx.end);
        return { node: svg, paint: function (ws, s) {
          var at = 0;
          segs.forEach(function (r, i) {
            var w = i < ws.length ? ws[i] * BW : 0;
            r.setAttribute("x", at); r.setAttribute("width", Math.max(0, w - (ws.length > 40 ? 0.4 : 1.2)));
            if (i === s) { mark.setAttribute("x", at); mark.setAttribute("width", Math.max(w, 0.5)); }
            at += w;
          });
        } };
      }
      var plainBar = bar("plain", null), attnBar = bar("attn", "ar-weights");
      var picker = el("div", { class: "f12b-picker", role: "slider", tabindex: 0, "aria-label": "Source", "data-sym": "ar-sources",
        "aria-valuemin": 0 });
      ctx.on(picker, "keydown", function (e) {
        var st = ctx.get(), s = sel(st), n = st.l - 1, next = { ArrowRight: s + 1, ArrowUp: s + 1, ArrowLeft: s - 1, ArrowDown: s - 1,
          PageUp: s + 10, PageDown: s - 10, Home: 0, End: n }[e.key];
        if (next === undefined) return;
        e.preventDefault();
        ctx.set({ s: Math.max(0, Math.min(n, next)) }, "key");
      });
      var attnLabel = el("span", { class: "f12b-row-label" });
      var ends = el("span", { class: "f12b-ends" });
      var detail = el("p", { class: "f12b-detail" });
      var summary = el("p", { class: "f12b-summary" });
      picker.appendChild(el("div", { class: "f12b-row" }, ctx.show(el("span", { class: "f12b-row-label" }), ["text", "key", "plain"]), plainBar.node));
      picker.appendChild(el("div", { class: "f12b-row" }, attnLabel, attnBar.node));
      picker.appendChild(ends);

      mount.appendChild(el("div", { class: "f12b" },
        el("div", { class: "f12b-controls" }, depth.node,
          el("div", { class: "k3-row" }, el("span", { class: "k3-label", text: "Query" }), query.node)),
        el("div", { class: "f12b-charts" }, size.node, part.node),
        W.legend(["plain", "aligned", "random", "equal"].map(key)),
        summary,
        el("div", { class: "f12b-strip" }, ctx.show(el("p", { class: "f12b-title" }), ["text", "strip_title"]), picker),
        detail,
        W.html(el("p", { class: "f12b-k3" }), data.k3_html)));  // trusted: rendered by the build from k3_md

      /* the source sentence: the chosen source's weight and share in both ways of reading layer l */
      function tell(st) {
        var j = jOf(st), i = sel(st), plain = ["rules_text", "plain"], attn = ["rules_text", st.q];
        return { path: ["text", "source", st.q], slots: { layer: ["depths", j], source: ["source_name", i],
          plain_weight: plain.concat("weight_text", j, i), plain_share: plain.concat("share_text", j, i),
          weight: attn.concat("weight_text", j, i), share: attn.concat("share_text", j, i) } };
      }
      function paint(st) {
        var j = jOf(st), i = sel(st), r = R[st.q];
        depth.set(j);
        query.set(st.q);
        size.paint(j, st.q);
        part.paint(j, st.q);
        plainBar.paint(R.plain.weights[j], i);
        attnBar.paint(r.weights[j], i);
        ctx.show(attnLabel, ["text", "attn_row", st.q]);
        ctx.show(ends, ["ends_text", j]);
        picker.setAttribute("aria-valuemax", st.l - 1);
        picker.setAttribute("aria-valuenow", i);
        picker.setAttribute("aria-valuetext", ctx.text(["source_name", i]));
        ctx.show(summary, ["text", "depth", st.q, j]);
        var said = tell(st);
        ctx.show(detail, said.path, said.slots);
        size.svg.setAttribute("aria-label", ctx.text(["text", "size_chart", st.q, j]));
        part.svg.setAttribute("aria-label", ctx.text(["text", "share_chart", st.q, j]));
      }
      return {
        render: paint,
        describe: function (prev, next) {
          return prev.l === next.l && prev.q === next.q ? tell(next) : { path: ["text", "depth", next.q, jOf(next)] };
        },
      };
    },
  });
})();
