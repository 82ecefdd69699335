/* FIG 12 · Attention residuals: what one layer reads from the sources below it (the embedding
 * and the outputs of the l layers below). Left, the plain residual stream's equal shares
 * 1/(l + 1) (residual_shares); right, softmax weights over depth from a learned query
 * (attention_residual). "Layers below" picks l; "New query" steps to the next seeded query;
 * every number was computed at build time for every (query, l), and every sentence written there
 * (builder.reader_text): this file places them.
 * State: q = the query (0 is w = 0), l = layers below, src = the selected source (−1: none);
 * a source above the reading layer cannot be selected, so it reads as none. */
(function () {
  "use strict";

  K3.register("fig-12-attention-residuals", {
    state: function (data) {
      var depths = data.depths;
      return { q: K3.state.int(0, data.weights.length - 1, 1), l: K3.state.oneOf(depths, depths[depths.length - 1]),
        src: K3.state.int(-1, data.labels.length - 1, -1) };
    },
    setup: function (mount, data, ctx) {
      var W = window.K3W, el = W.el;
      var n = data.labels.length, nq = data.weights.length, depths = data.depths;
      var SVGW = 600, SVGH = 34;  // stacked-bar viewBox; it stretches to the column width
      var q, li, src;  // the state being drawn: query, index into depths, selected source (−1: none)

      function selected(s) { return s.src <= s.l ? s.src : -1; }
      function select(i, how) { ctx.set({ src: i }, how); }
      function setQuery(i, how) { ctx.set({ q: i }, how); }

      /* ---- controls: query stepper, New query button, the query vector itself ---- */
      var stepper = W.stepper({
        label: "Query", count: nq, value: ctx.get().q,
        format: function (i) { return ctx.text(["query_step", i]); },
        onChange: function (i, how) { setQuery(i, how); },
      });
      var newBtn = el("button", { type: "button", class: "k3-btn f12-new", "aria-keyshortcuts": "N",
        text: "New query", on: { click: function () { setQuery(q + 1, "click"); } } });
      var depth = W.slider({
        label: "Layers below", values: depths, index: depths.indexOf(ctx.get().l),
        format: function (l) { return ctx.text(["depth_text", depths.indexOf(l)]); },
        onInput: function (i) {  // the selected source may no longer be below the reading layer
          ctx.set({ l: depths[i], src: ctx.get().src > depths[i] ? -1 : ctx.get().src }, "input");
        },
      });
      depth.input.addEventListener("change", function () { ctx.end(); });  // a finished drag is one history entry
      depth.node.classList.add("f12-depth");
      var dims = []; for (var k = 0; k < data.d; k++) dims.push("w" + (k + 1));
      var wView = W.matrix({ caption: "learned query w", cols: dims, digits: 2, sym: "ar-query" });

      /* ---- the two stacked bars (one segment per source) ---- */
      function stackedBar(sym, titlePath) {
        var svg = el("svg:svg", { class: "f12-stack", viewBox: "0 0 " + SVGW + " " + SVGH, preserveAspectRatio: "none",
          role: "img", "data-graphic": "chart", "aria-label": ctx.text(titlePath), "aria-describedby": ctx.id + "-bars-key", "data-sym": sym });
        var segs = data.labels.map(function (_, i) {
          return svg.appendChild(el("svg:rect", { class: "f12-seg", y: 0, height: SVGH, "data-i": i }));
        });
        svg.addEventListener("pointerover", function (e) { var i = e.target.getAttribute("data-i"); if (i !== null) select(+i, "hover"); });
        svg.addEventListener("click", function (e) { var i = e.target.getAttribute("data-i"); if (i !== null) select(+i, "click"); });
        svg.addEventListener("pointerleave", ctx.end);  // a sweep over the segments is one history entry
        return { node: svg, paint: function (ws) {
          var x = 0;
          segs.forEach(function (r, i) {
            var w = ws[i] * SVGW;
            r.setAttribute("x", x); r.setAttribute("width", Math.max(0, w - 1.5));  // 1.5: a hairline gap between segments
            r.classList.toggle("is-sel", i === src);
            x += w;
          });
        } };
      }
      var plainBar = stackedBar(null, ["text", "plain_bar"]);
      var attnBar = stackedBar("ar-weights", ["text", "attn_bar"]);

      /* ---- one row per source: label | share bar + value | score | weight bar + value ---- */
      var list = el("div", { class: "f12-list", role: "listbox", "aria-label": ctx.text(["text", "list"]),
      on: { pointerleave: ctx.end } });
      var head = el("div", { class: "f12-row f12-head", "aria-hidden": "true" },
        el("span", { text: "source" }), el("span", { class: "f12-c-plain", text: "plain share" }),
        el("span", { class: "f12-c-score", text: "score w·k" }), el("span", { class: "f12-c-attn", text: "weight α" }));
      var rows = data.labels.map(function (label, i) {
        var share = el("span", { class: "f12-val k3-num f12-share" });
        var score = el("span", { class: "f12-val k3-num f12-score" });
        var alpha = el("span", { class: "f12-val k3-num f12-alpha", "data-sym": "ar-weights" });
        var shareFill = el("span", { class: "f12-fill" }), alphaFill = el("span", { class: "f12-fill" });
        var row = el("div", { class: "f12-row", role: "option", tabindex: -1, "data-i": i,
          on: { pointerenter: function () { if (i <= depths[li]) select(i, "hover"); },
                click: function () { if (i <= depths[li]) select(i, "click"); } } },
          el("span", { class: "f12-label", "data-sym": "ar-sources", text: label }),
          el("span", { class: "f12-cell f12-c-plain" }, el("span", { class: "f12-track" }, shareFill), hidden(", plain share"), share),
          el("span", { class: "f12-cell f12-c-score" }, hidden(", score"), score),
          el("span", { class: "f12-cell f12-c-attn" }, el("span", { class: "f12-track" }, alphaFill), hidden(", weight"), alpha));
        return { node: list.appendChild(row), share: share, score: score, alpha: alpha, shareFill: shareFill, alphaFill: alphaFill };
      });
      function hidden(text) { return el("span", { class: "visually-hidden", text: text + " " }); }  // names the option's numbers
      list.addEventListener("keydown", function (e) {
        var cur = src < 0 ? 0 : src, next = null, last = depths[li];  // only the sources this layer has
        if (e.key === "ArrowDown") next = Math.min(last, src < 0 ? 0 : cur + 1);
        else if (e.key === "ArrowUp") next = Math.max(0, cur - 1);
        else if (e.key === "Home") next = 0;
        else if (e.key === "End") next = last;
        if (next === null) return;
        e.preventDefault();
        select(next, "key");
        rows[next].node.focus();
      });
      var sums = el("p", { class: "f12-sums k3-num" });
      var detail = el("p", { class: "f12-detail" });
      var k3 = el("p", { class: "f12-k3" });
      W.html(k3, data.k3_html);  // trusted: rendered by the build pipeline from the builder's k3_md

      mount.appendChild(el("div", { class: "f12" },
        el("div", { class: "f12-controls" }, depth.node, stepper.node, newBtn,
          el("div", { class: "k3-scroll f12-w" }, wView.node)),
        el("div", { class: "f12-stacks" },
          el("div", {}, el("p", { class: "f12-title f12-t-plain" }, "Plain residual ", ctx.show(el("span"), ["text", "plain_note"])), plainBar.node),
          el("div", {}, el("p", { class: "f12-title f12-t-attn" }, "Attention residual ", ctx.show(el("span"), ["text", "attn_note"])), attnBar.node),
          ctx.show(el("p", { class: "f12-key", id: ctx.id + "-bars-key" }), ["text", "key"])),
        el("div", { class: "f12-table" }, head, list),
        sums, detail, k3));

      /* N draws the next query from anywhere inside the figure (not while typing elsewhere). */
      ctx.on(mount, "keydown", function (e) {
        if ((e.key === "n" || e.key === "N") && !e.ctrlKey && !e.metaKey && !e.altKey) { e.preventDefault(); setQuery(q + 1, "key"); }
      });

      /* padded to every source: a source above the reading layer has no share and no weight yet */
      function pad(xs) { var out = []; for (var i = 0; i < n; i++) out.push(i < xs.length ? xs[i] : 0); return out; }
      function paint(state) {
        q = state.q; li = depths.indexOf(state.l); src = selected(state);
        var w = data.weights[q][li], shares = data.shares[li], l = depths[li], best = data.best[q][li];
        depth.set(li);
        stepper.set(q);
        newBtn.disabled = q >= nq - 1;
        wView.update([data.queries[q]]);
        plainBar.paint(pad(shares));
        attnBar.paint(pad(w));
        rows.forEach(function (r, i) {
          var here = i <= l;
          if (here) {
            ctx.show(r.share, ["share_text", li, i]);
            ctx.show(r.score, ["score_text", q, i]);
            ctx.show(r.alpha, ["weight_text", q, li, i]);
          } else [r.share, r.score, r.alpha].forEach(absent);
          r.shareFill.style.width = here ? (100 * shares[i]) + "%" : "0";
          r.alphaFill.style.width = here ? (100 * w[i]) + "%" : "0";
          r.node.classList.toggle("is-absent", !here);
          r.node.setAttribute("aria-disabled", here ? "false" : "true");
          r.node.title = here ? "" : ctx.text(["text", "absent"], { source: ["labels", i] });
          r.node.setAttribute("aria-selected", i === src ? "true" : "false");
          r.node.classList.toggle("is-best", i === best);
          r.node.tabIndex = i === (src < 0 ? 0 : src) ? 0 : -1;
        });
        ctx.show(sums, ["text", "sums", li], { total: ["weight_total_text", q, li] });
        var i = src < 0 ? best : src;
        if (i < 0) ctx.show(detail, ["text", "detail_even"], { weight: ["weight_text", q, li, 0] });
        else ctx.show(detail, ["text", src < 0 ? "detail_best" : "detail_selected"], sourceSlots(q, li, i));
      }
      function absent(cell) { cell.textContent = "—"; cell.removeAttribute("data-shows"); cell.removeAttribute("data-slots"); }
      function sourceSlots(qi, j, i) {
        return { source: ["labels", i], weight: ["weight_text", qi, j, i], share: ["share_text", j, i], ratio: ["ratio_text", qi, j, i] };
      }

      return {
        render: paint,
        describe: function (prev, s) {
          var j = depths.indexOf(s.l), i = selected(s), best = data.best[s.q][j];
          if (prev.q === s.q && prev.l === s.l && i >= 0) {
            return { path: ["text", "said_source"], slots: { source: ["labels", i], share: ["share_text", j, i],
              weight: ["weight_text", s.q, j, i], score: ["score_text", s.q, i] } };
          }
          var slots = { query: ["query_name", s.q], weight: ["weight_text", s.q, j, best < 0 ? 0 : best], total: ["weight_total_text", s.q, j] };
          if (best >= 0) slots.source = ["labels", best];
          return { path: ["text", best < 0 ? "said_even" : "said_best", j], slots: slots };
        },
      };
    },
  });
})();
