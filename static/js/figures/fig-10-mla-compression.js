/* FIG 10 · MLA cache compression: per-token K/V stacks (one key and one value per head) collapse
 * into one latent row c_t; the up-projections W_UK / W_UV rebuild a token's keys and values at
 * attention time. Readouts: cache per token for MHA/GQA/MQA/MLA; the output of one query computed
 * three ways (ordinary attention on rebuilt K/V, the MLA kernel's naive path, the absorbed form),
 * which agree because they are one computation in different orders; and what MLA gives up: the
 * rank of all heads' keys side by side, at most d_c, against independent per-head projections.
 * All numbers from the build. */
K3.register("fig-10-mla-compression", function (mount, data, ctx) {
  "use strict";
  var W = window.K3W, el = W.el, demo = data.demo;
  var T = demo.T, H = demo.H;
  var state = ctx.state.get();
  var compressed = state.c === "1";
  var row = clampRow(state.t === undefined ? T - 1 : +state.t);

  function clampRow(r) { return isFinite(r) ? Math.max(0, Math.min(T - 1, Math.round(r))) : T - 1; }
  function range(n, f) { var a = []; for (var i = 0; i < n; i++) a.push(f(i)); return a; }
  /* tiny differences in scientific notation with a real minus sign ("1.1e−16"; exactly 0 as "0") */
  function sci(x) { return x === 0 ? "0" : x.toExponential(1).replace("-", "\u2212"); }
  /* K3W.el with a list of children (el itself takes them one by one) */
  function elList(tag, attrs, list) { return el.apply(null, [tag, attrs].concat(list)); }
  function dims(n, p) { return range(n, function (i) { return p + (i + 1); }); }

  /* ---- controls ---- */
  var compress = el("button", { type: "button", class: "k3-btn f10-compress", "aria-pressed": "false",
    on: { click: function () { setCompressed(!compressed, "click"); } } });
  var chooser = W.choice({
    label: "Query token",
    options: range(T, function (t) { return { value: t, text: "t" + (t + 1), aria: "Token " + (t + 1) }; }),
    value: row,
    onChange: function (t, how) { select(t, how); },
  });

  /* ---- the cache: one row per token; K/V cells and latent cells, one group shown at a time ---- */
  var cacheNote = el("p", { class: "f10-cache-note" });
  var cacheRows = range(T, function (t) {
    var kv = elList("span", { class: "f10-kv" },
      range(H, function (h) { return group("k", "f10-k", "k" + (h + 1), demo.K[t][h]); }).concat(
        range(H, function (h) { return group("v", "f10-v", "v" + (h + 1), demo.V[t][h]); })));
    var lat = el("span", { class: "f10-lat", "data-sym": "mla-latent" }, group("c", "f10-c", "c", demo.latents[t]));
    return el("div", { class: "f10-row", "data-t": t,
      on: { click: function () { select(t, "click"); }, pointerenter: function () { select(t, "hover"); } } },
      el("span", { class: "f10-tok", text: "t" + (t + 1) }), kv, lat);
  });
  function group(kind, cls, label, values) {
    return el("span", { class: "f10-group " + cls, title: label },
      el("span", { class: "f10-glabel", text: label }),
      values.reduce(function (frag, v) { frag.appendChild(el("span", { class: "f10-cell k3-num", text: W.fmt(v, 2) })); return frag; },
        document.createDocumentFragment()));
  }
  var cache = elList("div", { class: "f10-cache", role: "img" }, cacheRows);

  /* ---- the up-projections for the selected token ---- */
  var wRows = [];
  for (var h = 0; h < H; h++) for (var c = 0; c < demo.d_c; c++) wRows.push("h" + (h + 1) + " · c" + (c + 1));
  var latView = W.matrix({ caption: "c_t (cached)", cols: dims(demo.d_c, "c"), digits: 3, sym: "mla-latent" });
  var ukView = W.matrix({ caption: "W_UK", rows: wRows, cols: dims(demo.d, "d"), digits: 2, sym: "mla-uk" });
  var uvView = W.matrix({ caption: "W_UV", rows: wRows, cols: dims(demo.d, "d"), digits: 2, sym: "mla-uv" });
  var kvLabels = range(H, function (h) { return "k head " + (h + 1); }).concat(range(H, function (h) { return "v head " + (h + 1); }));
  var rebuilt = W.matrix({ caption: "rebuilt k, v", rows: kvLabels, cols: dims(demo.d, "d"), digits: 3, corner: "" });
  ukView.update(flatW(demo.W_uk));
  uvView.update(flatW(demo.W_uv));
  function flatW(w) { var out = []; w.forEach(function (m) { m.forEach(function (r) { out.push(r); }); }); return out; }
  var up = el("div", { class: "f10-up" },
    el("p", { class: "k3-label", text: "At attention time" }),
    el("div", { class: "f10-up-grid" }, latView.node, ukView.node, uvView.node, rebuilt.node));

  /* ---- readouts: cache per token per layer ---- */
  var sizes = el("table", { class: "f10-sizes" },
    el("caption", { text: "Cache per token per layer, d = " + W.int(data.d_model) }),
    el("thead", {}, elList("tr", {}, ["cache", "elements", "bytes", "vs MHA"].map(function (s) {
      return el("th", { scope: "col", text: s });
    }))),
    elList("tbody", {}, data.cache.map(function (r) {
      return el("tr", { "data-variant": r.name, "data-sym": r.name === "MLA" ? "mla-latent" : null },
        el("th", { scope: "row" }, r.name, el("span", { class: "f10-what", text: r.what })),
        el("td", { class: "k3-num", "data-elements": "", text: W.int(r.elements) }),
        el("td", { class: "k3-num", text: W.int(r.bytes) }),
        el("td", { class: "k3-num", text: W.fmt(r.vs_mha, 0) === "1" ? "1×" : "1/" + W.fmt(r.vs_mha, 0) }));
    })));
  var source = el("p", { class: "f10-source" });
  source.innerHTML = data.source_html;

  /* ---- the equality check for the selected query ---- */
  var outCols = [];
  for (h = 0; h < H; h++) for (var d = 0; d < demo.d; d++) outCols.push("h" + (h + 1) + " d" + (d + 1));
  var forms = [["recon", "rebuilt K, V"], ["naive", "MLA, naive"], ["absorbed", "absorbed"]];
  var outView = W.matrix({ caption: "output o_t", rows: forms.map(function (f) { return f[1]; }), cols: outCols, digits: 4, corner: "form" });
  var formsNote = el("p", { class: "f10-forms", text: "rebuilt K, V: up-project every cached latent to keys and values, " +
    "then ordinary attention per head; MLA, naive: the MLA kernel doing the same inside; absorbed: W_UK folded into the " +
    "query, scores and the weighted sum taken over the latents, W_UV applied once after, so keys and values are never formed." });
  var diff = el("p", { class: "f10-diff" });

  /* ---- the price: one shared subspace for every head's keys and values ---- */
  var sub = demo.subspace;
  var kNames = range(H, function (h) { return "k" + (h + 1); }).join(" ");
  var svView = W.matrix({ caption: "singular values of [" + kNames + "] over " + sub.tokens + " tokens",
    rows: ["MLA", "independent W_K"], cols: range(sub.sv_keys.mla.length, function (i) { return "σ" + (i + 1); }),
    digits: 3, corner: "keys from" });
  svView.update([sub.sv_keys.mla, sub.sv_keys.independent]);
  function num(attr, v) { var a = { class: "k3-num" }; a["data-rank"] = attr; a.text = String(v); return el("span", a); }
  var price = el("div", { class: "f10-price" },
    el("p", { class: "k3-label", text: "What the shared latent costs" }),
    el("div", { class: "f10-price-grid" }, el("div", {}, el("p", { class: "f10-exact", text: "Equal outputs show that re-ordering the computation is exact. They do not show that " +
      "MLA is multi-head attention with a smaller cache." }),
    el("p", { class: "f10-rank" }, "Rank of all heads' keys side by side, [" + kNames + "]: MLA ", num("mla-keys", sub.rank.mla.keys),
      ", never more than d_c = ", num("d_c", sub.d_c), "; independent per-head projections of the same inputs, as in " +
      "multi-head attention: ", num("independent-keys", sub.rank.independent.keys), " of a possible h·d_h = ", num("hd", sub.hd),
      ". Values: ", num("mla-values", sub.rank.mla.values), " against ", num("independent-values", sub.rank.independent.values),
      ". MLA's keys and values together still have rank ", num("mla-kv", sub.rank_kv_mla),
      ": every head reads the same few latent numbers per token, so the heads cannot vary independently.")),
    el("div", { class: "k3-scroll" }, svView.node)));
  var k3 = el("p", { class: "f10-k3" });
  k3.innerHTML = data.k3_html;

  mount.appendChild(el("div", { class: "f10" },
    el("div", { class: "f10-controls k3-row" }, compress, el("span", { class: "k3-label", text: "Query" }), chooser.node),
    el("div", { class: "f10-grid" },
      el("div", { class: "f10-left" }, cacheNote, cache, up),
      el("div", { class: "f10-right" }, el("div", { class: "k3-scroll" }, sizes), source,
        el("div", { class: "k3-scroll" }, outView.node), formsNote, diff, k3)),
    price));
  if (ctx.reducedMotion()) cache.classList.add("f10-still");

  function paintCompressed() {
    compress.setAttribute("aria-pressed", compressed ? "true" : "false");
    compress.textContent = compressed ? "Expand" : "Compress";
    compress.setAttribute("aria-label", compressed ? "Expand the cache back to keys and values" : "Compress the cache into latents");
    cache.classList.toggle("is-compressed", compressed);
    up.classList.toggle("is-live", compressed);
    cacheNote.textContent = compressed
      ? "Cached: one latent c_t per token, " + demo.cache_demo.latent + " numbers; keys and values are rebuilt by W_UK, W_UV below."
      : "Cached: a key and a value for each of " + H + " heads, " + demo.cache_demo.kv + " numbers per token.";
    cache.setAttribute("aria-label", compressed
      ? "Cache of " + T + " tokens, each a latent row of " + demo.cache_demo.latent + " numbers"
      : "Cache of " + T + " tokens, each " + H + " keys and " + H + " values, " + demo.cache_demo.kv + " numbers");
  }
  function paintRow() {
    chooser.set(row);
    cacheRows.forEach(function (r, t) { r.classList.toggle("is-sel", t === row); });
    latView.update([demo.latents[row]]);
    rebuilt.update(demo.K[row].concat(demo.V[row]));
    outView.update(forms.map(function (f) { return [].concat.apply([], demo.out[f[0]][row]); }));
    diff.innerHTML = "";
    diff.appendChild(document.createTextNode("Largest difference from the reconstructed form, query t" + (row + 1) + ": naive "));
    diff.appendChild(el("span", { class: "k3-num", "data-diff": "naive", text: sci(demo.max_diff.naive[row]) }));
    diff.appendChild(document.createTextNode(", absorbed "));
    diff.appendChild(el("span", { class: "k3-num", "data-diff": "absorbed", text: sci(demo.max_diff.absorbed[row]) }));
    diff.appendChild(document.createTextNode(" (floating-point rounding)."));
  }
  function narrateRow() {
    ctx.narrate("Query t" + (row + 1) + ": latent c = " + demo.latents[row].map(function (v) { return W.fmt(v, 3); }).join(", ") +
      "; head 1 output " + demo.out.absorbed[row][0].map(function (v) { return W.fmt(v, 4); }).join(", ") +
      " in all three forms, largest difference " + sci(Math.max(demo.max_diff.naive[row], demo.max_diff.absorbed[row])) + ".");
  }
  function save(push) { ctx.state.set({ c: compressed ? 1 : 0, t: row }, { push: push }); }

  function setCompressed(on, how) {
    compressed = !!on;
    paintCompressed();
    if (how === "restore") return;
    save(true);
    var mla = data.cache[data.cache.length - 1], mha = data.cache[0];
    ctx.narrate(compressed
      ? "Compressed: each token now caches one latent of " + demo.cache_demo.latent + " numbers instead of " + demo.cache_demo.kv +
        "; at d = " + W.int(data.d_model) + ", " + W.int(mla.elements) + " elements instead of " + W.int(mha.elements) + "."
      : "Expanded: each token caches " + H + " keys and " + H + " values, " + demo.cache_demo.kv + " numbers.");
  }
  function select(t, how) {
    t = clampRow(t);
    if (t === row && how !== "restore") return;
    row = t;
    paintRow();
    if (how === "restore") return;
    narrateRow();
    save(how === "click" || how === "key");
  }

  paintCompressed();
  paintRow();
  return {
    restore: function (s) {
      setCompressed(s.c === "1", "restore");
      select(s.t === undefined ? T - 1 : +s.t, "restore");
    },
  };
});
