/* FIG 10 · MLA cache compression. At a glance: bytes cached per token per layer as bars shrunk from
 * multi-head attention's size (their empty tracks) to what GQA, MQA and MLA keep, Compress on;
 * beside them, one query's output computed three ways (rebuilt keys and values, the MLA kernel's
 * naive path, the absorbed form) with their largest difference; below, what the shared latent
 * costs (the singular values of all heads' keys: MLA's stop at d_c). "Show the maths" opens the
 * numbers: the size table, the toy per-token cache collapsing into latents, the up-projections
 * that rebuild the selected token's keys and values, and K3's MLA settings. All numbers and every
 * text from the build (data.text; per state, lists indexed by compressed 0/1, maths open 0/1 or token).
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
      var W = window.K3W, el = W.el, demo = data.demo, T = demo.T, H = demo.H, text = data.text;
      var mha = data.cache[0];
      function elList(tag, attrs, list) { return el.apply(null, [tag, attrs].concat(list)); }
      function flat(a) { return [].concat.apply([], a); }
      function shown(tag, attrs, path) { return ctx.show(el(tag, attrs), path); }
      function say(key) { return ["text"].concat(key); }
      /* a line of pieces (builder's _texts): each a span in order, a number's with its data attributes */
      function pieces(node, path) {
        node.textContent = "";
        path.reduce(function (node, key) { return node[key]; }, data).forEach(function (piece, i) {
          var attrs = piece.number ? Object.assign({ class: "k3-num" }, piece.number) : {};
          node.appendChild(shown("span", attrs, path.concat([i, "text"])));
        });
        return node;
      }

      /* ---- controls ---- */
      var compress = el("button", { type: "button", class: "k3-btn f10-compress", "aria-pressed": "false", text: "Compress",
        on: { click: function () { ctx.set({ c: !ctx.get().c }, "click"); } } });
      var mathsId = ctx.id + "-maths";
      var mathsBtn = el("button", { type: "button", class: "k3-btn f10-maths-btn", "aria-expanded": "false",
        "aria-controls": mathsId, on: { click: function () { ctx.set({ m: !ctx.get().m }, "click"); } } });

      /* ---- bytes per token: every bar starts at MHA's cache and shrinks to its own ---- */
      var bars = data.cache.map(function (r, i) {
        var bar = el("span", { class: "f10-bar" }), val = el("span", { class: "f10-val k3-num" });
        var row = el("div", { class: "f10-brow", "data-variant": r.name, "data-bytes": r.bytes },
          el("span", { class: "f10-bname" }, shown("strong", {}, ["cache", i, "name"]), shown("span", { class: "f10-what" }, ["cache", i, "text", "what"])),
          el("span", { class: "f10-track", "data-sym": r.name === "MLA" ? "mla-latent" : null }, bar, val));
        return { row: row, val: val, r: r, i: i };
      });
      var ticks = elList("div", { class: "f10-ticks" }, data.ticks.map(function (b, i) {
        return shown("span", { class: "f10-tick k3-num", style: "left:" + (100 * b / mha.bytes) + "%" }, say(["ticks", i]));
      }));
      var chart = elList("div", { class: "f10-chart", role: "img", "data-graphic": "chart" }, bars.map(function (b) { return b.row; }).concat([
        el("div", { class: "f10-axis", "aria-hidden": "true" }, ticks, shown("span", { class: "f10-axis-title k3-axis-title" }, say(["axis_title"])))]));
      var lede = el("p", { class: "f10-lede" });
      // fact badges go in with W.html, not ctx.show: the page rewrites them once placed (and a browser
      // writes their entities back its own way), so their HTML cannot be compared with the shipped
      var source = W.html(el("p", { class: "f10-source" }), data.source_html);

      /* ---- one query, three orders of the same computation ---- */
      var chooser = W.choice({
        label: "Query token",
        options: W.range(T, function (t) { return { value: t, text: text.tokens[t], aria: text.token_aria[t] }; }),
        value: ctx.get().t,
        onChange: function (t, how) { ctx.set({ t: t }, how); },
      });
      var forms = ["recon", "naive", "absorbed"];  // the rows of text.forms
      var outView = W.matrix({ caption: text.out_caption[ctx.get().t], rows: text.forms, cols: text.out_cols, digits: 4, corner: "form" });
      outView.node.classList.add("f10-out");
      var outMax = Math.max.apply(null, flat(flat(demo.out.recon)).map(Math.abs));
      var diff = el("p", { class: "f10-diff" });
      var same = el("div", { class: "f10-same" },
        shown("p", { class: "f10-head" }, say(["heads", "same"])),
        el("div", { class: "k3-row f10-query" }, el("span", { class: "f10-qlabel", text: "query" }), chooser.node),
        el("div", { class: "k3-scroll" }, outView.node), diff);

      /* ---- the price: every head's keys come from the same d_c latent numbers ---- */
      var sub = demo.subspace;
      var svMax = Math.max.apply(null, sub.sv_keys.mla.concat(sub.sv_keys.independent));
      var svView = W.matrix({ caption: text.sv_caption, rows: ["MLA", "independent W_K"], cols: text.sv_cols,
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
      var price = el("div", { class: "f10-price" },
        shown("p", { class: "f10-head" }, say(["heads", "price"])),
        el("div", { class: "k3-scroll" }, svView.node),
        shown("p", { class: "f10-exact" }, say(["exact"])),
        pieces(el("p", { class: "f10-rank" }), say(["rank_line"])));
      var rankMore = pieces(el("p", { class: "f10-rank f10-rank-more" }), say(["rank_more"]));

      /* ---- the maths, on demand: the size table, the toy cache and the up-projections ---- */
      var sizes = el("table", { class: "f10-sizes" },
        shown("caption", {}, say(["sizes_caption"])),
        el("thead", {}, elList("tr", {}, ["cache", "elements", "bytes", "vs MHA"].map(function (s) { return el("th", { scope: "col", text: s }); }))),
        elList("tbody", {}, data.cache.map(function (r, i) {
          var row = ["cache", i, "text"];
          return el("tr", { "data-variant": r.name },
            el("th", { scope: "row" }, r.name, shown("span", { class: "f10-what" }, row.concat(["what"]))),
            shown("td", { class: "k3-num" }, row.concat(["elements"])), shown("td", { class: "k3-num" }, row.concat(["bytes"])),
            shown("td", { class: "k3-num" }, row.concat(["ratio"])));
        })));
      function cells(cls, label, values) {
        return elList("span", { class: "f10-group " + cls, title: label }, [el("span", { class: "f10-glabel", text: label })].concat(
          values.map(function (v) { return el("span", { class: "f10-cell k3-num", text: W.fmt(v, 2) }); })));
      }
      var cacheRows = W.range(T, function (t) {
        var kv = elList("span", { class: "f10-kv" }, W.range(H, function (h) { return cells("f10-k", text.k_heads[h], demo.K[t][h]); })
          .concat(W.range(H, function (h) { return cells("f10-v", text.v_heads[h], demo.V[t][h]); })));
        var lat = el("span", { class: "f10-lat", "data-sym": "mla-latent" }, cells("f10-c", "c", demo.latents[t]));
        return el("div", { class: "f10-row", "data-t": t, on: { click: function () { ctx.set({ t: t }, "click"); },
          pointerenter: function () { ctx.set({ t: t }, "hover"); } } }, shown("span", { class: "f10-tok" }, say(["tokens", t])), kv, lat);
      });
      var cacheNote = el("p", { class: "f10-cache-note" });
      var cache = elList("div", { class: "f10-cache", role: "img", "data-graphic": "diagram" }, cacheRows);
      var latView = W.matrix({ caption: "c_t (cached)", cols: text.c_cols, digits: 3, sym: "mla-latent" });
      var ukView = W.matrix({ caption: "W_UK", rows: text.w_rows, cols: text.d_cols, digits: 2, sym: "mla-uk" });
      var uvView = W.matrix({ caption: "W_UV", rows: text.w_rows, cols: text.d_cols, digits: 2, sym: "mla-uv" });
      var rebuilt = W.matrix({ caption: "rebuilt k, v", rows: text.kv_rows, cols: text.d_cols, digits: 3, corner: "" });
      rebuilt.node.classList.add("f10-rebuilt");
      ukView.update(flat(demo.W_uk));
      uvView.update(flat(demo.W_uv));
      var maths = el("div", { class: "f10-maths", id: mathsId },
        el("div", { class: "k3-scroll" }, sizes),
        el("div", { class: "f10-toy" }, shown("p", { class: "f10-head" }, say(["heads", "toy"])), cacheNote, cache),
        el("div", { class: "f10-up" }, shown("p", { class: "f10-head" }, say(["heads", "up"])),
          el("div", { class: "f10-up-grid" }, latView.node, ukView.node, uvView.node, rebuilt.node)),
        rankMore,
        shown("p", { class: "f10-forms" }, say(["forms_note"])),
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
          ctx.show(b.val, ["cache", b.i, "text", "bar", c ? 1 : 0]);
        });
      }
      function paintCache(s) {
        compress.setAttribute("aria-pressed", s.c ? "true" : "false");  // a toggle: its label stays, pressed = on
        paintBars(s.c && !intro);
        var c = s.c ? 1 : 0;
        ctx.show(lede, say(["lede", c]));
        chart.setAttribute("aria-label", ctx.text(say(["chart_label", c])));
        cache.classList.toggle("is-compressed", s.c);
        ctx.show(cacheNote, say(["cache_note", c]));
        cache.setAttribute("aria-label", ctx.text(say(["cache_label", c])));
      }
      function paintQuery(s) {
        var t = s.t;
        chooser.set(t);
        cacheRows.forEach(function (r, i) { r.classList.toggle("is-sel", i === t); });
        latView.update([demo.latents[t]]);
        rebuilt.update(demo.K[t].concat(demo.V[t]));
        ctx.show(outView.node.caption, say(["out_caption", t]));
        outView.update(forms.map(function (f) { return flat(demo.out[f][t]); }), { style: function (td, v) {
          td.style.setProperty("--w", Math.abs(v) / outMax);
          td.classList.toggle("is-neg", v < 0);
        } });
        pieces(diff, say(["diff_line", t]));
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
          var m = s.m ? 1 : 0;
          // the element counts and the toy cache are in the maths panel: said only when it is open
          if (prev.c !== s.c) return { path: say(s.c ? ["said", "compressed", m] : ["said", "expanded"]) };
          if (prev.m !== s.m) return { path: say(["said", "maths", m]) };
          return { path: say(["said", "query", m, s.t]) };
        },
      };
    },
  });
})();
