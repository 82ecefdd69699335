/* FIG 11b · Keeping experts busy over training: one toy router trained three ways on the same
 * batches (no balancing, Switch's auxiliary loss at weight α, DeepSeek-V3's selection-only bias).
 * Top: the busiest expert's load ÷ the mean load at every step, one line per run (the other α
 * values faint), the capacity factor as a dashed line, a marker at the chosen step. Below: the
 * load on each expert at that step, one bar panel per run, slots over capacity drawn as dropped.
 * Every number was computed at build time (experiments.balance), and every sentence written there
 * (builder.reader_text); nothing here does science or composes text.
 * State: step (a grid step), a = α, cf = capacity factor, e = the selected expert (−1: none). */
(function () {
  "use strict";
  var KINDS = ["none", "switch", "bias"];
  var M = { l: 34, r: 10, t: 10, b: 30 }, H = 200;  // chart margins and height (px)

  K3.register("fig-11b-balance", {
    state: function (data) {
      var last = data.steps[data.steps.length - 1];
      return { step: K3W.gridState(data.steps, last), a: K3.state.oneOf(data.alphas, data.alpha_default),
        cf: K3.state.oneOf(data.capacity_factors, data.capacity_default), e: K3.state.int(-1, data.experts - 1, -1) };
    },
    setup: function (mount, data, ctx) {
      var W = window.K3W, el = W.el, S = W.svg;
      var N = data.experts, G = data.steps.length, last = data.n_steps, st = ctx.get();
      function run(kind, s) { return kind === "none" ? 0 : kind === "bias" ? data.runs.length - 1 : 1 + data.alphas.indexOf(s.a); }
      function at(s) { return data.steps.indexOf(s.step); }
      function cfAt(s) { return data.capacity_factors.indexOf(s.cf); }
      function cap(s) { return data.capacity[cfAt(s)]; }
      function ratio(kind, s) { return data.ratio[run(kind, s)][s.step]; }
      /* where the shipped texts of a state are: paths into the data, for the templates' slots */
      function alphaSlot(s) { return ["alpha_text", data.alphas.indexOf(s.a)]; }
      function cfSlot(s) { return ["cf_text", cfAt(s)]; }
      function ratioSlot(kind, s) { return ["ratio_text", run(kind, s), at(s)]; }
      function droppedSlot(kind, s) { return ["dropped_text", cfAt(s), run(kind, s), at(s)]; }
      function shareSlot(kind, s) { return ["aux_share_text", run(kind, s), at(s)]; }
      function expertSlots(s) {
        var j = at(s);
        return { expert: ["expert_label", s.e], step: ["steps", j], load_none: ["load", run("none", s), j, s.e],
          load_switch: ["load", run("switch", s), j, s.e], alpha: alphaSlot(s), load_bias: ["load", run("bias", s), j, s.e],
          capacity: ["capacity", cfAt(s)], bias: ["bias_text", j, s.e] };
      }
      function elList(tag, attrs, list) { return el.apply(null, [tag, attrs].concat(list)); }

      /* ---------- controls ---------- */
      var slider = W.slider({ label: "Step", values: data.steps, index: at(st),
        format: function (v) { return ctx.text(["text", "slider"], { step: ["steps", data.steps.indexOf(v)], last: ["n_steps"] }); },
        onInput: function (i, how) { ctx.set({ step: data.steps[i] }, how); } });
      slider.input.addEventListener("change", function () { ctx.end(); });
      var alpha = W.choice({ label: "Loss weight α", value: st.a, onChange: function (v, how) { ctx.set({ a: +v }, how); },
        options: data.alphas.map(function (a, i) {
          return { value: a, text: ctx.text(["text", "alpha_option"], { alpha: ["alpha_text", i] }), sym: "bal-alpha" };
        }) });
      var factor = W.choice({ label: "Capacity factor", value: st.cf, onChange: function (v, how) { ctx.set({ cf: +v }, how); },
        options: data.capacity_factors.map(function (c, i) {
          var slot = { cf: ["cf_text", i] };
          return { value: c, text: ctx.text(["text", "cf_option"], slot), sym: "bal-capacity", aria: ctx.text(["text", "cf_option_aria"], slot) };
        }) });
      function group(label, node) { return el("div", { class: "k3-row f11b-group" }, el("span", { class: "k3-label", "aria-hidden": "true", text: label }), node); }

      /* ---------- the chart: busiest ÷ mean over the steps ---------- */
      var svg = S.el("svg", { class: "f11b-chart", role: "img", "data-graphic": "chart", height: H });
      var box = el("div", { class: "f11b-plot" }, svg);
      var width = 0, lines = {}, dots = {}, capLine, capZone, marker;
      function x(step) { return M.l + (width - M.l - M.r) * step / last; }
      function y(r) { return M.t + (H - M.t - M.b) * Math.log(data.ratio_max / r) / Math.log(data.ratio_max); }  // log scale
      function draw() {  // at the width the chart has (one SVG unit per CSS pixel, so its text keeps the page's size)
        width = Math.max(240, box.clientWidth);
        svg.setAttribute("viewBox", "0 0 " + width + " " + H);
        svg.setAttribute("width", width);
        svg.textContent = "";
        var ticks = S.g({ class: "f11b-axis", "aria-hidden": "true" });
        [1, 1.5, 2, 3, 4, 6, 8].filter(function (r) { return r <= data.ratio_max; }).forEach(function (r) {
          ticks.appendChild(S.line(M.l, y(r), width - M.r, y(r), "f11b-grid"));
          ticks.appendChild(S.el("text", { x: M.l - 5, y: y(r) + 4, "text-anchor": "end", text: r + "×" }));
        });
        for (var k = 0; k <= last; k += 20) ticks.appendChild(S.el("text", { x: x(k), y: H - M.b + 15, "text-anchor": "middle", text: String(k) }));
        ticks.appendChild(S.el("text", { x: width - M.r, y: H - 3, "text-anchor": "end", class: "k3-axis-title", text: "router step" }));
        svg.appendChild(ticks);
        capZone = svg.appendChild(S.rect(M.l, M.t, width - M.l - M.r, 0, "f11b-over-zone", { "aria-hidden": "true" }));
        data.runs.forEach(function (r, i) {
          var pts = data.ratio[i].map(function (v, t) { return x(t).toFixed(1) + "," + y(v).toFixed(1); }).join(" ");
          lines[i] = svg.appendChild(S.el("polyline", { points: pts, class: "f11b-line f11b-" + r.regime, "data-run": i }));
        });
        capLine = svg.appendChild(S.line(M.l, 0, width - M.r, 0, "f11b-cap", { "data-sym": "bal-capacity" }));
        marker = svg.appendChild(S.line(0, M.t, 0, H - M.b, "f11b-marker"));
        KINDS.forEach(function (kind) { dots[kind] = svg.appendChild(S.el("circle", { r: 4.5, class: "f11b-dot f11b-" + kind })); });
        paintChart(st);
      }
      function paintChart(s) {
        if (!width) return;
        var active = [0, run("switch", s), data.runs.length - 1];
        Object.keys(lines).forEach(function (i) { lines[i].classList.toggle("is-faint", active.indexOf(+i) < 0); });
        svg.appendChild(lines[active[1]]);  // the chosen α's line above the others
        capLine.setAttribute("transform", "translate(0," + y(s.cf).toFixed(1) + ")");
        capZone.setAttribute("height", Math.max(0, y(s.cf) - M.t).toFixed(1));
        ctx.show(capKey, ["text", "cf_key"], { cf: cfSlot(s) });
        marker.setAttribute("transform", "translate(" + x(s.step).toFixed(1) + ",0)");
        KINDS.forEach(function (kind) {
          dots[kind].setAttribute("cx", x(s.step).toFixed(1));
          dots[kind].setAttribute("cy", y(ratio(kind, s)).toFixed(1));
          svg.appendChild(dots[kind]);
        });
        svg.setAttribute("aria-label", ctx.text(["text", "chart"], { alpha: alphaSlot(s),
          switch_end: ["ratio_text", run("switch", s), G - 1], cf: cfSlot(s), step: ["steps", at(s)] }));
      }
      W.scrub({ node: box, listen: ctx.on, margin: M, count: G, onIndex: function (i, how) { ctx.set({ step: data.steps[i] }, how); }, onEnd: ctx.end });
      var resize = "ResizeObserver" in window ? new ResizeObserver(function () { if (box.clientWidth !== width) draw(); }) : null;

      var capKey = el("span");
      var legend = W.legend(KINDS.map(function (kind) { return { text: data.labels[kind], swatch: "line", cls: "f11b-key f11b-" + kind }; })
        .concat([{ text: "other α", swatch: "line", faint: true, cls: "f11b-switch" },
          { node: capKey, swatch: "line", dash: true, cls: "f11b-capkey" }]), { hidden: true });

      /* ---------- one bar panel per run: tokens per expert at the chosen step ---------- */
      var panels = KINDS.map(function (kind) {
        var head = el("p", { class: "f11b-title", "data-sym": kind === "switch" ? "bal-alpha" : kind === "bias" ? "bal-bias" : null });
        var list = el("div", { class: "f11b-bars", role: "listbox", "aria-orientation": "horizontal", "data-sym": "bal-load",
          on: { pointerleave: ctx.end } });
        var capBar = el("span", { class: "f11b-capbar", "aria-hidden": "true", "data-sym": "bal-capacity" });
        var bars = W.range(N, function (e) {
          var keep = el("span", { class: "f11b-in" }), over = el("span", { class: "f11b-over" });
          var opt = el("span", { class: "f11b-bar", role: "option", tabindex: -1, "data-e": e,
            on: { pointerenter: function () { ctx.set({ e: e }, "hover"); }, click: function () { ctx.set({ e: e }, "click"); } } },
            over, keep);
          return { node: list.appendChild(opt), keep: keep, over: over };
        });
        list.insertBefore(capBar, list.firstChild);
        list.addEventListener("keydown", function (ev) {
          var cur = ctx.get().e, next = null;
          if (ev.key === "ArrowRight" || ev.key === "ArrowDown") next = Math.min(N - 1, cur + 1);
          else if (ev.key === "ArrowLeft" || ev.key === "ArrowUp") next = Math.max(0, cur < 0 ? 0 : cur - 1);
          else if (ev.key === "Home") next = 0;
          else if (ev.key === "End") next = N - 1;
          if (next === null) return;
          ev.preventDefault();
          ctx.set({ e: next }, "key");
          bars[next].node.focus();
        });
        var note = el("p", { class: "f11b-note k3-num" });
        var nums = elList("div", { class: "f11b-nums", "aria-hidden": "true" }, W.range(N, function (e) { return ctx.show(el("span"), ["expert_label", e]); }));
        return { kind: kind, head: head, list: list, bars: bars, capBar: capBar, note: note,
          node: el("div", { class: "f11b-panel f11b-p-" + kind }, head, list, nums, note) };
      });
      var pick = el("p", { class: "f11b-pick" });
      var k3 = W.html(el("p", { class: "f11b-k3" }), data.k3_html);  // trusted: rendered by the build from k3_md

      mount.appendChild(el("div", { class: "f11b" },
        el("div", { class: "f11b-controls" }, slider.node, group("Loss weight", alpha.node), group("Capacity factor", factor.node)),
        ctx.show(el("p", { class: "f11b-ytitle k3-axis-title", "aria-hidden": "true" }), ["text", "y_title"]), box, legend,
        elList("div", { class: "f11b-panels" }, panels.map(function (p) { return p.node; })), pick, k3));
      if (resize) resize.observe(box);

      function paintBars(s) {
        var j = at(s), ci = cfAt(s), c = cap(s), top = data.load_axis, sel = s.e, capacity = ["capacity", ci];
        panels.forEach(function (p) {
          var r = run(p.kind, s), loads = data.load[r][j], over = data.over_capacity[ci][r][j];
          ctx.show(p.head, ["title", r]);
          p.capBar.style.bottom = (100 * c / top) + "%";
          p.bars.forEach(function (b, e) {
            b.keep.style.height = (100 * Math.min(loads[e], c) / top) + "%";
            b.over.style.height = (100 * over[e] / top) + "%";
            b.node.setAttribute("aria-selected", e === sel ? "true" : "false");
            b.node.tabIndex = e === (sel < 0 ? 0 : sel) ? 0 : -1;
            var slots = { expert: ["expert_label", e], load: ["load", r, j, e] };
            if (over[e]) slots.over = ["over_capacity", ci, r, j, e];
            b.node.setAttribute("aria-label", ctx.text(["text", over[e] ? "bar_over" : "bar"], slots));
          });
          p.list.setAttribute("aria-label", ctx.text(["text", "bars"], { title: ["title", r], step: ["steps", j], capacity: capacity }));
          var slots = { ratio: ratioSlot(p.kind, s), dropped: droppedSlot(p.kind, s) };
          if (p.kind === "switch") slots.stat = ["stat_text", r, j];
          if (p.kind !== "none") slots.share = shareSlot(p.kind, s);
          ctx.show(p.note, ["text", "note", p.kind], slots);
        });
        if (sel < 0) ctx.show(pick, ["text", "pick_hint"], { capacity: capacity });
        else ctx.show(pick, ["text", "expert"], expertSlots(s));
      }

      return {
        render: function (s) {
          st = s;
          if (!width) draw();
          slider.set(at(s));
          alpha.set(s.a);
          factor.set(s.cf);
          paintChart(s);
          paintBars(s);
        },
        describe: function (prev, s) {
          if (prev.step === s.step && prev.a === s.a && prev.cf === s.cf) return s.e < 0 ? null : { path: ["text", "expert"], slots: expertSlots(s) };
          var slots = { step: ["steps", at(s)], title: ["title", run("switch", s)], cf: cfSlot(s), share: shareSlot("switch", s) };
          KINDS.forEach(function (kind) {
            slots["ratio_" + kind] = ratioSlot(kind, s);
            slots["dropped_" + kind] = droppedSlot(kind, s);
          });
          return { path: ["text", "step"], slots: slots };
        },
        resume: function () { if (resize) resize.observe(box); if (box.clientWidth !== width) draw(); },
        pause: function () { if (resize) resize.unobserve(box); },
        destroy: function () { if (resize) resize.disconnect(); },
      };
    },
  });
})();
