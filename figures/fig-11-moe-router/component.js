/* FIG 11 · Router → top-k experts: pick a token (click/tap, ← → on the token group) to see its
 * router scores against each expert centroid, the top-k winners, their gate weights g_e(x) and
 * the mixed output; shared experts take every token. A toggle applies one step of the
 * selection-only balancing bias. Load, balance and K3's tiles are all shipped by the build.
 * State: t = the selected token (default 1), b = the bias on (#fig-11.t=4&fig-11.b=1). */
(function () {
  "use strict";

  K3.register("fig-11-moe-router", {
    state: function (data) { return { t: K3.state.int(0, data.tokens.length - 1, 1), b: K3.state.bool(false) }; },
    setup: function (mount, data, ctx) {
      var W = window.K3W, el = W.el, S = W.svg;
      var T = data.tokens.length, E = data.bias.length, K = data.top_k, P = data.precision;

      function elList(tag, attrs, list) { return el.apply(null, [tag, attrs].concat(list)); }
      function routing(s) { return s.b ? data.biased : data.plain; }
      function name(e) { return "E" + (e + 1); }
      function sharedNames() { return W.range(data.n_shared, function (j) { return "S" + (j + 1); }); }
      function gateSum(s) { return routing(s).weights[s.t].reduce(function (a, b) { return a + b; }, 0); }
      function label(t) { return "“" + data.tokens[t] + "” (token " + (t + 1) + ")"; }

      /* ---- K3 headline tiles (values are fact badges rendered by the build) ---- */
      var tiles = elList("div", { class: "f11-tiles" }, data.tiles.map(function (tile) {
        return el("div", { class: "f11-tile" }, W.html(el("p", { class: "f11-tile-v" }), tile.value_html),
          el("p", { class: "f11-tile-l", text: tile.label }));
      }));

      /* ---- controls ---- */
      var chooser = W.choice({
        label: "Token",
        options: data.tokens.map(function (w, t) { return { value: t, text: w, aria: "Token " + (t + 1) + ", " + w }; }),
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
      sharedNames().forEach(function (s, j) { node("f11-exp f11-shared", EX, sharedY(j), 58, 20, 4, s, { "data-sym": "moe-shared" }); });
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
        { text: "other experts", swatch: "box", cls: "f11-sw-other" }, { text: "full height: all " + T + " tokens" }], { hidden: true });
      var loads = el("div", { class: "f11-load" },
        el("div", { class: "f11-load-left" }, el("p", { class: "k3-label", text: "Tokens per routed expert over the batch" }), bars, loadKey),
        el("div", { class: "f11-balance-box" }, W.html(el("p", { class: "f11-balance-label" }), data.balance_label_html), balance,
          W.html(el("p", { class: "f11-balance-def" }), data.balance_def_html)));

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
        svg.setAttribute("aria-label", "Routes of " + label(tok) + ": to " + r.experts[tok].map(function (e, i) {
          return name(e) + " with gate " + W.fmt(r.weights[tok][i], P);
        }).join(", ") + ", and to the shared experts.");
      }

      function paintTable(s) {
        var r = routing(s), tok = s.t, chosen = r.experts[tok];
        var cols = ["expert", "x·c_e", "s_e"].concat(s.b ? ["bias"] : []).concat(["rank", "g_e(x)"]);
        thead.textContent = "";
        thead.appendChild(elList("tr", {}, cols.map(function (c) {
          return el("th", { scope: "col", text: c, "data-sym": c === "g_e(x)" ? "moe-gate" : null });
        })));
        tbody.textContent = "";
        for (var e = 0; e < E; e++) {
          var rank = chosen.indexOf(e);
          var cells = [el("th", { scope: "row", text: name(e) }),
            el("td", { class: "k3-num", "data-col": "logit", text: W.fmt(data.logits[tok][e], P) }),
            el("td", { class: "k3-num", "data-col": "score", text: W.fmt(data.scores[tok][e], P) })];
          if (s.b) cells.push(el("td", { class: "k3-num", "data-col": "bias", text: W.fmt(data.bias[e], P) }));
          cells.push(el("td", { class: "k3-num", "data-col": "rank", text: rank >= 0 ? String(rank + 1) : "—" }));
          cells.push(el("td", { class: "k3-num f11-gate", "data-col": "gate", "data-sym": rank >= 0 ? "moe-gate" : null,
            text: rank >= 0 ? W.fmt(r.weights[tok][rank], P) : "0" }));
          tbody.appendChild(elList("tr", { class: rank >= 0 ? "is-chosen" : "", "data-expert": e }, cells));
        }
        sumLine.textContent = "s_e = " + data.score_func + "(x·c_e). The top " + K + " of " + E + " by s_e" +
          (s.b ? " + bias" : "") + " win; each gate g_e = s_e ÷ (sum of the " + K + " chosen s_e, without the bias), " +
          "so the gates sum to " + W.fmt(gateSum(s), P) + ". Shared " + sharedNames().join(", ") + " add with weight 1.";
      }

      function paintOutput(s) {
        var r = routing(s), tok = s.t, D = data.shared_out[0].length;
        // each row is E_e(x) itself (y weights it by g_e), so the label names the gate beside it, not a product
        var rows = r.experts[tok].map(function (e, i) { return name(e) + "(x), g = " + W.fmt(r.weights[tok][i], 2); })
          .concat(["shared(x)", "y"]);
        var out = W.matrix({ caption: "y = Σ g_e E_e(x) + shared", rows: rows,
          cols: W.range(D, function (d) { return "y" + (d + 1); }), digits: P, corner: "term" });
        out.update(r.expert_out[tok].concat([data.shared_out[tok], r.y[tok]]));
        out.node.tBodies[0].rows[rows.length - 1].classList.add("f11-y");
        outWrap.textContent = "";
        outWrap.appendChild(out.node);
      }

      function paintLoad(s) {
        var r = routing(s), max = T;  // a routed expert can take every token at most once
        loadBars.forEach(function (b, e) {
          b.n.textContent = String(r.load[e]);
          b.bar.style.height = (100 * r.load[e] / max) + "%";
          b.node.classList.toggle("is-chosen", r.experts[s.t].indexOf(e) >= 0);
        });
        chosenKey.textContent = "experts “" + data.tokens[s.t] + "” uses";
        bars.setAttribute("aria-label", "Routing slots per expert" + (s.b ? " with the bias" : "") +
          ", of " + K * T + ": " + r.load.map(function (n, e) { return name(e) + " " + n; }).join(", "));
        balance.textContent = "";
        function value(text, v, attr) {
          var strong = el("strong", { class: "k3-num", text: W.fmt(v, P) });
          strong.setAttribute(attr, "");
          balance.appendChild(el("span", { class: "f11-balance-v" }, document.createTextNode(text + " "), strong));
        }
        value(data.balance_formula + (s.b ? " with the bias" : " for this batch"), r.balance, "data-balance");
        value(s.b ? "without it" : "after one bias step", (s.b ? data.plain : data.biased).balance, "data-balance-other");
        value("at perfect balance", data.balance_even, "data-balance-even");
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
          var r = routing(s);
          if (prev.b !== s.b) {
            return (s.b ? "Bias on: " : "Bias off: ") + "loads " + r.load.join(", ") + "; balance statistic " +
              data.balance_formula + " " + W.fmt(r.balance, P) + ", " + W.fmt(data.balance_even, P) +
              " at perfect balance; the gate weights still come from the scores without the bias.";
          }
          return label(s.t) + " goes to " + r.experts[s.t].map(function (e, i) {
            return name(e) + " (g = " + W.fmt(r.weights[s.t][i], P) + ")";
          }).join(", ") + " and to the " + data.n_shared + " shared experts; the gates sum to " + W.fmt(gateSum(s), P) + ".";
        },
      };
    },
  });
})();
