/* FIG 10 · MLA cache compression. At a glance: bytes cached per token per layer as bars shrunk from
 * multi-head attention's size (their empty tracks) to what GQA, MQA and MLA keep, Compress on;
 * beside them, one query's output computed three ways (rebuilt keys and values, the MLA kernel's
 * naive path, the absorbed form) with their largest difference; below, what the shared latent
 * costs (the singular values of all heads' keys: MLA's stop at d_c). "Show the maths" opens the
 * numbers: the size table, the toy per-token cache collapsing into latents, the up-projections
 * that rebuild the selected token's keys and values, and K3's MLA settings. All numbers from the build.
 * State: c = compressed (default: the figure opens on its answer), t = query token (default the
 * last), m = the maths open. */
(function () {
  "use strict";

  K3.register("fig-10-mla-compression", {
    state: function (data) {
      var T = data.demo.T;
      return { c: K3.state.bool(true), t: K3.state.int(0, T - 1, T - 1), m: K3.state.bool(false) };
    },
    setup: function (mount, data, ctx) {
      var W = window.K3W, el = W.el, demo = data.demo, T = demo.T, H = demo.H;
      var mha = data.cache[0], mla = data.cache[data.cache.length - 1];
      function elList(tag, attrs, list) { return el.apply(null, [tag, attrs].concat(list)); }
      function flat(a) { return [].concat.apply([], a); }
      function tok(t) { return "t" + (t + 1); }
      function ratio(r) { return r.vs_mha === 1 ? "1×" : "1/" + W.fmt(r.vs_mha, 0); }
      // no line break inside "(k + v)", "[k1 k2]" or "d = 4,096": their spaces become no-break spaces
      function nb(s) { return s.replace(/[([][^()[\]]{1,20}[)\]]|\S+ [=≤] \S+/g, function (m) { return m.replace(/ /g, "\u00a0"); }); }

      /* ---- controls ---- */
      var compress = el("button", { type: "button", class: "k3-btn f10-compress", "aria-pressed": "false", text: "Compress",
        on: { click: function () { ctx.set({ c: !ctx.get().c }, "click"); } } });
      var mathsId = ctx.id + "-maths";
      var mathsBtn = el("button", { type: "button", class: "k3-btn f10-maths-btn", "aria-expanded": "false",
        "aria-controls": mathsId, on: { click: function () { ctx.set({ m: !ctx.get().m }, "click"); } } });

      /* ---- bytes per token: every bar starts at MHA's cache and shrinks to its own ---- */
      var bars = data.cache.map(function (r) {
        var bar = el("span", { class: "f10-bar" }), val = el("span", { class: "f10-val k3-num" });
        var row = el("div", { class: "f10-brow", "data-variant": r.name, "data-bytes": r.bytes },
          el("span", { class: "f10-bname" }, el("strong", { text: r.name }), el("span", { class: "f10-what", text: nb(r.what) })),
          el("span", { class: "f10-track", "data-sym": r.name === "MLA" ? "mla-latent" : null }, bar, val));
        return { row: row, val: val, r: r };
      });
      var ticks = elList("div", { class: "f10-ticks" }, data.ticks.map(function (b) {
        return el("span", { class: "f10-tick k3-num", style: "left:" + (100 * b / mha.bytes) + "%", text: W.int(b) });
      }));
      var chart = elList("div", { class: "f10-chart", role: "img", "data-graphic": "chart" }, bars.map(function (b) { return b.row; }).concat([
        el("div", { class: "f10-axis", "aria-hidden": "true" }, ticks,
          el("span", { class: "f10-axis-title k3-axis-title", text: nb("bytes per token per layer, d = " + W.int(data.d_model)) }))]));
      var lede = el("p", { class: "f10-lede" });
      var source = W.html(el("p", { class: "f10-source" }), data.source_html);

      /* ---- one query, three orders of the same computation ---- */
      var chooser = W.choice({
        label: "Query token",
        options: W.range(T, function (t) { return { value: t, text: tok(t), aria: "Token " + (t + 1) }; }),
        value: ctx.get().t,
        onChange: function (t, how) { ctx.set({ t: t }, how); },
      });
      var forms = [["recon", "rebuilt K, V"], ["naive", "MLA, naive"], ["absorbed", "absorbed"]];
      var outCols = flat(W.range(H, function (h) { return W.range(demo.d, function (d) { return "h" + (h + 1) + " d" + (d + 1); }); }));
      var outView = W.matrix({ caption: "output o_t", rows: forms.map(function (f) { return f[1]; }), cols: outCols, digits: 4, corner: "form" });
      outView.node.classList.add("f10-out");
      var outMax = Math.max.apply(null, flat(flat(demo.out.recon)).map(Math.abs));
      var diff = el("p", { class: "f10-diff" });
      var same = el("div", { class: "f10-same" },
        el("p", { class: "f10-head" }, "Same output, three orders"),
        el("div", { class: "k3-row f10-query" }, el("span", { class: "f10-qlabel", text: "query" }), chooser.node),
        el("div", { class: "k3-scroll" }, outView.node), diff);

      /* ---- the price: every head's keys come from the same d_c latent numbers ---- */
      var sub = demo.subspace;
      var kNames = W.range(H, function (h) { return "k" + (h + 1); }).join(" ");
      var svMax = Math.max.apply(null, sub.sv_keys.mla.concat(sub.sv_keys.independent));
      var svView = W.matrix({ caption: nb("singular values of [" + kNames + "] over " + sub.tokens + " tokens"),
        rows: ["MLA", "independent W_K"], cols: W.range(sub.sv_keys.mla.length, function (i) { return "σ" + W.sub(i + 1); }),
        digits: 3, corner: "keys from" });
      svView.node.classList.add("f10-sv");
      svView.update([sub.sv_keys.mla, sub.sv_keys.independent]);
      // a bar beside each value; past the matrix's rank (the build's numpy.linalg.matrix_rank) the value is rounding: no bar
      [["mla", sub.rank.mla.keys], ["independent", sub.rank.independent.keys]].forEach(function (f, i) {
        svView.cells[i].forEach(function (td, j) {
          td.insertBefore(el("span", { class: "f10-sv-bar", "aria-hidden": "true", style: "--h:" + sub.sv_keys[f[0]][j] / svMax }), td.firstChild);
          td.classList.toggle("f10-beyond", j >= f[1]);
        });
      });
      function num(attr, v) { var a = { class: "k3-num" }; a["data-rank"] = attr; a.text = String(v); return el("span", a); }
      var price = el("div", { class: "f10-price" },
        el("p", { class: "f10-head" }, "What the shared latent costs"),
        el("div", { class: "k3-scroll" }, svView.node),
        el("p", { class: "f10-exact", text: "Equal outputs show that re-ordering the computation is exact. They do not show " +
          "that MLA is multi-head attention with a smaller cache." }),
        el("p", { class: "f10-rank" }, nb("Rank of all heads' keys side by side, [" + kNames + "]: MLA "), num("mla-keys", sub.rank.mla.keys),
          " ≤ d_c\u00a0=\u00a0", num("d_c", sub.d_c), "; independent per-head projections, as in multi-head attention, ",
          num("independent-keys", sub.rank.independent.keys), " of h·d_h\u00a0=\u00a0", num("hd", sub.hd),
          ". Every head reads the same few latent numbers per token, so the heads cannot vary independently."));
      var rankMore = el("p", { class: "f10-rank f10-rank-more" }, "Values side by side have rank ", num("mla-values", sub.rank.mla.values),
        " in MLA against ", num("independent-values", sub.rank.independent.values), " from independent projections; MLA's keys and " +
        "values together still have rank ", num("mla-kv", sub.rank_kv_mla), ", no more than d_c.");

      /* ---- the maths, on demand: the size table, the toy cache and the up-projections ---- */
      var sizes = el("table", { class: "f10-sizes" },
        el("caption", { text: nb("Cache per token per layer, d = " + W.int(data.d_model) + ", " + data.bytes_per_element + " bytes per element") }),
        el("thead", {}, elList("tr", {}, ["cache", "elements", "bytes", "vs MHA"].map(function (s) { return el("th", { scope: "col", text: s }); }))),
        elList("tbody", {}, data.cache.map(function (r) {
          return el("tr", { "data-variant": r.name },
            el("th", { scope: "row" }, r.name, el("span", { class: "f10-what", text: nb(r.what) })),
            el("td", { class: "k3-num", text: W.int(r.elements) }), el("td", { class: "k3-num", text: W.int(r.bytes) }),
            el("td", { class: "k3-num", text: ratio(r) }));
        })));
      function cells(kind, cls, label, values) {
        return elList("span", { class: "f10-group " + cls, title: label }, [el("span", { class: "f10-glabel", text: label })].concat(
          values.map(function (v) { return el("span", { class: "f10-cell k3-num", text: W.fmt(v, 2) }); })));
      }
      var cacheRows = W.range(T, function (t) {
        var kv = elList("span", { class: "f10-kv" }, W.range(H, function (h) { return cells("k", "f10-k", "k" + (h + 1), demo.K[t][h]); })
          .concat(W.range(H, function (h) { return cells("v", "f10-v", "v" + (h + 1), demo.V[t][h]); })));
        var lat = el("span", { class: "f10-lat", "data-sym": "mla-latent" }, cells("c", "f10-c", "c", demo.latents[t]));
        return el("div", { class: "f10-row", "data-t": t, on: { click: function () { ctx.set({ t: t }, "click"); },
          pointerenter: function () { ctx.set({ t: t }, "hover"); } } }, el("span", { class: "f10-tok", text: tok(t) }), kv, lat);
      });
      var cacheNote = el("p", { class: "f10-cache-note" });
      var cache = elList("div", { class: "f10-cache", role: "img", "data-graphic": "diagram" }, cacheRows);
      var wRows = flat(W.range(H, function (h) { return W.range(demo.d_c, function (c) { return "h" + (h + 1) + " · c" + (c + 1); }); }));
      var dCols = W.range(demo.d, function (i) { return "d" + (i + 1); });
      var latView = W.matrix({ caption: "c_t (cached)", cols: W.range(demo.d_c, function (i) { return "c" + (i + 1); }), digits: 3, sym: "mla-latent" });
      var ukView = W.matrix({ caption: "W_UK", rows: wRows, cols: dCols, digits: 2, sym: "mla-uk" });
      var uvView = W.matrix({ caption: "W_UV", rows: wRows, cols: dCols, digits: 2, sym: "mla-uv" });
      var kvLabels = W.range(H, function (h) { return "k head " + (h + 1); }).concat(W.range(H, function (h) { return "v head " + (h + 1); }));
      var rebuilt = W.matrix({ caption: "rebuilt k, v", rows: kvLabels, cols: dCols, digits: 3, corner: "" });
      rebuilt.node.classList.add("f10-rebuilt");
      ukView.update(flat(demo.W_uk));
      uvView.update(flat(demo.W_uv));
      var maths = el("div", { class: "f10-maths", id: mathsId },
        el("div", { class: "k3-scroll" }, sizes),
        el("div", { class: "f10-toy" }, el("p", { class: "f10-head" }, "A toy layer, token by token"), cacheNote, cache),
        el("div", { class: "f10-up" }, el("p", { class: "f10-head" }, "At attention time, for the query token"),
          el("div", { class: "f10-up-grid" }, latView.node, ukView.node, uvView.node, rebuilt.node)),
        rankMore,
        el("p", { class: "f10-forms", text: "rebuilt K, V: up-project every cached latent to keys and values, then ordinary " +
          "attention per head; MLA, naive: the MLA kernel doing the same inside; absorbed: W_UK folded into the query, " +
          "scores and the weighted sum taken over the latents, W_UV applied once after, so keys and values are never formed." }),
        W.html(el("p", { class: "f10-k3" }), data.k3_html));

      mount.appendChild(el("div", { class: "f10" },
        el("div", { class: "f10-controls k3-row" }, compress, mathsBtn),
        el("div", { class: "f10-grid" }, el("div", { class: "f10-left" }, lede, chart, source), same),
        price, maths));

      /* First sight: the figure opens compressed, its answer, but until the chart is well on screen
       * the bars are drawn at multi-head attention's length, then shrink once, so the reader sees the
       * compression happen. Not under reduced motion, nor once the reader has acted or a link has
       * restored another view. The state (URL, labels, narration) is compressed throughout. */
      var intro = ctx.get().c && !ctx.reducedMotion() && "IntersectionObserver" in window && !matchMedia("print").matches;
      var introSeen = intro ? new IntersectionObserver(function (es) {
        if (es.some(function (e) { return e.isIntersecting; })) endIntro(true);
      }, { threshold: 0.6 }) : null;
      function endIntro(play) {
        if (!intro) return;
        intro = false;
        introSeen.disconnect();
        if (!play) paintBars(ctx.get().c);
        else requestAnimationFrame(function () { mount.firstChild.classList.remove("f10-still"); paintBars(ctx.get().c); });
      }
      if (intro) ctx.on(window, "beforeprint", function () { endIntro(false); });  // paper shows the state, never the wait
      function paintBars(c) {
        mount.firstChild.dataset.intro = intro ? "pending" : "done";
        bars.forEach(function (b) {
          var bytes = c ? b.r.bytes : mha.bytes;
          b.row.style.setProperty("--w", bytes / mha.bytes);
          b.row.classList.toggle("is-full", bytes === mha.bytes);  // its label sits past the track's end
          b.val.textContent = W.int(bytes) + " B" + (c ? " · " + ratio(b.r) : "");
        });
      }
      function paintCache(s) {
        compress.setAttribute("aria-pressed", s.c ? "true" : "false");  // a toggle: its label stays, pressed = on
        paintBars(s.c && !intro);
        lede.textContent = s.c
          ? "Compressed: MLA keeps " + nb(mla.what) + ", " + ratio(mla) + " of multi-head attention's cache."
          : "Before compression, every row: multi-head attention's " + nb(mha.what) + ".";
        chart.setAttribute("aria-label", "Bytes cached per token per layer: " + data.cache.map(function (r) {
          return r.name + " " + W.int(s.c ? r.bytes : mha.bytes);
        }).join(", ") + (s.c ? "." : ", all multi-head attention's size before compression."));
        cache.classList.toggle("is-compressed", s.c);
        cacheNote.textContent = s.c
          ? "Cached: one latent c_t per token, " + demo.cache_demo.latent + " numbers; W_UK and W_UV below rebuild keys and values."
          : "Cached: a key and a value for each of " + H + " heads, " + demo.cache_demo.kv + " numbers per token.";
        cache.setAttribute("aria-label", "Toy cache of " + T + " tokens, each " + (s.c
          ? "a latent row of " + demo.cache_demo.latent + " numbers" : H + " keys and " + H + " values, " + demo.cache_demo.kv + " numbers"));
      }
      function paintQuery(s) {
        var t = s.t;
        chooser.set(t);
        cacheRows.forEach(function (r, i) { r.classList.toggle("is-sel", i === t); });
        latView.update([demo.latents[t]]);
        rebuilt.update(demo.K[t].concat(demo.V[t]));
        outView.node.caption.textContent = "output o_t, query " + tok(t);
        outView.update(forms.map(function (f) { return flat(demo.out[f[0]][t]); }), { style: function (td, v) {
          td.style.setProperty("--w", Math.abs(v) / outMax);
          td.classList.toggle("is-neg", v < 0);
        } });
        diff.textContent = "";
        diff.append("Largest difference |Δ| from the rebuilt form: naive ",
          el("span", { class: "k3-num", "data-diff": "naive", text: W.sci(demo.max_diff.naive[t]) }), ", absorbed ",
          el("span", { class: "k3-num", "data-diff": "absorbed", text: W.sci(demo.max_diff.absorbed[t]) }),
          ": floating-point rounding.");
      }

      return {
        render: function (s, prev, how) {
          if (prev) endIntro(false);
          mount.firstChild.classList.toggle("f10-still", !prev || how === "restore" || ctx.reducedMotion());
          paintCache(s);
          paintQuery(s);
          mathsBtn.setAttribute("aria-expanded", s.m ? "true" : "false");
          mathsBtn.textContent = s.m ? "Hide the maths" : "Show the maths";
          maths.hidden = !s.m;
          if (!prev && intro) introSeen.observe(chart);
        },
        destroy: function () { if (introSeen) introSeen.disconnect(); },
        describe: function (prev, s) {
          if (prev.c !== s.c) {
            return s.c
              ? "Compressed: " + data.cache.map(function (r) { return r.name + " " + W.int(r.bytes) + " bytes (" + ratio(r) + ")"; }).join(", ") +
                " per token per layer." + (s.m  // the element counts and the toy cache are in the maths panel: said only when it is open
                  ? " At d = " + W.int(data.d_model) + " MLA caches " + W.int(mla.elements) + " elements instead of " + W.int(mha.elements) +
                    ". In the toy layer, each token keeps " + demo.cache_demo.latent + " numbers instead of " + demo.cache_demo.kv + "."
                  : "")
              : "Expanded: every row back at multi-head attention's " + W.int(mha.bytes) + " bytes per token per layer.";
          }
          if (prev.m !== s.m) return s.m ? "The maths shown: cache sizes, the toy cache and the up-projections W_UK, W_UV." : "The maths hidden.";
          var t = s.t;
          return "Query " + tok(t) + ": " + (s.m ? "latent c = " + demo.latents[t].map(function (v) { return W.fmt(v, 3); }).join(", ") + "; " : "") +
            "head 1 output " + demo.out.absorbed[t][0].map(function (v) { return W.fmt(v, 4); }).join(", ") +
            " in all three forms, largest difference " + W.sci(Math.max(demo.max_diff.naive[t], demo.max_diff.absorbed[t])) + ".";
        },
      };
    },
  });
})();
