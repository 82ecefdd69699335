/* K3W widgets: a card in an SVG drawing that grows to hold its text.
 *
 * K3W.svg.card(t, spec, w, opts) → {node, h, w}: a rounded box w wide, a coloured band on top
 * (its colour from CSS), then from the top down: the title (wrapped), a chain such as
 * ["in [T]", "out [T, d]"] (on one line joined by " → " when it fits, else one piece per line),
 * one row per item — its name, its value right-aligned beside it (or under it when they do not fit)
 * and an optional detail line — or spec.empty when there are none, a wrapped note and a hint.
 *   t      a K3W.svg.type typesetter with the styles title, shape, name, count, small, note
 *   spec   {title, chain: [pieces], rows: [{name, value (text), detail, sym, key, attrs (on the
 *          value)}], empty, note}
 *   opts   {prefix: class prefix ("f01" → f01-box, f01-title, f01-shapes, f01-part, f01-part-name,
 *          f01-part-count, f01-part-shape, f01-none, f01-note, f01-open-hint, f01-box-bg, f01-band,
 *          f01-hl (a row's highlight), f01-ring (the focus ring), f01-card (a card behind)),
 *          attrs (on the card), minHeight, hint, focus: row → aria-label (rows with a sym take
 *          focus), stack: [offsets] (cards drawn behind it: it stands for several),
 *          press: fn(how) (the card is a button; the caller names it)}
 * The card is a group named by its title; rows that take focus are groups named by focus(row). */
(function () {
  "use strict";
  var S = window.K3W.svg, PAD = 8, BAND = 3;

  S.card = function (t, spec, w, opts) {
    var c = function (name) { return opts.prefix + "-" + name; };
    var inner = w - 2 * PAD, y = BAND + 6, kids = [];
    var node = S.g(Object.assign({ class: c("box") }, opts.attrs || {}));
    function put(kind, cls, lines) { kids.push(t.text(kind, cls, PAD, y + t.size(kind), lines)); y += t.lh(kind) * lines.length; }
    put("title", c("title"), t.wrap("title", spec.title, inner));
    var one = spec.chain.join(" → ");
    put("shape", c("shapes"), t.width("shape", one) <= inner ? [one] : spec.chain);
    y += 4;
    if (!spec.rows.length) put("note", c("none"), [spec.empty]);
    spec.rows.forEach(function (r) {
      var top = y, row = S.g({ class: c("part"), "data-sym": r.sym || null, "data-key": r.key });
      var side = t.width("name", r.name) + 8 + t.width("count", r.value) <= inner;
      var hl = row.appendChild(S.rect(PAD - 3, top, inner + 6, 0, c("hl"), { rx: 3 }));
      row.appendChild(t.text("name", c("part-name"), PAD, y + t.size("name"), [r.name]));
      if (!side) y += t.lh("name");
      row.appendChild(t.text("count", c("part-count"), PAD + inner, y + t.size("count"), [r.value], Object.assign({ "text-anchor": "end" }, r.attrs)));
      y += t.lh("count");
      if (r.detail) { row.appendChild(t.text("small", c("part-shape"), PAD, y + t.size("small") - 2, [r.detail])); y += t.lh("small"); }
      hl.setAttribute("height", y - top + 2);
      if (opts.focus && r.sym) {
        row.setAttribute("tabindex", "0");
        row.setAttribute("role", "group");
        row.setAttribute("aria-label", opts.focus(r));
        row.insertBefore(S.rect(PAD - 5, top - 2, inner + 10, y - top + 6, c("ring"), { rx: 4 }), row.firstChild);
      }
      kids.push(row);
      y += 3;
    });
    if (spec.note) { y += 2; put("note", c("note"), t.wrap("note", spec.note, inner)); }
    if (opts.hint) { y += 4; put("note", c("open-hint"), [opts.hint]); }
    var h = Math.max(opts.minHeight || 0, y + PAD);
    node.appendChild(S.rect(0, 0, w, h, c("box-bg"), { rx: 6 }));
    node.appendChild(S.path("M0," + (BAND + 3) + "a6,6 0 0 1 6,-6h" + (w - 12) + "a6,6 0 0 1 6,6", c("band")));
    kids.forEach(function (k) { node.appendChild(k); });
    if (opts.press) {
      node.setAttribute("role", "button");
      node.setAttribute("tabindex", "0");
      node.insertBefore(S.rect(-4, -4, w + 8, h + 8, c("ring"), { rx: 8 }), node.firstChild);
      S.pressable(node, opts.press);
    } else {
      node.setAttribute("role", "group");
      node.setAttribute("aria-label", spec.title);
    }
    if (opts.stack) {
      node.insertBefore(S.g.apply(null, [{ class: c("cards"), "aria-hidden": "true" }].concat(opts.stack.map(function (o) {
        return S.rect(o, o, w, h, c("card"), { rx: 6 });
      }))), node.firstChild);
    }
    return { node: node, h: h, w: w };
  };
})();
