/* FIG 01 · GPT-2 forward pass, drawn as one SVG: the pipeline from token ids to logits, each box
 * with its shapes and parameter count (from gpt2_params at build time). The ×12 block opens in
 * place into one layer drawn around its residual stream; the sum under the drawing lists every
 * parameter tensor once and lands on the kernel's total.
 *
 * The drawing is laid out for the width it gets, at one SVG unit per CSS pixel so text stays at
 * its size: a row of boxes when wide, a column on a phone. Text is measured with a canvas in the
 * same fonts the SVG uses (FONT), and boxes grow to hold it. */
K3.register("fig-01-gpt2-pipeline", function (mount, data, ctx) {
  "use strict";
  var W = window.K3W, el = W.el;
  var cfg = data.config, L = data.layer;
  var allBlocks = data.addends.find(function (a) { return a.id === "blocks"; }).count;
  var layerId = ctx.id + "-layer", arrowId = ctx.id + "-arrow";
  var isOpen = ctx.state.get().layer === "open";

  /* ---- text: fonts, measuring, wrapping ---- */
  var css = getComputedStyle(document.documentElement);
  var SANS = css.getPropertyValue("--sans").trim(), MONO = css.getPropertyValue("--mono").trim();
  var FONT = {  // [family, size px, weight, line height px]
    title: [SANS, 13.5, 700, 17], shape: [MONO, 11, 400, 15], name: [SANS, 12, 400, 16],
    count: [MONO, 12, 700, 16], small: [MONO, 10.5, 400, 14], note: [SANS, 12, 400, 15],
    head: [SANS, 11, 700, 15], sum: [MONO, 12, 400, 17],
  };
  var pen = document.createElement("canvas").getContext("2d"), measured = {};
  function width(kind, s) {  // remembered: every redraw measures the same strings
    var key = kind + "|" + s;
    if (!(key in measured)) {
      var f = FONT[kind];
      pen.font = f[2] + " " + f[1] + "px " + f[0];
      measured[key] = pen.measureText(s).width;
    }
    return measured[key];
  }
  function wrap(kind, s, w) {  // greedy word wrap; a word wider than w gets a line of its own
    var lines = [], line = "";
    s.split(" ").forEach(function (word) {
      var next = line ? line + " " + word : word;
      if (line && width(kind, next) > w) { lines.push(line); line = word; } else line = next;
    });
    return lines.concat(line ? [line] : []);
  }
  /* one <text>, one <tspan> per line; lines keep their spaces so textContent reads as a sentence */
  function text(kind, cls, x, y, lines, attrs) {
    var f = FONT[kind], t = el("svg:text", Object.assign({ class: cls, x: x, y: y, "font-family": f[0],
      "font-size": f[1], "font-weight": f[2] }, attrs || {}));
    lines.forEach(function (s, i) {
      t.appendChild(el("svg:tspan", { x: x, dy: i ? f[3] : 0, text: s + (i < lines.length - 1 ? " " : "") }));
    });
    return t;
  }
  function g(attrs) { return el("svg:g", attrs || {}); }
  function rect(x, y, w, h, cls, extra) { return el("svg:rect", Object.assign({ x: x, y: y, width: w, height: h, class: cls }, extra || {})); }
  function line(x1, y1, x2, y2, cls, arrow) {
    return el("svg:path", { d: "M" + x1 + "," + y1 + "L" + x2 + "," + y2, class: cls || "f01-arrow",
      "marker-end": arrow === false ? null : "url(#" + arrowId + ")" });
  }
  function path(d, cls, arrow) { return el("svg:path", { d: d, class: cls, "marker-end": arrow ? "url(#" + arrowId + ")" : null }); }
  function at(node, x, y) { node.setAttribute("transform", "translate(" + x + "," + y + ")"); return node; }

  /* ---- a box: title, shapes, parameter tensors (or "no parameters"), note; height from content ---- */
  var PAD = 8, BAND = 3;
  function box(b, w, opts) {
    var inner = w - 2 * PAD, y = BAND + 6, node = g({ class: "f01-box", "data-box": b.id, "data-sym": b.sym || null });
    var kids = [];
    function put(kind, cls, lines) {
      kids.push(text(kind, cls, PAD, y + FONT[kind][1], lines));
      y += FONT[kind][3] * lines.length;
    }
    put("title", "f01-title", wrap("title", b.title, inner));
    var io = [b.shape_in && "in " + b.shape_in, b.shape_out && "out " + b.shape_out].filter(Boolean);
    var one = io.join(" → ");
    put("shape", "f01-shapes", width("shape", one) <= inner ? [one] : io);  // two lines: "in …", "out …"
    y += 4;
    if (!b.parts.length) put("note", "f01-none", ["no parameters"]);
    b.parts.forEach(function (p) {
      var count = W.int(p.count), top = y, part = g({ class: "f01-part", "data-sym": p.sym || null, "data-key": "part:" + b.id + ":" + p.name });
      var side = width("name", p.name) + 8 + width("count", count) <= inner;
      var hl = part.appendChild(rect(PAD - 3, top, inner + 6, 0, "f01-hl", { rx: 3 }));
      part.appendChild(text("name", "f01-part-name", PAD, y + FONT.name[1], [p.name]));
      if (!side) y += FONT.name[3];
      part.appendChild(text("count", "f01-part-count", PAD + inner, y + FONT.count[1], [count], { "text-anchor": "end", "data-count": p.count }));
      y += FONT.count[3];
      if (p.shape) { part.appendChild(text("small", "f01-part-shape", PAD, y + FONT.small[1] - 2, [p.shape])); y += FONT.small[3]; }
      hl.setAttribute("height", y - top + 2);
      if (opts.focusable && p.sym) {
        part.setAttribute("tabindex", "0");
        part.setAttribute("role", "group");
        part.setAttribute("aria-label", p.name + ": " + count + " parameters" + (p.shape ? ", weights " + p.shape : ""));
        part.insertBefore(rect(PAD - 5, top - 2, inner + 10, y - top + 6, "f01-ring", { rx: 4 }), part.firstChild);
      }
      kids.push(part);
      y += 3;
    });
    if (b.note) { y += 2; put("note", "f01-note", wrap("note", b.note, inner)); }
    if (opts.hint) { y += 4; put("note", "f01-open-hint", [opts.hint]); }
    var h = Math.max(opts.minHeight || 0, y + PAD);
    node.appendChild(rect(0, 0, w, h, "f01-box-bg", { rx: 6 }));
    node.appendChild(path("M0," + (BAND + 3) + "a6,6 0 0 1 6,-6h" + (w - 12) + "a6,6 0 0 1 6,6", "f01-band"));
    kids.forEach(function (k) { node.appendChild(k); });
    node.setAttribute("role", "group");
    node.setAttribute("aria-label", b.title);
    return { node: node, h: h, w: w };
  }
  function measureBox(b, w, opts) { return box(b, w, opts).h; }

  /* ---- the ×12 block: a stack of cards, and the control that opens one layer ---- */
  function blockBox(b, w, h) {
    var bx = box(b, w, { minHeight: h, hint: isOpen ? "▲ close this layer" : "▼ open one layer" });
    var node = bx.node;
    node.setAttribute("class", "f01-box f01-box-blocks");
    node.setAttribute("role", "button");
    node.setAttribute("tabindex", "0");
    node.setAttribute("data-key", "blocks");
    node.setAttribute("aria-expanded", String(isOpen));
    node.setAttribute("aria-controls", layerId);
    node.removeAttribute("aria-label");  // named by what it shows, counts and "open one layer" included
    node.insertBefore(rect(-4, -4, w + 8, bx.h + 8, "f01-ring", { rx: 8 }), node.firstChild);
    var cards = g({ class: "f01-cards", "aria-hidden": "true" });
    [8, 4].forEach(function (o) { cards.appendChild(rect(o, o, w, bx.h, "f01-card", { rx: 6 })); });
    node.insertBefore(cards, node.firstChild);
    node.addEventListener("click", function () { setOpen(!isOpen, "click"); });
    node.addEventListener("keydown", function (e) {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); setOpen(!isOpen, "key"); }
    });
    return bx;
  }
  function pipelineBox(b, w, h) {
    return b.id === "blocks" ? blockBox(b, w, h) : box(b, w, { minHeight: h, focusable: true });
  }

  /* ---- closed: the stack of identical layers the ×12 stands for, split attention / MLP / LN ---- */
  function stackView(w, wide) {
    var view = g({ class: "f01-layer-closed" }), y = 0;
    var head = wrap("head", "INSIDE THE ×" + cfg.n_layer + " BLOCK · " + cfg.n_layer + " IDENTICAL LAYERS", w);
    view.appendChild(text("head", "f01-head", 0, y + 11, head));
    y += FONT.head[3] * head.length + 9;
    var stack = view.appendChild(g({ class: "f01-stack", "aria-hidden": "true" }));
    stack.addEventListener("click", function () { setOpen(true, "click"); });
    var pitch = wide ? 19 : 15, labelW = 52, barW = w - labelW - 8;
    stack.appendChild(rect(0, y, w, pitch * cfg.n_layer, "f01-hit"));  // the gaps between bars click too
    for (var i = 1; i <= cfg.n_layer; i++, y += pitch) {
      stack.appendChild(text("small", "f01-slab-name", labelW, y + pitch - 5, ["layer " + i], { "text-anchor": "end" }));
      var x = labelW + 8;
      data.block_split.forEach(function (p) {
        var sw = Math.max(2, barW * p.share);
        stack.appendChild(rect(x, y + 2, sw, pitch - 4, "f01-split-" + p.id));
        x += sw;
      });
    }
    y += 10;
    var keyX = 0, keyLine = y;
    data.block_split.forEach(function (p) {  // a legend that wraps like a sentence
      var label = p.label + " " + W.int(p.count) + " (" + W.fmt(100 * p.share, p.share < 0.01 ? 2 : 1) + "%)";
      var kw = 16 + width("note", label) + 16;
      if (keyX && keyX + kw > w) { keyX = 0; keyLine += FONT.note[3] + 4; }
      view.appendChild(rect(keyX, keyLine + 2, 10, 10, "f01-split-" + p.id, { rx: 2 }));
      view.appendChild(text("note", "f01-key", keyX + 15, keyLine + 11, [label]));
      keyX += kw;
    });
    y = keyLine + FONT.note[3] + 6;
    var sentence = wrap("note", "Each layer holds " + W.int(data.block_total) + " parameters. Open the ×" + cfg.n_layer +
      " block to look inside one.", w);
    view.appendChild(text("note", "f01-stack-note", 0, y + 11, sentence));
    return { node: view, h: y + FONT.note[3] * sentence.length };
  }

  /* ---- open: one layer around its residual stream; each branch taps the stream and adds back ---- */
  function layerView(w, wide) {
    var view = g({ class: "f01-layer-open", id: layerId }), y = 0;
    var close = g({ class: "f01-close", role: "button", tabindex: "0", "data-key": "close", "aria-label": "Close the layer view" });
    var cw = width("name", "Close ✕") + 20;
    close.appendChild(rect(0, 0, cw, 24, "f01-close-bg", { rx: 5 }));
    close.appendChild(text("name", "f01-close-label", cw / 2, 16, ["Close ✕"], { "text-anchor": "middle" }));
    close.addEventListener("click", function () { setOpen(false, "click"); focusKey("blocks"); });
    close.addEventListener("keydown", function (e) {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); setOpen(false, "key"); focusKey("blocks"); }
    });
    view.appendChild(at(close, w - cw, -4));
    var head = wrap("head", "INSIDE ONE BLOCK · THE SAME IN ALL " + cfg.n_layer, w - cw - 10);
    view.appendChild(text("head", "f01-head", 0, y + 11, head));
    y += Math.max(30, FONT.head[3] * head.length + 12);
    var streamY = y + 10, boxes;
    var TAP = 24, G = 24, OUT = 30;
    if (wide) {  // stream along the top, boxes in a row below, each add box rising into its ⊕
      // LayerNorm and add boxes just wide enough for "out [T, d]"; attention and MLP share the rest
      var avail = w - 2 * TAP - 5 * G - OUT, small = Math.min(140, Math.max(100, (avail - 2 * 190) / 4));
      var big = (avail - 4 * small) / 2, widths = [small, big, small, small, big, small];
      var rowY = streamY + 30;
      var h = Math.max.apply(null, L.map(function (b, i) { return measureBox(b, widths[i], {}); }));
      var x = TAP;
      boxes = L.map(function (b, i) {
        if (i === 3) x += TAP;  // room for the second tap
        var bx = box(b, widths[i], { minHeight: h });
        view.appendChild(at(bx.node, x, rowY));
        bx.x = x; x += widths[i] + G;
        return bx;
      });
      [0, 3].forEach(function (i) {  // stream → LN, and the branch's own arrows
        var ln = boxes[i], add = boxes[i + 2], mid = rowY + 24;
        view.appendChild(path("M" + (ln.x - TAP / 2) + "," + streamY + "V" + mid + "H" + (ln.x - 2), "f01-arrow", true));
        view.appendChild(line(ln.x + ln.w + 2, mid, ln.x + ln.w + G - 2, mid));
        view.appendChild(line(boxes[i + 1].x + boxes[i + 1].w + 2, mid, add.x - 2, mid));
        var cx = add.x + add.w / 2;
        view.appendChild(line(cx, rowY - 2, cx, streamY + 9, "f01-arrow"));
        view.appendChild(plus(cx, streamY));
      });
      view.appendChild(line(0, streamY, boxes[2].x + boxes[2].w / 2 - 10, streamY, "f01-stream"));
      view.appendChild(line(boxes[2].x + boxes[2].w / 2 + 9, streamY, boxes[5].x + boxes[5].w / 2 - 10, streamY, "f01-stream"));
      view.appendChild(line(boxes[5].x + boxes[5].w / 2 + 9, streamY, w - 2, streamY, "f01-stream"));
      view.appendChild(text("small", "f01-stream-label", 0, streamY - 6, ["x, from the block before"]));
      view.appendChild(text("small", "f01-stream-label", w, streamY - 6, ["to next block"], { "text-anchor": "end" }));
      y = rowY + h + 14;
    } else {  // stream down the left edge, boxes in a column beside it
      var bw = w - 2 * TAP, sx = TAP / 2, by = streamY;
      view.appendChild(text("small", "f01-stream-label", sx + 8, by - 2, ["x, from the block before"]));
      by += 10;
      boxes = L.map(function (b, i) {
        if (i === 3) by += 8;
        var bx = box(b, bw, {});
        view.appendChild(at(bx.node, 2 * TAP, by));
        bx.y = by; by += bx.h + (i % 3 === 2 ? 10 : 20);
        return bx;
      });
      [0, 3].forEach(function (i) {
        var ln = boxes[i], add = boxes[i + 2], cx = 2 * TAP + bw / 2;
        view.appendChild(line(sx, ln.y + 16, 2 * TAP - 2, ln.y + 16, "f01-arrow"));
        view.appendChild(line(cx, ln.y + ln.h + 2, cx, boxes[i + 1].y - 2));
        view.appendChild(line(cx, boxes[i + 1].y + boxes[i + 1].h + 2, cx, add.y - 2));
        var cy = add.y + add.h / 2;
        view.appendChild(line(2 * TAP - 2, cy, sx + 9, cy, "f01-arrow"));
        view.appendChild(plus(sx, cy));
      });
      var c1 = boxes[2].y + boxes[2].h / 2, c2 = boxes[5].y + boxes[5].h / 2;
      view.appendChild(line(sx, streamY, sx, c1 - 10, "f01-stream"));
      view.appendChild(line(sx, c1 + 9, sx, c2 - 10, "f01-stream"));
      view.appendChild(line(sx, c2 + 9, sx, by + 6, "f01-stream"));
      view.appendChild(text("small", "f01-stream-label", sx + 8, by + 4, ["to the next block"]));
      y = by + 16;
    }
    /* the per-block sum, wrapped between terms */
    var tokens = [];
    L.forEach(function (b, k) { tokens.push([(k ? "+ " : "") + W.int(b.count) + " "]); });
    tokens.push(["= "], [W.int(data.block_total), "f01-block-total"], [" per block "], ["· × " + cfg.n_layer + " = "],
      [W.int(allBlocks), "f01-blocks-total"]);
    var perBlock = text("sum", "f01-layer-sum", 0, y + 12, [], { "data-sym": "g2-block" }), lineW = 0, rows = 1;
    tokens.forEach(function (t) {
      var tw = width("sum", t[0]), span = el("svg:tspan", { class: t[1] || null, text: t[0] });
      if (lineW && lineW + tw > w) { span.setAttribute("x", 0); span.setAttribute("dy", FONT.sum[3]); lineW = 0; rows++; }
      if (t[1]) span.setAttribute("font-weight", 700);
      perBlock.appendChild(span);
      lineW += tw;
    });
    view.appendChild(perBlock);
    y += FONT.sum[3] * rows + 4;
    return { node: view, h: y };
  }
  function plus(cx, cy) {
    return el("svg:g", { class: "f01-plus", "aria-hidden": "true" }, el("svg:circle", { cx: cx, cy: cy, r: 9 }),
      el("svg:path", { d: "M" + (cx - 5) + "," + cy + "h10M" + cx + "," + (cy - 5) + "v10" }));
  }

  /* ---- the whole drawing, for a width ---- */
  var svg = null, drawnWidth = 0;
  function draw() {
    var avail = Math.floor(mount.clientWidth);
    if (!avail) return;
    drawnWidth = avail;
    // narrower than 860 px the boxes get too thin for their text: a column, at most 640 px wide
    // so a count stays near its name
    var wide = avail >= 860, w = wide ? avail : Math.min(avail, 640), GAP = 26, y = 0;
    var canvas = el("svg:svg", { class: "f01-svg", width: w, role: "group",
      "aria-label": "GPT-2 pipeline, from token ids to next-token logits" });
    canvas.appendChild(el("svg:defs", {}, el("svg:marker", { id: arrowId, viewBox: "0 0 8 8", refX: 7, refY: 4,
      markerWidth: 8, markerHeight: 8, markerUnits: "userSpaceOnUse", orient: "auto-start-reverse" }, el("svg:path", { d: "M0,0L8,4L0,8z", class: "f01-arrowhead" }))));
    var P = data.pipeline, blocksAt = P.findIndex(function (b) { return b.id === "blocks"; });
    var region = g({ class: "f01-region" + (isOpen ? " is-open" : "") });
    var closed = stackView(wide ? w - 28 : w - 20, wide), opened = layerView(wide ? w - 28 : w - 20, wide);
    (isOpen ? closed : opened).node.setAttribute("class", (isOpen ? closed : opened).node.getAttribute("class") + " f01-off");
    (isOpen ? closed : opened).node.setAttribute("aria-hidden", "true");
    // on a wide screen both views share one height, so opening a layer moves nothing below it
    var regionH = (wide ? Math.max(closed.h, opened.h) : (isOpen ? opened.h : closed.h)) + 28;
    function placeRegion(top) {
      region.appendChild(rect(0, top, w, regionH, "f01-region-bg", { rx: 8 }));
      region.appendChild(at(closed.node, 14, top + 16));
      region.appendChild(at(opened.node, 14, top + 16));
    }
    if (wide) {
      var bw = (w - 5 * GAP - 8) / P.length;
      var h = Math.max.apply(null, P.map(function (b) { return measureBox(b, bw, { hint: "▼ open one layer" }); }));
      P.forEach(function (b, i) {
        var x = i * (bw + GAP), bx = pipelineBox(b, bw, h);
        canvas.appendChild(at(bx.node, x, 0));
        if (i) canvas.appendChild(line(x - GAP + 9, h / 2, x - 2, h / 2));
      });
      var zx = blocksAt * (bw + GAP), top = h + 40;  // the block zooms out into the region below
      region.appendChild(el("svg:polygon", { class: "f01-zoom", points: [zx + 4, h + 10, zx + bw + 4, h + 10, w, top, 0, top].join(" ") }));
      placeRegion(top);
      canvas.appendChild(region);
      y = top + regionH + 2;
    } else {
      P.forEach(function (b, i) {
        var bx = pipelineBox(b, w - 10, 0);
        if (i) { canvas.appendChild(line(w / 2, y - GAP + 4, w / 2, y - 2)); }
        canvas.appendChild(at(bx.node, 0, y));
        y += bx.h + (b.id === "blocks" ? 8 : 0);
        if (i === blocksAt) {  // the block opens in place, right under it
          y += 10;
          placeRegion(y);
          canvas.appendChild(region);
          y += regionH;
        }
        y += GAP;
      });
      y -= GAP - 2;
    }
    canvas.setAttribute("height", Math.ceil(y));
    canvas.setAttribute("viewBox", "0 0 " + w + " " + Math.ceil(y));
    var focused = document.activeElement && svg && svg.contains(document.activeElement)
      ? document.activeElement.getAttribute("data-key") : null;
    if (svg) svg.replaceWith(canvas); else sum.before(canvas);  // the drawing sits above the sum
    svg = canvas;
    if (focused) focusKey(focused);
  }
  function focusKey(key) {
    var node = svg && svg.querySelector('[data-key="' + CSS.escape(key) + '"]');
    if (node) node.focus();
  }

  /* ---- the sum: every tensor counted once, and where the parameters live (HTML, it wraps) ---- */
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
    el("p", {}, el("span", { class: "k3-label", text: "Config " }), W.html(el("span"), data.config_html)),
    el("p", { class: "f01-padded" }, W.html(el("span"), data.padded_html)));

  var root = mount.appendChild(el("div", { class: "f01" }, config, sum, bar));
  root.addEventListener("keydown", function (e) {  // Escape folds the layer from anywhere in the figure
    if (e.key === "Escape" && isOpen) { e.preventDefault(); setOpen(false, "key"); focusKey("blocks"); }
  });
  draw();
  new ResizeObserver(function () {
    if (Math.floor(mount.clientWidth) !== drawnWidth) draw();
  }).observe(mount);

  /* ---- open / close ---- */
  function setOpen(v, how) {
    if (v === isOpen && how !== "restore") return;
    isOpen = v;
    draw();
    if (how === "restore") return;
    ctx.state.set({ layer: isOpen ? "open" : null }, { push: true });
    ctx.narrate(isOpen
      ? "Opened one layer: " + L.filter(function (b) { return b.count; })
        .map(function (b) { return b.title + " " + W.int(b.count); }).join(", ") +
        "; " + W.int(data.block_total) + " parameters per block."
      : "Closed the layer view: " + cfg.n_layer + " blocks hold " + W.int(allBlocks) + " of " +
        W.int(data.total) + " parameters.");
  }
  return { restore: function (s) { setOpen(s.layer === "open", "restore"); } };
});
