/* FIG 04 · Autoregressive decode with a KV cache: prefill fills one K and one V column per prompt
 * token, then each step appends one column to each; counters show the cache size and the step's
 * reads and writes; the new token's output through the cache is shown beside the full causal
 * pass's row. A switch swaps the cache for linear attention's fixed d×d state. All numbers come
 * from decode_with_kv_cache / causal_softmax_attention / mechanism_costs at build time, and every
 * text it shows (data.views for each position and switch, data.text) is written by the builder. */
(function () {
  "use strict";
  K3.register("fig-04-kv-cache", {
    state: function (data) {
      // position 0: nothing processed yet; 1: prefill; 2…: decode steps
      return { step: K3.state.int(0, data.steps.length, 0), state: K3.state.oneOf(["cache", "fixed"], "cache") };
    },
    setup: function (mount, data, ctx) {
      var W = window.K3W, el = W.el;
      var P = data.n_prompt, D = data.D;
      var COUNT = data.steps.length + 1;

      function els(tag, attrs, kids) { return el.apply(null, [tag, attrs].concat(kids)); }
      function dims(n, p) { return W.range(n, function (i) { return p + (i + 1); }); }
      function flip(how) { ctx.set({ state: ctx.get().state === "fixed" ? "cache" : "fixed" }, how); }

      /* ---- controls ---- */
      var prefillBtn = el("button", { type: "button", class: "k3-btn f04-prefill", text: "Prefill",
        on: { click: function () { ctx.set({ step: 1 }, "click"); } } });
      var stepper = W.stepper({
        label: "Decode steps", count: COUNT, value: ctx.get().step,
        format: function (i) { return ctx.text(["position_text", i]); },
        onChange: function (i, how) { ctx.set({ step: i }, how); },
      });
      var player = W.player({ ctx: ctx, what: "the decode steps", last: COUNT - 1,
        at: function () { return ctx.get().step; }, go: function (i) { ctx.set({ step: i }, "play"); } });
      stepper.node.appendChild(player.node);
      var toggle = el("button", { type: "button", class: "k3-btn f04-switch", role: "switch", "aria-checked": "false",
        "aria-keyshortcuts": "S", on: { click: function () { flip("click"); } } },
        el("span", { class: "f04-knob", "aria-hidden": "true" }), "Fixed-size state (§05)");

      /* ---- tokens ---- */
      var chips = data.tokens.map(function (tok, t) {
        return el("li", { class: "f04-tok" + (t < P ? " is-prompt" : " is-gen") },
          el("span", { class: "f04-tok-pos k3-num", text: String(t + 1) }), el("span", { class: "f04-tok-text" }));
      });
      var strip = el("div", { class: "f04-strip" },
        els("ol", { class: "f04-tokens", "aria-label": ctx.text(["text", "tokens_label"]) }, chips),
        el("span", { class: "f04-illus" }, el("span", { class: "badge badge-illustrative", text: "Illustrative" }), " continuation"));

      /* ---- memory: K and V caches, or the fixed state ---- */
      var cols = data.tokens.map(function (tok, t) { return String(t + 1); });
      var kView = W.matrix({ rows: dims(D, "k"), cols: cols, digits: 2, sym: "kv-cache" });
      var vView = W.matrix({ rows: dims(D, "v"), cols: cols, digits: 2, sym: "kv-cache" });
      var sView = W.matrix({ rows: dims(D, "k"), cols: dims(D, "v"), digits: 2, sym: "kv-cache" });
      ctx.show(kView.node.createCaption(), ["text", "k_caption"]);
      ctx.show(vView.node.createCaption(), ["text", "v_caption"]);
      ctx.show(sView.node.createCaption(), ["text", "state_caption"]);
      var cacheBox = el("div", { class: "f04-cache" }, el("div", { class: "k3-scroll" }, kView.node), el("div", { class: "k3-scroll" }, vView.node));
      var stateBox = el("div", { class: "f04-state" }, el("div", { class: "k3-scroll" }, sView.node),
        ctx.show(el("p", { class: "f04-note" }), ["text", "state_note"]));

      /* ---- counters ---- */
      function counter(key, sym, label) {
        var val = el("span", { class: "f04-val k3-num", "data-value": key });
        var sub = el("span", { class: "f04-sub" });
        var node = el("div", { class: "f04-counter", "data-sym": sym, tabindex: 0 }, el("span", { class: "f04-clabel", text: label }), val, sub);
        return { node: node, val: val, sub: sub };
      }
      var cN = counter("n", null, "tokens in context");
      var cKept = counter("kept", "kv-cache", "memory kept");
      var cReads = counter("reads", "kv-reads", "this step reads");
      var cWrites = counter("writes", "kv-writes", "this step writes");
      var counters = el("div", { class: "f04-counters" }, cN.node, cKept.node, cReads.node, cWrites.node);

      /* memory per step: cache bars grow, the fixed state is a flat line; a y-axis in elements kept
       * and an x-axis in tokens in context, so the growth reads as a number, not just a shape */
      var CH = 70, BW = 22, GAP = 6, X0 = 40, TOP = 8, XB = 30;  // XB: room for the x labels and title
      var maxKept = data.steps.reduce(function (m, s) { return Math.max(m, s.cache, s.state.kept); }, 1);
      var tick = Math.pow(10, Math.floor(Math.log10(maxKept / 2)));
      tick *= maxKept / tick > 8 ? (maxKept / tick > 16 ? 5 : 2) : 1;  // two to four ticks
      var yTop = Math.ceil(maxKept / tick) * tick;
      function y(vv) { return TOP + CH - CH * vv / yTop; }
      function svg(tag, attrs, text) { var n = el("svg:" + tag, attrs); if (text !== undefined) n.textContent = text; return n; }
      var chartW = X0 + data.steps.length * (BW + GAP);
      var chart = el("svg:svg", { viewBox: "0 0 " + chartW + " " + (TOP + CH + XB), class: "f04-chart", role: "img", "data-graphic": "chart",
        "aria-label": ctx.text(["text", "chart_label"]) });
      for (var tv = 0; tv <= yTop; tv += tick) {
        chart.appendChild(svg("line", { x1: X0 - 3, x2: chartW, y1: y(tv), y2: y(tv), class: "f04-grid" }));
        chart.appendChild(svg("text", { x: X0 - 5, y: y(tv) + 3, class: "f04-tick", "text-anchor": "end" }, W.int(tv)));
      }
      chart.appendChild(svg("text", { x: 9, y: TOP + CH / 2, class: "f04-axis-title k3-axis-title", "text-anchor": "middle",
        transform: "rotate(-90 9 " + (TOP + CH / 2) + ")" }, "elements kept"));
      var bars = data.steps.map(function (s, j) {
        var x = X0 + GAP / 2 + j * (BW + GAP);
        chart.appendChild(svg("text", { x: x + BW / 2, y: TOP + CH + 11, class: "f04-tick", "text-anchor": "middle" }, String(s.n)));
        return chart.appendChild(svg("rect", { x: x, y: y(s.cache), width: BW, height: TOP + CH - y(s.cache), class: "f04-bar" }));
      });
      chart.appendChild(svg("text", { x: X0 + (chartW - X0) / 2, y: TOP + CH + 26, class: "f04-axis-title k3-axis-title", "text-anchor": "middle" },
        "tokens in context"));
      var yState = y(data.steps[0].state.kept);
      chart.appendChild(svg("line", { x1: X0, x2: chartW, y1: yState, y2: yState, class: "f04-stateline" }));
      var chartBox = el("figure", { class: "f04-chartbox" }, chart, el("figcaption", {}, W.legend([
        { node: ctx.show(el("span"), ["text", "legend_cache"]), swatch: "box", cls: "f04-sw-cache" },
        { node: ctx.show(el("span"), ["text", "legend_state"]), swatch: "line", dash: true, cls: "f04-sw-state" }])));

      /* ---- the new token's output: through the cache = the full causal pass ---- */
      var outs = W.matrix({ rows: ["", ""], cols: dims(D, "o"), digits: 3, corner: "output" });
      var eqNote = el("p", { class: "f04-eq-note" });
      outs.node.tBodies[0].rows[0].setAttribute("data-out", "cached");
      outs.node.tBodies[0].rows[1].setAttribute("data-out", "full");
      var eqTitle = el("p", { class: "f04-eq-title" });
      var eqDiff = el("p", { class: "f04-eq-diff k3-num" });
      var eq = el("div", { class: "f04-eq" }, eqTitle, el("div", { class: "k3-scroll" }, outs.node), eqDiff, eqNote);

      mount.appendChild(el("div", { class: "f04" },
        el("div", { class: "f04-controls" }, prefillBtn, stepper.node, toggle),
        strip,
        el("div", { class: "f04-grid" },
          el("div", { class: "f04-memory" }, cacheBox, stateBox),
          el("div", { class: "f04-side" }, counters, chartBox, eq))));
      ctx.on(mount, "keydown", function (e) {  // S toggles the state view from anywhere in the figure
        if ((e.key === "s" || e.key === "S") && !e.ctrlKey && !e.metaKey && !e.altKey) {
          e.preventDefault();
          flip("key");
        }
      });

      /* ---- paint ---- */
      function kvRows(m, n) {  // [T, D] → D rows of T columns, columns beyond the cache blank
        return dims(D, "").map(function (_, i) { return m.map(function (row, t) { return t < n ? row[i] : "·"; }); });
      }
      function paint(pos, fixed) {
        var s = pos ? data.steps[pos - 1] : null, n = s ? s.n : 0, fresh = function (t) { return s && (s.kind === "prefill" ? t < n : t === n - 1); };
        chips.forEach(function (c, t) {
          var shown = t < P || t < n;
          c.lastChild.textContent = data.tokens[t];  // kept while pending (hidden), so decoding moves nothing
          c.classList.toggle("is-pending", !shown);
          c.classList.toggle("is-cached", t < n);
          c.classList.toggle("is-new", !!fresh(t));
        });
        var marks = { masked: function (i, t) { return t >= n; }, changed: function (i, t) { return !!fresh(t); } };
        kView.update(kvRows(data.k, n), marks);
        vView.update(kvRows(data.v, n), marks);
        sView.update(s ? s.state.S : dims(D, "").map(function () { return dims(D, "").map(function () { return 0; }); }),
          {});
        cacheBox.hidden = fixed;
        stateBox.hidden = !fixed;
        toggle.setAttribute("aria-checked", String(fixed));
        prefillBtn.disabled = pos >= 1;

        var mode = fixed ? "fixed" : "cache", view = ["views", mode, pos];
        ctx.show(cN.val, view.concat("n"));
        ctx.show(cN.sub, view.concat("n_note"));
        ctx.show(cKept.val, view.concat("kept"));
        ctx.show(cKept.sub, ["text", mode, "kept_note"]);
        ctx.show(cReads.val, view.concat("reads"));
        ctx.show(cReads.sub, view.concat("reads_note"));
        ctx.show(cWrites.val, view.concat("writes"));
        ctx.show(cWrites.sub, view.concat("writes_note"));

        bars.forEach(function (b, j) { b.setAttribute("class", "f04-bar" + (j < pos ? " is-done" : "") + (j === pos - 1 ? " is-now" : "")); });
        chart.classList.toggle("is-fixed", fixed);

        eq.hidden = !s;
        if (s) {
          ctx.show(eqTitle, view.concat("title"));
          /* the prefill's output comes from its own causal pass over the prompt, not through a cache;
           * with the switch on, the output is read from the state S, checked against the full linear pass */
          var rows = outs.node.tBodies[0].rows;
          ctx.show(rows[0].cells[0], view.concat("via"));
          ctx.show(rows[1].cells[0], ["text", mode, "full"]);
          outs.node.setAttribute("data-mode", mode);
          outs.update(fixed ? [s.state.out, s.state.full_out] : [s.cached_out, s.full_out]);
          ctx.show(eqDiff, view.concat("diff"));
          ctx.show(eqNote, ["text", mode, "note"]);
          eqNote.hidden = !fixed;
        }
      }
      /* the button just pressed may have become disabled (▶ at the end, Prefill once done): keep the
       * keyboard user inside the stepper instead of dropping focus to the page */
      function keepFocus() {
        var a = document.activeElement;
        if (a && a !== document.body && !a.disabled) return;
        var b = stepper.node.querySelector("button:not(:disabled)");
        if (b) b.focus();
      }
      /* The first time the figure is on screen it plays itself from the empty cache to the last step
       * (with reduced motion it shows that end state at once), so it never opens empty. The frames
       * are the figure's, not the reader's: set as "restore", they are neither narrated nor written
       * to the URL. A link naming this figure's state, or any press or key in it, cancels the intro. */
      var intro = { pending: ctx.get().step === 0 && !(K3._ && K3._.hash.read().state[ctx.id]), timer: null, own: false };
      function introSet(step) { intro.own = true; ctx.set({ step: step }, "restore"); intro.own = false; }
      function stopIntro() { clearInterval(intro.timer); intro.timer = null; }
      function cancelIntro() { intro.pending = false; stopIntro(); }
      function runIntro() {  // on every scroll of the page: measure (a layout) only while it could start
        if (!intro.pending || intro.timer || !ctx.visible()) return;
        var r = mount.getBoundingClientRect();
        if (r.top > innerHeight * 0.75 || r.bottom < innerHeight * 0.25) return;
        if (ctx.reducedMotion()) { cancelIntro(); introSet(COUNT - 1); return; }
        intro.timer = setInterval(function () {
          introSet(Math.min(ctx.get().step + 1, COUNT - 1));
          if (ctx.get().step >= COUNT - 1) cancelIntro();
        }, 650);
      }
      ctx.on(mount, "pointerdown", cancelIntro, true);
      ctx.on(mount, "keydown", cancelIntro, true);
      ctx.on(window, "scroll", runIntro, { passive: true });  // "first scrolled into view", not just started
      requestAnimationFrame(runIntro);

      if (ctx.reducedMotion()) mount.classList.add("f04-still");
      return {
        render: function (st, prev, how) {
          var fixed = st.state === "fixed";
          if (how === "restore" && prev && !intro.own) cancelIntro();  // back/forward: the reader's state wins
          if (how === "restore") player.stop();
          stepper.set(st.step);
          paint(st.step, fixed);
          if (how === "key" || how === "click") keepFocus();
        },
        // a step names what it processed; a flip of the switch, what is now shown
        describe: function (prev, next) {
          return { path: ["views", next.state, next.step, prev.state !== next.state ? "said_switch" : "said"] };
        },
        pause: function () { stopIntro(); player.pause(); },
        resume: function () { runIntro(); player.resume(); },
        destroy: function () { stopIntro(); player.stop(); },
      };
    },
  });
})();
