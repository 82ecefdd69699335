/* FIG 06 · Delta-rule state update: six tokens, each in four stages (read Sᵀk, error v − Sᵀk,
 * write β k errᵀ, new S), drawn as heatmaps on one colour scale; the write lands as the outer
 * product of k (a column of chips) and the error (a row of chips). Play walks the stages (paused
 * off-screen, slower under reduced motion); a card stages the repeated key's correction; the
 * read-back identity and the chunked WY form are checked. Every number was computed at build
 * time by delta_rule / delta_rule_chunked. */
(function () {
  "use strict";
  var STAGES = [
    { name: "read", text: "read Sᵀk", sym: "dr-read" },
    { name: "error", text: "error v − Sᵀk", sym: "dr-error" },
    { name: "write", text: "write β k errᵀ", sym: "dr-write" },
    { name: "state", text: "new S", sym: "dr-state" },
  ];

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
      function vec(xs) { return "[" + xs.map(function (x) { return W.fmt(x, dig); }).join(", ") + "]"; }

      /* controls: a stepper over (token, stage), play, and a stage picker within the token */
      var stepper = W.stepper({
        label: "Token and stage", count: N, value: ctx.get().step,
        format: function (s) { return "token " + (tokenOf(s) + 1) + " / " + T + " · " + STAGES[stageOf(s)].name; },
        onChange: function (s, how) { ctx.set({ step: s }, how); },
      });
      /* Play carries on from where the reader is (the opening view: token 5 → the end) and stops as
       * the last stage lands, the button back to Play in that same moment, so the next press
       * replays from token 1 (the player starts over from the end) and never pauses a finished run */
      var player = K3W.player({ ctx: ctx, what: "the walk through the tokens",
        at: function () { return ctx.get().step; }, last: N - 1,
        go: function (s) { ctx.set({ step: s }, "play"); if (s >= N - 1) player.stop(); } });
      var stages = W.choice({
        label: "Stage of this token",
        options: STAGES.map(function (st, i) { return { value: i, text: st.text, sym: st.sym, aria: "Stage " + (i + 1) + ": " + st.text }; }),
        value: stageOf(ctx.get().step),
        onChange: function (i, how) { ctx.set({ step: tokenOf(ctx.get().step) * NS + i }, how); },
      });
      var betaChip = el("span", { class: "f06-beta k3-readout k3-num", "data-sym": "dr-beta", tabindex: "0",
        "aria-label": "write strength beta = " + W.fmt(data.beta, 2), text: "β = " + W.fmt(data.beta, 2) });
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
      var repTable = rep && W.matrix({ caption: "token " + rep.token + " reuses token " + rep.key_of + "'s key",
        rows: ["v" + W.sub(rep.key_of) + " (stored)", "read Sᵀk", "v" + W.sub(rep.token) + " (new)", "read after write"],
        cols: W.range(data.d, function (i) { return String(i + 1); }), corner: "", digits: dig, heat: heat });
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
      var rbTable = W.matrix({ caption: "write (k₁, v₁) into S = 0, read with q = k₁",
        rows: ["v₁", "Sᵀk₁", "β·v₁", "Sᵀk₁ · 1/√d"], cols: W.range(data.d, function (i) { return String(i + 1); }),
        digits: dig, heat: heat });
      rbTable.node.tBodies[0].rows[0].setAttribute("data-sym", "dr-v");
      rbTable.node.tBodies[0].rows[1].setAttribute("data-sym", "dr-out");
      rbTable.node.tBodies[0].rows[2].setAttribute("data-sym", "dr-beta");
      var rbText = el("p", { class: "f06-small" });

      var chunk = data.chunked;
      var wy = el("p", { class: "f06-eq" });
      wy.innerHTML = data.wy_html;  // MathML rendered at build time from the builder's wy_md
      var chunkText = el("p", { class: "f06-small k3-num", "data-sym": "dr-state", tabindex: "0" });
      chunkText.textContent = "delta_rule_chunked, chunk size " + data.chunk_size + " (" + chunk.n_chunks +
        " chunks) vs the step-by-step recurrence: max |ΔS| = " + W.sci(chunk.state_diff) +
        ", max |Δo| = " + W.sci(chunk.output_diff) + " — equal to float64 rounding.";

      root.appendChild(el("div", { class: "f06-controls k3-sticky" }, stepper.node, player.node, betaChip));
      root.appendChild(el("div", { class: "k3-scroll f06-stages" }, stages.node));
      root.appendChild(note);
      root.appendChild(el("div", { class: "f06-key" }, W.heat.legend(data.heat_scale), W.heat.toggle(root)));
      root.appendChild(el("div", { class: "f06-main" }, panel.node, repCard));
      root.appendChild(el("div", { class: "f06-cards" },
        el("section", { class: "f06-card", "aria-label": "Read-back check" },
          el("div", { class: "k3-row" }, rbButton), el("div", { class: "k3-scroll" }, rbTable.node), rbText),
        el("section", { class: "f06-card", "aria-label": "Chunked form" },
          el("p", { class: "k3-label", text: "Chunked (WY / UT) form, used for training" }), wy, chunkText)));
      mount.appendChild(root);

      function paintRepeat(t, s) {
        if (!rep) return;
        var r = rep.token - 1, dots = W.range(data.d, function () { return "·"; });
        // rows revealed by this step: the stored value only once its token has written it
        var shown = t < rep.key_of - 1 ? 0 : t < r ? 1 : t > r ? 4 : s === 0 ? 2 : s < 3 ? 3 : 4;
        repTable.update([rep.old_value, rep.read, rep.new_value, rep.read_after].map(function (row, i) {
          return i < shown ? row : dots;
        }));
        repText.textContent = shown < 1 ? "Token " + rep.key_of + " will store a value under this key; token " + rep.token + " will bring it back with a new one."
          : shown < 2 ? "Token " + rep.token + " will bring this key back with a new value."
          : shown < 4 ? "The read returns roughly the stored value, blurred by the writes since; the error is what the new value still needs."
          : "After the write the key reads " + W.fmt(data.beta * 100, 0) + " % of the way from the old read to the new value (β = " +
            W.fmt(data.beta, 2) + ", unit-length key).";
        repCard.classList.toggle("is-current", t === r);
        repGo.classList.toggle("is-here", t === r);  // not offered where it would lead (it sits out of the flow: nothing moves)
        repGo.textContent = (t < r ? "Go to token " : "Back to token ") + rep.token;
      }
      function paintStep(step) {
        var t = tokenOf(step), s = stageOf(step), d = data.steps[t];
        stepper.set(step);
        stages.set(s);
        panel.update(d, s, { before: "S" + W.sub(t) + " before token " + (t + 1), after: "S" + W.sub(t + 1) + " after" });
        paintRepeat(t, s);
        note.textContent = t === 0 ? "Token 1: the state is empty, so the read is zero and the write is β k vᵀ."
          : rep && t === rep.token - 1 ? "Token " + rep.token + " reuses token " + rep.key_of + "'s key with a new value: the read returns roughly the old value, blurred by the writes since, and the write moves it most of the way to the new one."
          // the chips appear with the error, so the read stage says what is being read instead
          : s === 0 ? "Token " + (t + 1) + ": first, read what the state already holds for this key."
          : "Token " + (t + 1) + ": the write is β = " + W.fmt(data.beta, 2) + " times k (chips down its side) times the error (chips along its top).";
      }
      function paintReadback(readback) {
        var rb = data.readback, dots = rb.v.map(function () { return "·"; });
        rbButton.setAttribute("aria-pressed", readback ? "true" : "false");
        rbTable.update(readback ? [rb.v, rb.out, rb.beta_v, rb.out_default_scale] : [rb.v, dots, dots, dots]);
        rbText.textContent = readback
          ? "Sᵀk₁ = β‖k₁‖²v₁ = β·v₁ (‖k₁‖ = 1): max difference " + W.sci(rb.diff) + ". The kernels scale q by 1/√d_k = " +
            W.fmt(rb.default_scale, 2) + " by default, which multiplies the read by the same factor; here q is read at scale 1."
          : "Press the button (or R) to write token 1 into an empty state and read it back.";
      }
      function describeStep(step) {
        var t = tokenOf(step), s = stageOf(step), d = data.steps[t], head = "Token " + (t + 1) + ", ";
        if (s === 0) return head + "read: Sᵀk = " + vec(d.read) + ".";
        if (s === 1) return head + "error: v − Sᵀk = " + vec(d.error) + ".";
        if (s === 2) return head + "write β k errorᵀ with β = " + W.fmt(data.beta, 2) + "; its first row is " + vec(d.write[0]) + ".";
        return head + "new state; " + d.changed.reduce(function (n, r) { return n + r.reduce(function (a, b) { return a + b; }, 0); }, 0) +
          " cells changed; its first row is now " + vec(d.state[0]) + ".";
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
          if (prev.rb !== next.rb) {
            var rb = data.readback;
            return next.rb ? "Read-back: Sᵀk₁ = " + vec(rb.out) + ", β·v₁ = " + vec(rb.beta_v) + "; they are equal." : "Read-back check hidden.";
          }
          // while playing, say only where a token starts (a line a second would drown the reader)
          if (how === "play") return stageOf(next.step) === 0 ? "Token " + (tokenOf(next.step) + 1) + "." : "";
          return describeStep(next.step);
        },
        pause: player.pause, resume: player.resume, destroy: player.stop,
      };
    },
  });
})();
