/* FIG 07b · Forgetting on purpose: a fact, a topic, then a switch to a new topic, through DeltaNet
 * (no decay), Gated DeltaNet (one α on every key channel) and KDA (α on the topic channels, none on
 * the fact's). Three small charts, one per kind of item, draw how much of each stored value a query
 * still gets back after each token (experiments.forgetting_curves, for every α and both gate schedules,
 * at build time); a strip shows what each mechanism's gate multiplies each key channel by.
 * State: when = the gate's schedule, alpha = the slider's α, token = the marker (counted from 1). */
(function () {
  "use strict";
  var MECHS = [
    { key: "deltanet", cls: "f07b-delta" },
    { key: "gated", cls: "f07b-gated", sym: "gd-alpha" },
    { key: "kda", cls: "f07b-kda", sym: "kda-alpha" },
  ];
  var VB = { w: 300, h: 168, l: 38, r: 8, t: 18, b: 30 };  // one chart's viewBox and plot margins
  function urlAlpha(a) { return window.K3W.fmt(a, 2); }  // α as the link writes it

  K3.register("fig-07b-forgetting", {
    state: function (data) {
      return { when: K3.state.oneOf(data.schedules, data.schedule_default),
        alpha: K3W.gridState(data.alphas, data.alpha_default, urlAlpha),
        token: K3W.gridState(data.tokens, data.tokens[data.tokens.length - 1]) };  // a link to any token opens the nearest one read
    },
    setup: function (mount, data, ctx) {
      var W = window.K3W, el = W.el, S = W.svg, toks = data.tokens;
      var kinds = data.kinds, last = data.n_tokens, st = ctx.get();
      function lines(s) {  // recall[mechanism][kind][token index] for a state
        var a = data.alphas.indexOf(s.alpha);
        return { deltanet: data.deltanet, gated: data.gated[s.when][a], kda: data.kda[s.when][a] };
      }
      function ai(s) { return data.alphas.indexOf(s.alpha); }
      function ti(s) { return toks.indexOf(s.token); }
      // nothing of a topic exists before its first pair: the old one's after the fact, the new one's at the switch
      function shown(kind, i) { return kind === "fact" || i >= (kind === "new" ? data.first_new : data.first_old); }
      // where the text of a mechanism's recall of a kind lies, in the state s
      function recallText(m, k, s) {
        var c = kinds.indexOf(k), i = ti(s);
        return m === "deltanet" ? ["recall_text", m, c, i] : ["recall_text", m, s.when, ai(s), c, i];
      }
      function settingSlots(s) { return { token: ["tokens", ti(s)], when: ["schedule_labels", s.when], alpha: ["alpha_text", ai(s)] }; }

      /* ---------- controls ---------- */
      var when = W.choice({ label: ctx.text(["text", "schedule_group"]), value: st.when,
        options: data.schedules.map(function (s) { return { value: s, text: data.schedule_labels[s] }; }),
        onChange: function (v, how) { ctx.set({ when: v }, how); } });
      var alpha = W.slider({ label: "gate α", values: data.alphas, index: data.alphas.indexOf(st.alpha),
        format: function (a) { return ctx.text(["text", "alpha_slider"], { alpha: ["alpha_text", data.alphas.indexOf(a)] }); },
        onInput: function (i) { ctx.set({ alpha: data.alphas[i] }, "input"); } });
      alpha.input.setAttribute("aria-label", ctx.text(["text", "alpha_input"]));
      alpha.node.setAttribute("data-sym", "gd-alpha");
      var token = W.slider({ label: "Token", values: toks, index: ti(st),
        format: function (t) { return ctx.text(["text", "token_slider"], { token: ["tokens", toks.indexOf(t)] }); },
        onInput: function (i) { ctx.set({ token: toks[i] }, "input"); } });
      [alpha, token].forEach(function (s) { s.input.addEventListener("change", function () { ctx.end(); }); });

      /* ---------- the gate strip: what each key channel is multiplied by when the gate acts ---------- */
      var gateNote = el("p", { class: "f07b-gate-note", id: ctx.id + "-gate-note" });
      var strip = el("div", { class: "f07b-strip" }, el("div", { class: "f07b-srow", "aria-hidden": "true" }, el("span"),
        el("span", { class: "f07b-cells" },
          el("span", { class: "f07b-group f07b-g-fact", style: "--span:" + data.n_slow, text: "fact" }),
          el("span", { class: "f07b-group", style: "--span:" + (data.d_k - data.n_slow), text: "topic channels" }))));
      strip.style.setProperty("--cols", data.d_k);
      var rows = MECHS.map(function (m) {
        var box = el("span", { class: "f07b-cells", role: "img", "data-graphic": "chart", "aria-describedby": ctx.id + "-gate-note", "data-sym": m.sym || null });
        var cells = W.range(data.d_k, function () { return box.appendChild(el("span", { class: "f07b-cell" })); });
        strip.appendChild(el("div", { class: "f07b-srow " + m.cls },
          el("span", { class: "f07b-gate-name", "aria-hidden": "true" }, swatch(m), data.mechanism_labels[m.key]), box));
        return { row: box, cells: cells };
      });
      function swatch(m) { return el("span", { class: "f07b-swatch " + m.cls, "aria-hidden": "true" }); }

      /* ---------- one chart per kind of item ---------- */
      var iw = VB.w - VB.l - VB.r, ih = VB.h - VB.t - VB.b, y0 = data.y_min;
      function x(tok) { return VB.l + iw * (tok - 1) / (last - 1); }
      function y(r) { return VB.t + ih * (1 - (r - y0) / (1 - y0)); }
      var xs = toks.map(x), xSwitch = (x(data.switch_token - 1) + x(data.switch_token)) / 2;
      var charts = kinds.map(function (kind) {
        var axes = S.g({ class: "f07b-axes", "aria-hidden": "true" },
          S.rect(xSwitch, VB.t, VB.w - VB.r - xSwitch, ih, "f07b-after"),
          S.el("text", { x: (VB.l + xSwitch) / 2, y: VB.t - 5, "text-anchor": "middle", text: "topic A" }),
          S.el("text", { x: (xSwitch + VB.w - VB.r) / 2, y: VB.t - 5, "text-anchor": "middle", text: "topic B" }));
        data.y_ticks.forEach(function (r, j) {
          axes.appendChild(S.line(VB.l, y(r), VB.w - VB.r, y(r), "f07b-grid"));
          ctx.show(axes.appendChild(S.el("text", { x: VB.l - 4, y: y(r) + 3.5, "text-anchor": "end" })), ["y_tick_text", j]);
        });
        data.x_ticks.forEach(function (t, j) {
          ctx.show(axes.appendChild(S.el("text", { x: x(t), y: VB.h - VB.b + 13, "text-anchor": "middle" })), ["x_tick_text", j]);
        });
        axes.appendChild(S.el("text", { x: VB.l + iw / 2, y: VB.h - 3, "text-anchor": "middle", class: "k3-axis-title", text: "after token" }));
        axes.appendChild(S.line(xSwitch, VB.t, xSwitch, VB.t + ih, "f07b-switch"));
        var paths = MECHS.map(function (m) { return S.path("", "f07b-line " + m.cls); });
        var drawn = [paths[1], paths[2], paths[0]];  // thick orange under violet dashes under thin grey: lines that coincide stay visible
        var cursor = S.line(0, VB.t, 0, VB.t + ih, "f07b-cursor");
        var dots = MECHS.map(function (m) { return S.el("circle", { r: 3.5, class: "f07b-dot " + m.cls }); });
        var svg = S.el("svg", { viewBox: "0 0 " + VB.w + " " + VB.h, class: "f07b-svg", role: "img", "data-graphic": "chart" }, axes);
        drawn.concat([cursor], dots).forEach(function (n) { svg.appendChild(n); });
        scrub(svg);
        var box = el("figure", { class: "f07b-chart", "data-kind": kind },
          el("figcaption", { class: "f07b-title" }, data.kind_labels[kind], " ", el("span", { text: data.kind_notes[kind] })), svg);
        return { kind: kind, node: box, svg: svg, paths: paths, cursor: cursor, dots: dots };
      });
      function scrub(svg) {  // tap or drag along a chart: the marker goes to the nearest token read
        W.scrub({ node: svg, listen: ctx.on, onEnd: ctx.end,
          index: function (px, box) { return W.nearest(xs, px * VB.w / box.width); },
          onIndex: function (i, how) { ctx.set({ token: toks[i] }, how); } });
      }
      function path(ys, kind) {
        var d = "";
        ys.forEach(function (r, i) { if (shown(kind, i)) d += (d ? "L" : "M") + xs[i].toFixed(1) + "," + y(r).toFixed(1); });
        return d;
      }

      /* ---------- the readout: every line at the marker ---------- */
      var caption = el("caption", { class: "f07b-caption" });
      var cells = {};
      var headRow = el("tr", {}, el("th", { scope: "col", text: "memory" }));
      kinds.forEach(function (k) { headRow.appendChild(el("th", { scope: "col", text: data.kind_labels[k] })); });
      var body = el("tbody");
      var table = el("table", { class: "f07b-table" }, caption, el("thead", {}, headRow), body);
      MECHS.forEach(function (m) {
        var tr = body.appendChild(el("tr", { class: m.cls }, el("th", { scope: "row" }, swatch(m), data.mechanism_labels[m.key])));
        cells[m.key] = kinds.map(function (k) { return tr.appendChild(el("td", { class: "k3-num", "data-kind": k, "data-sym": "fg-recall" })); });
      });

      var chartBox = el("div", { class: "f07b-charts" });
      charts.forEach(function (c) { chartBox.appendChild(c.node); });
      chartBox.appendChild(el("div", { class: "k3-scroll f07b-read" }, table));  // under the charts, or beside the last one
      mount.appendChild(el("div", { class: "f07b" },
        el("div", { class: "f07b-controls" },
          el("div", { class: "k3-row" }, el("span", { class: "k3-label", text: "Gate acts" }), when.node), alpha.node, token.node),
        el("div", { class: "f07b-gates" }, strip, gateNote),
        chartBox));

      function at(s) {  // the nine numbers at the marker, [mechanism][kind] (null: not yet written)
        var L = lines(s), i = ti(s);
        return MECHS.map(function (m) { return kinds.map(function (k, c) { return shown(k, i) ? L[m.key][c][i] : null; }); });
      }
      function reads(kind, s, slot) {  // slots naming each mechanism's recall of a kind: slot(mechanism) → name
        var out = {};
        MECHS.forEach(function (m) { out[slot(m.key)] = recallText(m.key, kind, s); });
        return out;
      }
      function paint(s, prev) {
        var L = lines(s), i = ti(s), a = ai(s), v = at(s), redraw = !prev || prev.when !== s.when || prev.alpha !== s.alpha;
        when.set(s.when);
        alpha.set(a);
        token.set(i);
        MECHS.forEach(function (m, r) {
          var g = data.channel_gates[m.key][a];  // each key channel's factor when the gate acts
          rows[r].cells.forEach(function (cell, c) {
            cell.style.setProperty("--fade", Math.round(100 * (1 - g[c])) + "%");
            cell.title = ctx.text(["text", "channel_title"], { channel: ["channel_numbers", c], factor: ["channel_gate_text", m.key, a, c] });
          });
          rows[r].row.setAttribute("aria-label", ctx.text(["gate_row_label", m.key, a]));
        });
        ctx.show(gateNote, ["text", "gate_note", s.when]);
        charts.forEach(function (c, k) {
          if (redraw) MECHS.forEach(function (m, r) { c.paths[r].setAttribute("d", path(L[m.key][k], c.kind)); });
          S.at(c.cursor, xs[i], 0);
          MECHS.forEach(function (m, r) {
            var ok = v[r][k] !== null;
            c.dots[r].setAttribute("cx", xs[i]);
            c.dots[r].setAttribute("cy", ok ? y(v[r][k]) : y(0));
            c.dots[r].style.visibility = ok ? "" : "hidden";
          });
          var marker = { token: ["tokens", i] };
          c.svg.setAttribute("aria-label", shown(c.kind, i)
            ? ctx.text(["text", "chart_label", c.kind, "written"], Object.assign(marker, reads(c.kind, s, function (m) { return m; })))
            : ctx.text(["text", "chart_label", c.kind, "unwritten"], marker));
        });
        ctx.show(caption, ["text", "caption"], settingSlots(s));
        MECHS.forEach(function (m) {
          cells[m.key].forEach(function (td, c) {
            if (shown(kinds[c], i)) ctx.show(td, recallText(m.key, kinds[c], s));
            else ctx.show(td, ["text", "unwritten_cell"]);
          });
        });
      }

      return {
        render: paint,
        describe: function (prev, s) {  // the recall of every kind written so far; the setting too if it changed
          var i = ti(s), written = kinds.filter(function (k) { return shown(k, i); });
          var onlyToken = prev.token !== s.token && prev.when === s.when && prev.alpha === s.alpha;
          var slots = onlyToken ? { token: ["tokens", i] } : settingSlots(s);
          written.forEach(function (k) { Object.assign(slots, reads(k, s, function (m) { return k + "_" + m; })); });
          return { path: ["text", "describe", onlyToken ? "token" : "setting", written.join("_")], slots: slots };
        },
      };
    },
  });
})();
