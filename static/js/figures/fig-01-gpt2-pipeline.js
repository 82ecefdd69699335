/* FIG 01 · GPT-2 forward pass: the pipeline from token ids to logits, each box with its shapes and
 * parameter count (from gpt2_params at build time). The ×12 block opens in place into one layer;
 * the sum under the pipeline lists every parameter tensor once and lands on the kernel's total. */
K3.register("fig-01-gpt2-pipeline", function (mount, data, ctx) {
  "use strict";
  var W = window.K3W, el = W.el;
  var cfg = data.config;
  var isOpen = false;
  /* el() with an array of children */
  function els(tag, attrs, kids) { return el.apply(null, [tag, attrs].concat(kids)); }
  var layerId = ctx.id + "-layer";

  /* "in [T, d] → out [T, d]" as two labelled chips */
  function shapes(b) {
    return el("span", { class: "f01-shapes k3-num" },
      b.shape_in ? el("span", { class: "f01-shape", title: "input shape" }, "in ", b.shape_in) : null,
      b.shape_in && b.shape_out ? el("span", { class: "f01-to", "aria-hidden": "true", text: "→" }) : null,
      b.shape_out ? el("span", { class: "f01-shape", title: "output shape" }, "out ", b.shape_out) : null);
  }

  /* The parameter tensors inside a box; focusable when they carry a symbol, so keyboard users can
   * light the matching term of the equation and of the sum below. */
  function parts(b, focusable) {
    if (!b.parts.length) return el("span", { class: "f01-none", text: "no parameters" });
    return els("span", { class: "f01-parts" }, b.parts.map(function (p) {
      return el("span", { class: "f01-part", "data-sym": p.sym, tabindex: focusable && p.sym ? 0 : null },
        el("span", { class: "f01-part-name", text: p.name }),
        el("span", { class: "f01-part-count k3-num", "data-count": p.count, text: W.int(p.count) }),
        p.shape ? el("span", { class: "f01-part-shape k3-num", text: p.shape }) : null);
    }));
  }

  function boxBody(b, focusable) {
    return [
      el("span", { class: "f01-title", text: b.title }),
      shapes(b),
      parts(b, focusable),
      b.note ? el("span", { class: "f01-note", text: b.note }) : null,
    ];
  }

  /* ---- the main pipeline ---- */
  var blockBtn;
  var pipe = els("ol", { class: "f01-pipe", "aria-label": "GPT-2 pipeline, from token ids to next-token logits" },
    data.pipeline.map(function (b) {
      var body = boxBody(b, b.id !== "blocks");
      if (b.id === "blocks") {
        blockBtn = els("button", {
          type: "button", class: "f01-box f01-box-blocks", "data-box": b.id, "data-sym": b.sym,
          "aria-expanded": "false", "aria-controls": layerId,
          on: { click: function () { setOpen(!isOpen, "click"); } },
        }, body.concat([el("span", { class: "f01-open-hint", "aria-hidden": "true" })]));
        return el("li", { class: "f01-step" }, blockBtn);
      }
      return el("li", { class: "f01-step" }, els("div", { class: "f01-box", "data-box": b.id }, body));
    }));
  var hint = blockBtn.querySelector(".f01-open-hint");

  /* ---- one layer, opened in place under the ×12 block ---- */
  function sublayer(b) {
    return els("li", { class: "f01-box f01-sub", "data-box": b.id }, boxBody(b, false));
  }
  var L = data.layer;
  var closeBtn = el("button", { type: "button", class: "k3-btn f01-close", "aria-label": "Close the layer view",
    text: "Close ✕", on: { click: function () { setOpen(false, "click"); blockBtn.focus(); } } });
  var layerView = el("div", { class: "f01-layer-open" },
    el("div", { class: "f01-layer-head" },
      el("span", { class: "k3-label", text: "Inside one block · the same in all " + cfg.n_layer }), closeBtn),
    el("ol", { class: "f01-layer-row", "aria-label": "One Transformer layer, in order" },
      el("li", { class: "f01-res" }, el("span", { class: "f01-res-label", text: "attention branch, skipped by the residual" }),
        els("ol", { class: "f01-res-row" }, L.slice(0, 3).map(sublayer))),
      el("li", { class: "f01-res" }, el("span", { class: "f01-res-label", text: "MLP branch, skipped by the residual" }),
        els("ol", { class: "f01-res-row" }, L.slice(3).map(sublayer)))),
    el("p", { class: "f01-layer-sum k3-num", "data-sym": "g2-block" },
      L.map(function (b) { return W.int(b.count); }).join(" + "), " = ",
      el("strong", { "data-count": data.block_total, class: "f01-block-total", text: W.int(data.block_total) }),
      " per block · × " + cfg.n_layer + " = ", el("strong", { text: W.int(data.addends[2].count) })));

  /* closed: the stack of identical layers the ×12 stands for, each split into attention / MLP /
   * LayerNorm parameters; a click on it opens one (the ×12 button is the keyboard control) */
  function splitBar() {
    return els("span", { class: "f01-split" }, data.block_split.map(function (p) {
      return el("span", { class: "f01-split-" + p.id, style: "width:" + 100 * p.share + "%" });
    }));
  }
  var slabs = [];
  for (var i = 1; i <= cfg.n_layer; i++) {
    slabs.push(el("span", { class: "f01-slab" }, el("span", { class: "f01-slab-name", text: "layer " + i }), splitBar()));
  }
  var legend = els("p", { class: "f01-stack-note" }, ["Each of the " + cfg.n_layer + " layers holds ",
    el("span", { class: "k3-num", text: W.int(data.block_total) }), ": "].concat(data.block_split.map(function (p, k) {
    return el("span", { class: "f01-key" }, el("span", { class: "f01-swatch f01-split-" + p.id }),
      p.label + " " + W.int(p.count) + " (" + W.fmt(100 * p.share, p.share < 0.01 ? 2 : 1) + "%)" + (k < data.block_split.length - 1 ? " · " : ". "));
  }), ["Open the ×" + cfg.n_layer + " block to look inside one."]));
  var stackView = el("div", { class: "f01-layer-closed" },
    els("div", { class: "f01-stack", "aria-hidden": "true", on: { click: function () { setOpen(true, "click"); } } }, slabs),
    legend);
  var layer = el("section", { class: "f01-layer", id: layerId, "aria-label": "One Transformer layer" }, stackView, layerView);

  /* ---- the sum: every tensor counted once, and where the parameters live ---- */
  var sum = el("p", { class: "f01-sum", "aria-label": "Parameter total" });
  data.addends.forEach(function (a, k) {
    sum.appendChild(el("span", { class: "f01-op", "aria-hidden": "true", text: k ? "+" : "" }));
    sum.appendChild(el("span", { class: "f01-addend", "data-addend": a.id, "data-sym": a.sym, tabindex: a.sym ? 0 : null },
      el("span", { class: "f01-addend-count k3-num", "data-count": a.count, text: W.int(a.count) }),
      el("span", { class: "f01-addend-label", text: a.label })));
  });
  sum.appendChild(el("span", { class: "f01-op", "aria-hidden": "true", text: "=" }));
  sum.appendChild(el("span", { class: "f01-addend f01-total" },
    el("strong", { class: "f01-addend-count k3-num", "data-count": data.total, text: W.int(data.total) }),
    el("span", { class: "f01-addend-label", text: "parameters (vocab " + W.int(cfg.vocab) + ")" })));

  var bar = el("div", { class: "f01-bar", role: "img", "aria-label": "Share of the parameters: " + data.addends
    .filter(function (a) { return a.count; })
    .map(function (a) { return a.label + " " + W.fmt(100 * a.share, 1) + "%"; }).join(", ") });
  data.addends.forEach(function (a) {
    if (!a.count) return;
    bar.appendChild(el("span", { class: "f01-seg f01-seg-" + a.id, "data-sym": a.sym, style: "width:" + 100 * a.share + "%",
      title: a.label + ": " + W.int(a.count) },
      a.share > 0.08 ? el("span", { text: W.fmt(100 * a.share, 1) + "%" }) : null));
  });

  var config = el("div", { class: "f01-config" },
    el("p", {}, el("span", { class: "k3-label", text: "Config " }), html(data.config_html)),
    el("p", { class: "f01-padded" }, html(data.padded_html)));

  var root = mount.appendChild(el("div", { class: "f01" }, config, pipe, layer, sum, bar));
  root.addEventListener("keydown", function (e) {  // Escape folds the layer from anywhere in the figure
    if (e.key === "Escape" && isOpen) { e.preventDefault(); setOpen(false, "key"); blockBtn.focus(); }
  });

  function html(s) { var span = el("span"); span.innerHTML = s; return span; }  // build-time rendered Markdown

  /* ---- open / close ---- */
  function paint() {
    blockBtn.setAttribute("aria-expanded", String(isOpen));
    hint.textContent = isOpen ? "▲ close" : "▼ open one layer";
    layer.classList.toggle("is-open", isOpen);
    // both views share one grid cell (CSS), so the figure keeps its height when it opens or closes
    stackView.classList.toggle("f01-off", isOpen);
    layerView.classList.toggle("f01-off", !isOpen);
    stackView.setAttribute("aria-hidden", String(isOpen));
    layerView.setAttribute("aria-hidden", String(!isOpen));
  }
  function setOpen(v, how) {
    if (v === isOpen && how !== "restore") return;
    isOpen = v;
    paint();
    if (how === "restore") return;
    ctx.state.set({ layer: isOpen ? "open" : null }, { push: true });
    ctx.narrate(isOpen
      ? "Opened one layer: " + L.filter(function (b) { return b.count; })
        .map(function (b) { return b.title + " " + W.int(b.count); }).join(", ") +
        "; " + W.int(data.block_total) + " parameters per block."
      : "Closed the layer view: " + cfg.n_layer + " blocks hold " + W.int(data.addends[2].count) + " of " +
        W.int(data.total) + " parameters.");
  }

  isOpen = ctx.state.get().layer === "open";
  paint();
  return { restore: function (s) { setOpen(s.layer === "open", "restore"); } };
});
