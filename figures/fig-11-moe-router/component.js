/* FIG 11 · Router → top-k experts: pick a token (click/tap, ← → on the token group) to see its
 * router scores against each expert centroid, the top-k winners, their gate weights g_e(x) and
 * the mixed output; shared experts take every token. A toggle applies one step of the
 * selection-only balancing bias. Load, balance, K3's tiles and every text are shipped by the build
 * (per token and per routing, without or with the bias: data.plain.text, data.biased.text).
 * State: t = the selected token (default 1), b = the bias on (#fig-11.t=4&fig-11.b=1). */
(function () {
  "use strict";

  K3.register("fig-11-moe-router", {
    state: function (data) { return { t: K3.state.int(0, data.tokens.length - 1, 1), b: K3.state.bool(false) }; },
    setup: function (mount, data, ctx) {
      var W = window.K3W, el = W.el, S = W.svg;
      var T = data.tokens.length, E = data.bias.length;

      function elList(tag, attrs, list) { return el.apply(null, [tag, attrs].concat(list)); }
      function routing(s) { return s.b ? data.biased : data.plain; }
      function said(s, key) { return [s.b ? "biased" : "plain", "text"].concat(key); }  // a text of this routing
      function name(e) { return data.text.expert_names[e]; }

      /* ---- K3 headline tiles (values are fact badges rendered by the build) ---- */
      var tiles = elList("div", { class: "f11-tiles" }, data.tiles.map(function (tile, i) {
        // W.html, not ctx.show, for fact badges: a browser writes their &#x27; and no-break spaces back
        // differently, so the shown HTML would not be the shipped as written (what support.py compares)
        return el("div", { class: "f11-tile" }, W.html(el("p", { class: "f11-tile-v" }), tile.value_html),
          ctx.show(el("p", { class: "f11-tile-l" }), ["tiles", i, "label"]));
      }));

      /* ---- controls ---- */
      var chooser = W.choice({
        label: "Token",
        options: data.tokens.map(function (w, t) { return { value: t, text: w, aria: data.text.token_aria[t] }; }),
        value: ctx.get().t,
        onChange: function (t, how) { ctx.set({ t: t }, how); },
      });
      var biasBtn = el("button", { type: "button", class: "k3-btn f11-bias", "aria-pressed": "false",
        text: "Balancing bias", on: { click: function () { ctx.set({ b: !ctx.get().b }, "click"); } } });

      /* ---- the routing diagram (SVG) ---- */
      var VW = 420, VH = 280, TX = 74, EX = 330;
      var tokY = function (t) { return 28 + t * ((VH - 60) / (T - 1)); };
      var expY = function (e) { return 16 + e * 24; };
      var sharedY = function (j) { return expY(E) + 14 + j * 24; };
      var svg = S.el("svg", { viewBox: "0 0 " + VW + " " + VH, class: "f11-svg", role: "img", "data-graphic": "diagram" });
      var faint = svg.appendChild(S.g({ class: "f11-faint" }));
      var routes = svg.appendChild(S.g({ class: "f11-routes" }));
      function node(cls, x, y, w, h, rx, text, attrs) {
        return svg.appendChild(S.g(Object.assign({ class: cls }, attrs), S.rect(x, y - h / 2, w, h, null, { rx: rx }),
          S.el("text", { x: x + w / 2, y: y + 4, "text-anchor": "middle", text: text })));
      }
      var tokNodes = data.tokens.map(function (w, t) {
        return node("f11-tok", 4, tokY(t), TX - 8, 22, 5, w, { on: { click: function () { ctx.set({ t: t }, "click"); } } });
      });
      var expNodes = W.range(E, function (e) { return node("f11-exp", EX, expY(e), 58, 20, 4, name(e), { "data-sym": "moe-expert" }); });
      data.text.shared_names.forEach(function (s, j) { node("f11-exp f11-shared", EX, sharedY(j), 58, 20, 4, s, { "data-sym": "moe-shared" }); });
      function line(y0, y1, cls, width, sym) { return S.path(S.bend(TX, y0, EX, y1), cls, { "stroke-width": width, "data-sym": sym }); }

      /* ---- the selected token's scores, gates and output ---- */
      var table = el("table", { class: "f11-table" });
      var thead = table.appendChild(el("thead"));
      var tbody = table.appendChild(el("tbody"));
      var sumLine = el("p", { class: "f11-sum" });
      var outWrap = el("div", { class: "k3-scroll f11-out" });  // rebuilt per token (the chosen experts label its rows)

      /* ---- load over the batch ---- */
      var loadBars = W.range(E, function (e) {
        var bar = el("span", { class: "f11-bar" });
        var n = el("span", { class: "f11-load-n k3-num" });
        return { node: el("div", { class: "f11-load-col", "data-expert": e }, n, el("span", { class: "f11-bar-track" }, bar),
          el("span", { class: "f11-load-e", text: name(e) })), bar: bar, n: n };
      });
      var bars = elList("div", { class: "f11-load-bars", role: "img", "data-graphic": "chart" }, loadBars.map(function (b) { return b.node; }));
      /* the balance statistic: its label (the fact's badge), its values, its definition — all shipped */
      var balance = el("p", { class: "f11-balance" });
      var chosenKey = el("span"), loadKey = W.legend([{ node: chosenKey, swatch: "box", cls: "f11-sw-chosen" },
        { text: "other experts", swatch: "box", cls: "f11-sw-other" }, { node: ctx.show(el("span"), ["text", "load_full"]) }],
      { hidden: true });
      var loads = el("div", { class: "f11-load" },
        el("div", { class: "f11-load-left" }, ctx.show(el("p", { class: "k3-label" }), ["text", "load_title"]), bars, loadKey),
        el("div", { class: "f11-balance-box" }, W.html(el("p", { class: "f11-balance-label" }), data.balance_label_html), balance,
          ctx.show(el("p", { class: "f11-balance-def" }), ["balance_def_html"])));

      // on a phone the token row stays in view (k3-sticky) on two lines: the tokens name themselves, so
      // the stuck row drops its "Token" label from sight (the choice keeps it as its accessible name)
      mount.appendChild(el("div", { class: "f11" }, tiles,
        el("div", { class: "f11-controls k3-row k3-sticky" }, el("span", { class: "k3-label k3-stuck-hidden", text: "Token" }), chooser.node, biasBtn),
        el("div", { class: "f11-grid" },
          el("div", { class: "f11-left" }, svg),
          el("div", { class: "f11-right" }, el("div", { class: "k3-scroll" }, table), sumLine, outWrap)), loads));

      function paintDiagram(s) {
        var r = routing(s), tok = s.t;
        faint.textContent = "";
        routes.textContent = "";
        for (var t = 0; t < T; t++) {
          if (t === tok) continue;
          r.experts[t].forEach(function (e) { faint.appendChild(line(tokY(t), expY(e), "f11-faint-line", 1)); });
        }
        W.range(data.n_shared, function (j) { routes.appendChild(line(tokY(tok), sharedY(j), "f11-shared-line", 2, "moe-shared")); });
        r.experts[tok].forEach(function (e, i) {
          routes.appendChild(line(tokY(tok), expY(e), "f11-route", 1.5 + 10 * r.weights[tok][i], "moe-gate"));
        });
        tokNodes.forEach(function (g, t) { g.classList.toggle("is-sel", t === tok); });
        expNodes.forEach(function (g, e) { g.classList.toggle("is-chosen", r.experts[tok].indexOf(e) >= 0); });
        svg.setAttribute("aria-label", ctx.text(said(s, ["routes_label", tok])));
      }

      function paintTable(s) {
        var tok = s.t;
        var cols = ["expert", "x·c_e", "s_e"].concat(s.b ? ["bias"] : []).concat(["rank", "g_e(x)"]);
        thead.textContent = "";
        thead.appendChild(elList("tr", {}, cols.map(function (c) {
          return el("th", { scope: "col", text: c, "data-sym": c === "g_e(x)" ? "moe-gate" : null });
        })));
        tbody.textContent = "";
        function cell(col, path, attrs) {
          return ctx.show(el("td", Object.assign({ class: "k3-num", "data-col": col }, attrs)), path);
        }
        for (var e = 0; e < E; e++) {
          var picked = routing(s).experts[tok].indexOf(e) >= 0;
          var cells = [ctx.show(el("th", { scope: "row" }), ["text", "expert_names", e]),
            cell("logit", ["text", "logit", tok, e]), cell("score", ["text", "score", tok, e])];
          if (s.b) cells.push(cell("bias", ["text", "bias", e]));
          cells.push(cell("rank", said(s, ["rank", tok, e])));
          cells.push(cell("gate", said(s, ["gate", tok, e]), { class: "k3-num f11-gate", "data-sym": picked ? "moe-gate" : null }));
          tbody.appendChild(elList("tr", { class: picked ? "is-chosen" : "", "data-expert": e }, cells));
        }
        ctx.show(sumLine, said(s, ["sum_line", tok]));
      }

      function paintOutput(s) {
        var tok = s.t, D = data.shared_out[0].length, rows = routing(s).text.output_rows[tok];
        var out = W.matrix({ caption: ctx.text(["text", "output_caption"]), rows: rows,
          cols: W.range(D, function (d) { return "y" + (d + 1); }), corner: "term" });
        // the shipped texts, tagged with where they came from: the row labels and every cell
        W.range(rows.length, function (i) {
          var tr = out.node.tBodies[0].rows[i];
          ctx.show(tr.cells[0], said(s, ["output_rows", tok, i]));
          out.cells[i].forEach(function (td, d) { ctx.show(td, said(s, ["output", tok, i, d])); });
        });
        out.node.tBodies[0].rows[rows.length - 1].classList.add("f11-y");
        outWrap.textContent = "";
        outWrap.appendChild(out.node);
      }

      function paintLoad(s) {
        var r = routing(s), max = T;  // a routed expert can take every token at most once
        loadBars.forEach(function (b, e) {
          ctx.show(b.n, said(s, ["load", e]));
          b.bar.style.height = (100 * r.load[e] / max) + "%";
          b.node.classList.toggle("is-chosen", r.experts[s.t].indexOf(e) >= 0);
        });
        ctx.show(chosenKey, ["text", "chosen_key", s.t]);
        bars.setAttribute("aria-label", ctx.text(said(s, ["load_label"])));
        balance.textContent = "";
        function value(label, v, attr) {
          var strong = ctx.show(el("strong", { class: "k3-num" }), v);
          strong.setAttribute(attr, "");
          balance.appendChild(el("span", { class: "f11-balance-v" }, ctx.show(el("span"), label), " ", strong));
        }
        var other = s.b ? "plain" : "biased";
        value(said(s, ["balance_label"]), said(s, ["balance"]), "data-balance");
        value(said(s, ["other_label"]), [other, "text", "balance"], "data-balance-other");
        value(["text", "perfect"], ["text", "balance_even"], "data-balance-even");
      }

      return {
        render: function (s) {
          chooser.set(s.t);
          biasBtn.setAttribute("aria-pressed", s.b ? "true" : "false");
          paintDiagram(s);
          paintTable(s);
          paintOutput(s);
          paintLoad(s);
        },
        describe: function (prev, s) {
          return { path: said(s, prev.b !== s.b ? ["said_bias"] : ["said_token", s.t]) };
        },
      };
    },
  });
})();
