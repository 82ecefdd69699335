/* FIG 11b · Keeping experts busy over training: one toy router trained three ways on the same
 * batches (no balancing, Switch's auxiliary loss at weight α, DeepSeek-V3's selection-only bias).
 * Top: the busiest expert's load ÷ the mean load at every step, one line per run (the other α
 * values faint), the capacity factor as a dashed line, a marker at the chosen step. Below: the
 * load on each expert at that step, one bar panel per run, slots over capacity drawn as dropped.
 * Every number was computed at build time (experiments.balance); nothing here does science.
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
      function cap(s) { return data.capacity[data.capacity_factors.indexOf(s.cf)]; }
      function dropped(kind, s) { return data.dropped[data.capacity_factors.indexOf(s.cf)][run(kind, s)][at(s)]; }
      function ratio(kind, s) { return data.ratio[run(kind, s)][s.step]; }
      function pct(x, d) { return W.fmt(100 * x, d) + "%"; }
      function title(kind, s) { return kind === "switch" ? "Switch loss, α = " + s.a : data.labels[kind]; }
      function elList(tag, attrs, list) { return el.apply(null, [tag, attrs].concat(list)); }

      /* ---------- controls ---------- */
      var slider = W.slider({ label: "Step", values: data.steps, index: at(st),
        format: function (v) { return v + " of " + last; }, onInput: function (i, how) { ctx.set({ step: data.steps[i] }, how); } });
      slider.input.addEventListener("change", function () { ctx.end(); });
      var alpha = W.choice({ label: "Loss weight α", value: st.a, onChange: function (v, how) { ctx.set({ a: +v }, how); },
        options: data.alphas.map(function (a) { return { value: a, text: "α = " + a, sym: "bal-alpha" }; }) });
      var factor = W.choice({ label: "Capacity factor", value: st.cf, onChange: function (v, how) { ctx.set({ cf: +v }, how); },
        options: data.capacity_factors.map(function (c) { return { value: c, text: "×" + c, sym: "bal-capacity", aria: "capacity factor " + c }; }) });
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
        capKey.textContent = "capacity ×" + s.cf + " (shaded: over it)";
        marker.setAttribute("transform", "translate(" + x(s.step).toFixed(1) + ",0)");
        KINDS.forEach(function (kind) {
          dots[kind].setAttribute("cx", x(s.step).toFixed(1));
          dots[kind].setAttribute("cy", y(ratio(kind, s)).toFixed(1));
          svg.appendChild(dots[kind]);
        });
        svg.setAttribute("aria-label", "Busiest expert's load divided by the mean load over " + last + " router steps: no balancing ends at " +
          W.fmt(data.ratio[0][last], 2) + ", the Switch loss with α = " + s.a + " at " + W.fmt(data.ratio[run("switch", s)][last], 2) +
          ", the bias at " + W.fmt(data.ratio[data.runs.length - 1][last], 2) + "; dashed: capacity factor " + s.cf +
          ", above which the busiest expert drops slots; the marker is at step " + s.step + ".");
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
        var nums = elList("div", { class: "f11b-nums", "aria-hidden": "true" }, W.range(N, function (e) { return el("span", { text: String(e + 1) }); }));
        return { kind: kind, head: head, list: list, bars: bars, capBar: capBar, note: note,
          node: el("div", { class: "f11b-panel f11b-p-" + kind }, head, list, nums, note) };
      });
      var pick = el("p", { class: "f11b-pick" });
      var k3 = W.html(el("p", { class: "f11b-k3" }), data.k3_html);  // trusted: rendered by the build from k3_md

      mount.appendChild(el("div", { class: "f11b" },
        el("div", { class: "f11b-controls" }, slider.node, group("Loss weight", alpha.node), group("Capacity factor", factor.node)),
        el("p", { class: "f11b-ytitle k3-axis-title", "aria-hidden": "true", text: "busiest expert ÷ mean load (log scale)" }), box, legend,
        elList("div", { class: "f11b-panels" }, panels.map(function (p) { return p.node; })), pick, k3));
      if (resize) resize.observe(box);

      function paintBars(s) {
        var j = at(s), c = cap(s), top = data.load_axis, sel = s.e;
        panels.forEach(function (p) {
          var r = run(p.kind, s), loads = data.load[r][j];
          p.head.textContent = title(p.kind, s);
          p.capBar.style.bottom = (100 * c / top) + "%";
          p.bars.forEach(function (b, e) {
            var v = loads[e];
            b.keep.style.height = (100 * Math.min(v, c) / top) + "%";
            b.over.style.height = (100 * Math.max(0, v - c) / top) + "%";
            b.node.setAttribute("aria-selected", e === sel ? "true" : "false");
            b.node.tabIndex = e === (sel < 0 ? 0 : sel) ? 0 : -1;
            b.node.setAttribute("aria-label", "Expert " + (e + 1) + ": " + v + " tokens" + (v > c ? ", " + (v - c) + " over capacity" : ""));
          });
          p.list.setAttribute("aria-label", title(p.kind, s) + ": tokens per expert at step " + s.step + " (capacity " + c + ")");
          var text = "busiest ÷ mean " + W.fmt(ratio(p.kind, s), 2) + " · dropped " + pct(dropped(p.kind, s), 1);
          if (p.kind === "switch") {
            text += " · N·Σf·P " + W.fmt(data.stat[r][j], 2) + " · loss share of router update " + pct(data.aux_share[r][j], 0);
          } else if (p.kind === "bias") text += " · bias steers the choice only: 0% of the router update";
          p.note.textContent = text;
        });
        pick.textContent = sel < 0 ? "Hover or tap a bar (or Tab to the bars and press ← →) to compare one expert across the three runs. Mean load " +
          W.fmt(data.mean_load, 0) + " tokens; capacity " + c + "." : expertText(s);
      }
      function expertText(s) {
        var j = at(s), e = s.e, bias = data.bias[j][e];
        return "Expert " + (e + 1) + " at step " + s.step + ": " + KINDS.map(function (kind) {
          return data.load[run(kind, s)][j][e] + " tokens (" + (kind === "switch" ? "Switch loss, α = " + s.a : kind === "none" ? "no balancing" : "bias") + ")";
        }).join(", ") + "; capacity " + cap(s) + ", mean " + W.fmt(data.mean_load, 0) + ". Its bias: " +
          (bias > 0 ? "+" : "") + W.fmt(bias, 2) + " against the experts' mean.";
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
          if (prev.step === s.step && prev.a === s.a && prev.cf === s.cf) return s.e < 0 ? null : expertText(s);
          return "Step " + s.step + ": busiest ÷ mean " + KINDS.map(function (kind) {
            return W.fmt(ratio(kind, s), 2) + " (" + title(kind, s) + ")";
          }).join(", ") + "; at capacity factor " + s.cf + " the share of slots dropped is " + KINDS.map(function (kind) {
            return pct(dropped(kind, s), 1);
          }).join(", ") + "; the loss supplied " + pct(data.aux_share[run("switch", s)][at(s)], 0) + " of the router update.";
        },
        resume: function () { if (resize) resize.observe(box); if (box.clientWidth !== width) draw(); },
        pause: function () { if (resize) resize.unobserve(box); },
        destroy: function () { if (resize) resize.disconnect(); },
      };
    },
  });
})();
