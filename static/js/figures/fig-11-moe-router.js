/* FIG 11 · Router → top-k experts: pick a token (click/tap, ← → on the token group) to see its
 * router scores against each expert centroid, the top-k winners, their gate weights g_e(x) and
 * the mixed output; shared experts take every token. A toggle applies one step of the
 * selection-only balancing bias. Load, balance and K3's tiles are all shipped by the build. */
K3.register("fig-11-moe-router", function (mount, data, ctx) {
  "use strict";
  var W = window.K3W, el = W.el, SVG = "svg:";
  var T = data.tokens.length, E = data.bias.length, K = data.top_k, P = data.precision;
  var state = ctx.state.get();
  var tok = clampTok(state.t === undefined ? 1 : +state.t);
  var biasOn = state.b === "1";

  function clampTok(t) { return isFinite(t) ? Math.max(0, Math.min(T - 1, Math.round(t))) : 1; }
  function range(n, f) { var a = []; for (var i = 0; i < n; i++) a.push(f(i)); return a; }
  function elList(tag, attrs, list) { return el.apply(null, [tag, attrs].concat(list)); }
  var css = W.css(mount);
  function routing() { return biasOn ? data.biased : data.plain; }
  function name(e) { return "E" + (e + 1); }
  function sharedNames() { return range(data.n_shared, function (j) { return "S" + (j + 1); }); }
  function gateSum() { return routing().weights[tok].reduce(function (a, b) { return a + b; }, 0); }
  function label(t) { return "“" + data.tokens[t] + "” (token " + (t + 1) + ")"; }

  /* ---- K3 headline tiles (values are fact badges rendered by the build) ---- */
  var tiles = elList("div", { class: "f11-tiles" }, data.tiles.map(function (tile) {
    var v = el("p", { class: "f11-tile-v" });
    v.innerHTML = tile.value_html;
    return el("div", { class: "f11-tile" }, v, el("p", { class: "f11-tile-l", text: tile.label }));
  }));

  /* ---- controls ---- */
  var chooser = W.choice({
    label: "Token",
    options: data.tokens.map(function (w, t) { return { value: t, text: w, aria: "Token " + (t + 1) + ", " + w }; }),
    value: tok,
    onChange: function (t, how) { select(t, how); },
  });
  var biasBtn = el("button", { type: "button", class: "k3-btn f11-bias", "aria-pressed": "false",
    text: "Balancing bias", on: { click: function () { setBias(!biasOn, "click"); } } });

  /* ---- the routing diagram (SVG) ---- */
  var VW = 420, VH = 280, TX = 74, EX = 330;
  var tokY = function (t) { return 28 + t * ((VH - 60) / (T - 1)); };
  var expY = function (e) { return 16 + e * 24; };
  var sharedY = function (j) { return expY(E) + 14 + j * 24; };
  var svg = el(SVG + "svg", { viewBox: "0 0 " + VW + " " + VH, class: "f11-svg", role: "img" });
  var faint = svg.appendChild(el(SVG + "g", { class: "f11-faint" }));
  var routes = svg.appendChild(el(SVG + "g", { class: "f11-routes" }));
  var tokNodes = data.tokens.map(function (w, t) {
    var g = svg.appendChild(el(SVG + "g", { class: "f11-tok", on: { click: function () { select(t, "click"); } } },
      el(SVG + "rect", { x: 4, y: tokY(t) - 11, width: TX - 8, height: 22, rx: 5 }),
      el(SVG + "text", { x: TX / 2, y: tokY(t) + 4, "text-anchor": "middle", text: w })));
    return g;
  });
  var expNodes = range(E, function (e) {
    return svg.appendChild(el(SVG + "g", { class: "f11-exp", "data-sym": "moe-expert" },
      el(SVG + "rect", { x: EX, y: expY(e) - 10, width: 58, height: 20, rx: 4 }),
      el(SVG + "text", { x: EX + 29, y: expY(e) + 4, "text-anchor": "middle", text: name(e) })));
  });
  range(data.n_shared, function (j) {
    return svg.appendChild(el(SVG + "g", { class: "f11-exp f11-shared", "data-sym": "moe-shared" },
      el(SVG + "rect", { x: EX, y: sharedY(j) - 10, width: 58, height: 20, rx: 4 }),
      el(SVG + "text", { x: EX + 29, y: sharedY(j) + 4, "text-anchor": "middle", text: "S" + (j + 1) })));
  });
  function line(y0, y1, cls, width, sym) {
    var mid = (TX + EX) / 2;
    return el(SVG + "path", { d: "M" + TX + " " + y0 + " C" + mid + " " + y0 + " " + mid + " " + y1 + " " + EX + " " + y1,
      class: cls, "stroke-width": width, "data-sym": sym });
  }

  /* ---- the selected token's scores, gates and output ---- */
  var table = el("table", { class: "f11-table" });
  var thead = table.appendChild(el("thead"));
  var tbody = table.appendChild(el("tbody"));
  var sumLine = el("p", { class: "f11-sum" });
  var outView = null;  // rebuilt per token (the chosen experts label its rows)
  var outWrap = el("div", { class: "k3-scroll f11-out" });

  /* ---- load over the batch ---- */
  var loadBars = range(E, function (e) {
    var bar = el("span", { class: "f11-bar" });
    var n = el("span", { class: "f11-load-n k3-num" });
    return { node: el("div", { class: "f11-load-col", "data-expert": e }, n, el("span", { class: "f11-bar-track" }, bar),
      el("span", { class: "f11-load-e", text: name(e) })), bar: bar, n: n };
  });
  /* the balance statistic: its label (the fact's badge), its values, its definition — all shipped */
  var balanceLabel = el("p", { class: "f11-balance-label" });
  balanceLabel.innerHTML = data.balance_label_html;
  var balance = el("p", { class: "f11-balance" });
  var balanceDef = el("p", { class: "f11-balance-def" });
  balanceDef.innerHTML = data.balance_def_html;
  var loads = el("div", { class: "f11-load" },
    el("div", { class: "f11-load-left" },
      el("p", { class: "k3-label", text: "Tokens per routed expert over the batch" }),
      elList("div", { class: "f11-load-bars", role: "img" }, loadBars.map(function (b) { return b.node; }))),
    el("div", { class: "f11-balance-box" }, balanceLabel, balance, balanceDef));

  mount.appendChild(el("div", { class: "f11" }, tiles,
    el("div", { class: "f11-controls k3-row" }, el("span", { class: "k3-label", text: "Token" }), chooser.node, biasBtn),
    el("div", { class: "f11-grid" },
      el("div", { class: "f11-left" }, svg),
      el("div", { class: "f11-right" }, el("div", { class: "k3-scroll" }, table), sumLine, outWrap)), loads));

  function paintDiagram() {
    var r = routing();
    faint.innerHTML = "";
    routes.innerHTML = "";
    for (var t = 0; t < T; t++) {
      if (t === tok) continue;
      r.experts[t].forEach(function (e) { faint.appendChild(line(tokY(t), expY(e), "f11-faint-line", 1)); });
    }
    range(data.n_shared, function (j) { routes.appendChild(line(tokY(tok), sharedY(j), "f11-shared-line", 2, "moe-shared")); });
    r.experts[tok].forEach(function (e, i) {
      routes.appendChild(line(tokY(tok), expY(e), "f11-route", 1.5 + 10 * r.weights[tok][i], "moe-gate"));
    });
    tokNodes.forEach(function (g, t) { g.classList.toggle("is-sel", t === tok); });
    expNodes.forEach(function (g, e) { g.classList.toggle("is-chosen", r.experts[tok].indexOf(e) >= 0); });
    svg.setAttribute("aria-label", "Routes of " + label(tok) + ": to " + r.experts[tok].map(function (e, i) {
      return name(e) + " with gate " + W.fmt(r.weights[tok][i], P);
    }).join(", ") + ", and to the shared experts.");
  }

  function paintTable() {
    var r = routing(), chosen = r.experts[tok];
    var cols = ["expert", "x·c_e", "s_e"].concat(biasOn ? ["bias"] : []).concat(["rank", "g_e(x)"]);
    thead.innerHTML = "";
    thead.appendChild(elList("tr", {}, cols.map(function (c) {
      return el("th", { scope: "col", text: c, "data-sym": c === "g_e(x)" ? "moe-gate" : null });
    })));
    tbody.innerHTML = "";
    for (var e = 0; e < E; e++) {
      var rank = chosen.indexOf(e);
      var cells = [el("th", { scope: "row", text: name(e) }),
        el("td", { class: "k3-num", "data-col": "logit", text: W.fmt(data.logits[tok][e], P) }),
        el("td", { class: "k3-num", "data-col": "score", text: W.fmt(data.scores[tok][e], P) })];
      if (biasOn) cells.push(el("td", { class: "k3-num", "data-col": "bias", text: W.fmt(data.bias[e], P) }));
      cells.push(el("td", { class: "k3-num", "data-col": "rank", text: rank >= 0 ? String(rank + 1) : "—" }));
      cells.push(el("td", { class: "k3-num f11-gate", "data-col": "gate", "data-sym": rank >= 0 ? "moe-gate" : null,
        text: rank >= 0 ? W.fmt(r.weights[tok][rank], P) : "0" }));
      tbody.appendChild(elList("tr", { class: rank >= 0 ? "is-chosen" : "", "data-expert": e }, cells));
    }
    sumLine.textContent = "s_e = " + data.score_func + "(x·c_e). The top " + K + " of " + E + " by s_e" +
      (biasOn ? " + bias" : "") + " win; each gate g_e = s_e ÷ (sum of the " + K + " chosen s_e, without the bias), " +
      "so the gates sum to " + W.fmt(gateSum(), P) + ". Shared " + sharedNames().join(", ") + " add with weight 1.";
  }

  function paintOutput() {
    var r = routing(), chosen = r.experts[tok], D = data.shared_out[0].length;
    var rows = chosen.map(function (e, i) { return name(e) + "(x) · " + W.fmt(r.weights[tok][i], 2); })
      .concat(["shared(x)", "y"]);
    outView = W.matrix({ caption: "y = Σ g_e E_e(x) + shared", rows: rows,
      cols: range(D, function (d) { return "y" + (d + 1); }), digits: P, corner: "term" });
    outView.update(r.expert_out[tok].concat([data.shared_out[tok], r.y[tok]]));
    outView.node.tBodies[0].rows[rows.length - 1].classList.add("f11-y");
    outWrap.innerHTML = "";
    outWrap.appendChild(outView.node);
  }

  function paintLoad() {
    var r = routing(), max = T;  // a routed expert can take every token at most once
    loadBars.forEach(function (b, e) {
      b.n.textContent = String(r.load[e]);
      b.bar.style.height = (100 * r.load[e] / max) + "%";
      b.node.classList.toggle("is-chosen", r.experts[tok].indexOf(e) >= 0);
    });
    loads.querySelector(".f11-load-bars").setAttribute("aria-label", "Routing slots per expert" + (biasOn ? " with the bias" : "") +
      ", of " + K * T + ": " + r.load.map(function (n, e) { return name(e) + " " + n; }).join(", "));
    balance.innerHTML = "";
    function value(text, v, attr) {
      var strong = el("strong", { class: "k3-num", text: W.fmt(v, P) });
      strong.setAttribute(attr, "");
      balance.appendChild(el("span", { class: "f11-balance-v" }, document.createTextNode(text + " "), strong));
    }
    value(data.balance_formula + (biasOn ? " with the bias" : " for this batch"), r.balance, "data-balance");
    value(biasOn ? "without it" : "after one bias step", (biasOn ? data.plain : data.biased).balance, "data-balance-other");
    value("at perfect balance", data.balance_even, "data-balance-even");
  }

  function paint() {
    chooser.set(tok);
    biasBtn.setAttribute("aria-pressed", biasOn ? "true" : "false");
    paintDiagram();
    paintTable();
    paintOutput();
    paintLoad();
  }
  function narrateToken() {
    var r = routing();
    ctx.narrate("Token " + label(tok) + " goes to " + r.experts[tok].map(function (e, i) {
      return name(e) + " (g = " + W.fmt(r.weights[tok][i], P) + ")";
    }).join(", ") + " and to the " + data.n_shared + " shared experts; the gates sum to " + W.fmt(gateSum(), P) + ".");
  }
  function save(push) { ctx.state.set({ t: tok, b: biasOn ? 1 : 0 }, { push: push }); }

  function select(t, how) {
    t = clampTok(t);
    if (t === tok && how !== "restore") return;
    tok = t;
    paint();
    if (how === "restore") return;
    narrateToken();
    save(how === "click" || how === "key");
  }
  function setBias(on, how) {
    biasOn = !!on;
    paint();
    if (how === "restore") return;
    save(true);
    ctx.narrate((biasOn ? "Bias on: " : "Bias off: ") + "loads " + routing().load.join(", ") + "; balance statistic " +
      data.balance_formula + " " + W.fmt(routing().balance, P) + ", " + W.fmt(data.balance_even, P) +
      " at perfect balance; the gate weights still come from the scores without the bias.");
  }

  paint();
  return {
    restore: function (s) {
      biasOn = s.b === "1";
      select(s.t === undefined ? 1 : +s.t, "restore");
      paint();
    },
  };
});
