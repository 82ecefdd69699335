/* FIG 06 · Delta-rule state update: six tokens, each in four stages (read Sᵀk, error v − Sᵀk,
 * write β k errᵀ, new S), drawn as heatmaps on one colour scale; the write lands as the outer
 * product of k (a column of chips) and the error (a row of chips). Play walks the stages (paused
 * off-screen, slower under reduced motion); a card stages the repeated key's correction; the
 * read-back identity and the chunked WY form are checked. Every number was computed at build
 * time by delta_rule / delta_rule_chunked, and every sentence written with it (the builder's walk,
 * repeat.text, readback.text): this file only places them. */
(function () {
  "use strict";
  // the four stages of a token (their labels ship with the data, in the same order)
  var STAGES = [{ name: "read", sym: "dr-read" }, { name: "error", sym: "dr-error" },
    { name: "write", sym: "dr-write" }, { name: "state", sym: "dr-state" }];

  /* the step the figure opens on (the builder's open_at): a state that already holds several writes */
  function openStep(data) {
    var o = data.open_at, s = STAGES.map(function (st) { return st.name; }).indexOf(o.stage);
    return (o.token - 1) * STAGES.length + s;
  }

  K3.register("fig-06-delta-rule", {
    state: function (data) {
      return { step: K3.state.int(0, data.steps.length * STAGES.length - 1, openStep(data)), rb: K3.state.bool(false) };
    },
    setup: function (mount, data, ctx) {
      var W = window.K3W, el = W.el, dig = data.digits, heat = { scale: data.heat_scale };
      var NS = STAGES.length, T = data.steps.length, N = T * NS;

      function tokenOf(s) { return Math.floor(s / NS); }
      function stageOf(s) { return s % NS; }
      function cols() { return W.range(data.d, function (i) { return String(i + 1); }); }

      /* controls: a stepper over (token, stage), play, and a stage picker within the token */
      var stepper = W.stepper({
        label: "Token and stage", count: N, value: ctx.get().step,
        format: function (s) { return ctx.text(["walk", s, "readout"]); },
        onChange: function (s, how) { ctx.set({ step: s }, how); },
      });
      /* Play carries on from where the reader is (the opening view: token 5 → the end) and stops as
       * the last stage lands, the button back to Play in that same moment, so the next press
       * replays from token 1 (the player starts over from the end) and never pauses a finished run */
      var player = K3W.player({ ctx: ctx, what: ctx.text(["text", "play_what"]),
        at: function () { return ctx.get().step; }, last: N - 1,
        go: function (s) { ctx.set({ step: s }, "play"); if (s >= N - 1) player.stop(); } });
      var stages = W.choice({
        label: ctx.text(["text", "stage_picker"]),
        options: STAGES.map(function (st, i) {
          return { value: i, text: ctx.text(["stages", i, "label"]), sym: st.sym, aria: ctx.text(["stages", i, "aria"]) };
        }),
        value: stageOf(ctx.get().step),
        onChange: function (i, how) { ctx.set({ step: tokenOf(ctx.get().step) * NS + i }, how); },
      });
      var betaChip = ctx.show(el("span", { class: "f06-beta k3-readout k3-num", "data-sym": "dr-beta", tabindex: "0",
        "aria-label": ctx.text(["text", "beta_aria"]) }), ["text", "beta"]);
      var note = el("p", { class: "f06-note" });
      var panel = W.deltaStep({ d: data.d, digits: dig, vectorsCaption: "this token", heat: heat });
      /* bind each operator to the term after it ("+ write", "= S after"), so a wrapped line starts
       * with its operator instead of leaving it stranded at the end of the line above */
      [].forEach.call(panel.node.querySelectorAll(".k3-delta-eq > .k3-op"), function (op) {
        var term = el("span", { class: "f06-term" });
        op.parentNode.insertBefore(term, op);
        term.appendChild(op);
        term.appendChild(term.nextSibling);
      });
      var root = el("div", { class: "f06" });

      /* the repeated key, staged: what the key stored, what it reads now, the new value, the read after */
      var rep = data.repeat;
      var repTable = rep && W.matrix({ caption: ctx.text(["repeat", "text", "caption"]), rows: rep.text.rows.map(function (_, i) {
        return ctx.text(["repeat", "text", "rows", i]);
      }), cols: cols(), corner: "", digits: dig, heat: heat });
      var repText = el("p", { class: "f06-small" });
      // a jump to the repeated token, offered only from elsewhere (its wording says which way it goes)
      var repGo = rep && el("button", { type: "button", class: "k3-btn f06-go",
        on: { click: function () {
          var had = document.activeElement === repGo;
          ctx.set({ step: (rep.token - 1) * NS }, "click");
          if (had) stepper.node.focus({ preventScroll: true });  // the button hides itself: keep the keyboard's place, on the stepper
        } } });
      var repCard = rep && el("section", { class: "f06-repeat", "aria-label": "Repeated key" }, repGo,
        el("div", { class: "k3-scroll" }, repTable.node), repText);  // with every number shown it can outgrow a phone

      /* read-back check: write (k₁, v₁) into an empty state and read it with q = k₁ */
      var rbButton = el("button", { type: "button", class: "k3-btn", "aria-pressed": "false", text: "Read-back check (R)",
        "aria-keyshortcuts": "R", on: { click: function () { ctx.set({ rb: !ctx.get().rb }, "click"); } } });
      var rbTable = W.matrix({ caption: ctx.text(["readback", "text", "caption"]),
        rows: ["v₁", "Sᵀk₁", "β·v₁", "Sᵀk₁ · 1/√d"], cols: cols(), digits: dig, heat: heat });
      rbTable.node.tBodies[0].rows[0].setAttribute("data-sym", "dr-v");
      rbTable.node.tBodies[0].rows[1].setAttribute("data-sym", "dr-out");
      rbTable.node.tBodies[0].rows[2].setAttribute("data-sym", "dr-beta");
      var rbText = el("p", { class: "f06-small" });

      var wy = el("p", { class: "f06-eq" });
      wy.innerHTML = data.wy_html;  // MathML rendered at build time from the builder's wy_md
      var chunkText = ctx.show(el("p", { class: "f06-small k3-num", "data-sym": "dr-state", tabindex: "0" }), ["chunked", "text"]);

      root.appendChild(el("div", { class: "f06-controls k3-sticky" }, stepper.node, player.node, betaChip));
      root.appendChild(el("div", { class: "k3-scroll f06-stages" }, stages.node));
      root.appendChild(note);
      root.appendChild(el("div", { class: "f06-key" }, W.heat.legend(data.heat_scale), W.heat.toggle(root)));
      root.appendChild(el("div", { class: "f06-main" }, panel.node, repCard));
      root.appendChild(el("div", { class: "f06-cards" },
        el("section", { class: "f06-card", "aria-label": "Read-back check" },
          el("div", { class: "k3-row" }, rbButton), el("div", { class: "k3-scroll" }, rbTable.node), rbText),
        el("section", { class: "f06-card", "aria-label": "Chunked form" },
          ctx.show(el("p", { class: "k3-label" }), ["text", "chunk_title"]), wy, chunkText)));
      mount.appendChild(root);

      /* the captions and row labels the widgets were given, tagged with where they came from */
      if (rep) {
        ctx.show(repTable.node.caption, ["repeat", "text", "caption"]);
        [].forEach.call(repTable.node.tBodies[0].rows, function (tr, i) { ctx.show(tr.cells[0], ["repeat", "text", "rows", i]); });
      }
      ctx.show(rbTable.node.caption, ["readback", "text", "caption"]);

      function paintRepeat(step) {
        if (!rep) return;
        var t = tokenOf(step), r = rep.token - 1, dots = W.range(data.d, function () { return "·"; });
        var shown = data.walk[step].repeat_rows;  // rows revealed by this step
        repTable.update([rep.old_value, rep.read, rep.new_value, rep.read_after].map(function (row, i) {
          return i < shown ? row : dots;
        }));
        ctx.show(repText, ["repeat", "text", "note", shown]);
        repCard.classList.toggle("is-current", t === r);
        repGo.classList.toggle("is-here", t === r);  // not offered where it would lead (it sits out of the flow: nothing moves)
        ctx.show(repGo, ["repeat", "text", "go", t < r ? "ahead" : "back"]);
      }
      function paintStep(step) {
        var t = tokenOf(step), s = stageOf(step), d = data.steps[t];
        stepper.set(step);
        stages.set(s);
        panel.update(d, s, { before: ctx.text(["steps", t, "before_caption"]), after: ctx.text(["steps", t, "after_caption"]) });
        ctx.show(panel.before.node.caption, ["steps", t, "before_caption"]);
        ctx.show(panel.after.node.caption, ["steps", t, "after_caption"]);
        paintRepeat(step);
        ctx.show(note, ["walk", step, "note"]);
      }
      function paintReadback(readback) {
        var rb = data.readback, dots = rb.v.map(function () { return "·"; });
        rbButton.setAttribute("aria-pressed", readback ? "true" : "false");
        rbTable.update(readback ? [rb.v, rb.out, rb.beta_v, rb.out_default_scale] : [rb.v, dots, dots, dots]);
        ctx.show(rbText, ["readback", "text", readback ? "on" : "off"]);
      }

      ctx.on(mount, "keydown", function (e) {
        if ((e.key === "r" || e.key === "R") && !e.ctrlKey && !e.metaKey && !e.altKey) {
          e.preventDefault();
          ctx.set({ rb: !ctx.get().rb }, "key");
        }
      });

      return {
        render: function (state, prev) {
          if (!prev || prev.step !== state.step) paintStep(state.step);
          if (!prev || prev.rb !== state.rb) paintReadback(state.rb);
        },
        describe: function (prev, next, how) {
          if (prev.rb !== next.rb) return { path: ["readback", "text", next.rb ? "said_on" : "said_off"] };
          // while playing, say only where a token starts (a line a second would drown the reader)
          if (how === "play") return stageOf(next.step) === 0 ? { path: ["play_said", tokenOf(next.step)] } : "";
          return { path: ["walk", next.step, "said"] };
        },
        pause: player.pause, resume: player.resume, destroy: player.stop,
      };
    },
  });
})();
