/* K3W widgets: heat mode for K3W.matrix (opt in with opts.heat = {scale}).
 *
 * A matrix of numbers reads as a picture when each cell is coloured by its value: a diverging
 * scale, symmetric around 0 (blue below, orange above), saturating at ±scale. One scale per
 * figure, so a colour means the same value in every grid of it. The number itself stays in the
 * cell's DOM (screen readers and tests read it), visually hidden until the cell is hovered or
 * focused, when it shows as a bubble; W.heat.toggle shows every number in place. Each heat table
 * is one tab stop: arrow keys move the focused cell (roving tabindex).
 *   K3W.heat.paint(td, v, scale, digits)  colour one cell and write its number (strings as they are)
 *   K3W.heat.tint(node, v, scale)         colour any node (--heat, data-sign) by a value; null clears
 *   K3W.heat.keys(table, cells)           arrow-key navigation over the body cells
 *   K3W.heat.legend(scale, digits)        a small colour bar: −scale … 0 … +scale
 *   K3W.heat.toggle(root)                 a "Show numbers" button that shows them all under root
 * The scale is the figure's data (its builder ships it), never worked out here.
 * The colours (base.css palette) keep ink text ≥ 4.5:1 at any intensity, light and dark. */
(function () {
  "use strict";
  var W = window.K3W;
  var H = (W.heat = {});

  /* paint and tint write only what differs from what the cell already shows: a grid repainted with
   * mostly the same values (a new step) then costs the browser style and layout for the cells that
   * changed, not for every cell (a text node replaced, even by the same text, is laid out anew) */
  H.paint = function (td, v, scale, digits) {
    if (typeof v === "string") {
      var t = td.firstChild;
      if (!(t && t.nodeType === 3 && !t.nextSibling && t.data === v)) td.textContent = v;
      H.tint(td, null);
      if (!td.classList.contains("is-text")) td.classList.add("is-text");
      return;
    }
    if (td.classList.contains("is-text")) td.classList.remove("is-text");
    var n = td.firstChild && td.firstChild.className === "k3-heat-n" ? td.firstChild : null;
    if (!n) { td.textContent = ""; n = td.appendChild(W.el("span", { class: "k3-heat-n" })); }
    var text = W.fmt(v, digits), x = n.firstChild;
    if (x && x.nodeType === 3 && !x.nextSibling) { if (x.data !== text) x.data = text; }
    else n.textContent = text;
    H.tint(td, v, scale);
  };
  /* The colour of a value: sign picks the hue, |v| / scale the strength, through a square root so
   * that small values (most of a state) still show while the order of magnitudes is kept. */
  H.tint = function (node, v, scale) {
    if (v === null || v === undefined) {
      if (node.hasAttribute("data-sign")) node.removeAttribute("data-sign");
      if (node.style.getPropertyValue("--heat")) node.style.removeProperty("--heat");
      return;
    }
    var share = scale > 0 ? Math.sqrt(Math.min(1, Math.abs(v) / scale)) : 0;
    var sign = v < 0 ? "neg" : "pos", heat = (100 * share).toFixed(1) + "%";
    if (node.getAttribute("data-sign") !== sign) node.setAttribute("data-sign", sign);
    if (node.style.getPropertyValue("--heat") !== heat) node.style.setProperty("--heat", heat);
  };

  H.keys = function (table, cells) {
    var at = [0, 0];
    function focusCell(i, j, move) {
      i = Math.max(0, Math.min(cells.length - 1, i));
      j = Math.max(0, Math.min(cells[i].length - 1, j));
      cells[at[0]][at[1]].tabIndex = -1;
      at = [i, j];
      cells[i][j].tabIndex = 0;
      if (move) cells[i][j].focus();
    }
    cells.forEach(function (row, i) {
      row.forEach(function (td, j) {
        td.tabIndex = -1;
        td.addEventListener("focus", function () { focusCell(i, j, false); });
      });
    });
    if (cells.length && cells[0].length) cells[0][0].tabIndex = 0;
    table.addEventListener("keydown", function (e) {
      var d = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[e.key];
      if (e.key === "Home") d = [0, -at[1]];
      if (e.key === "End") d = [0, cells[at[0]].length];
      if (!d || e.target.tagName !== "TD") return;
      e.preventDefault();
      e.stopPropagation();  // the figure's own arrow keys (steppers) act only outside a grid
      focusCell(at[0] + d[0], at[1] + d[1], true);
    });
  };

  H.legend = function (scale, digits) {
    var f = function (x) { return W.fmt(x, digits === undefined ? 1 : digits); };
    return W.el("div", { class: "k3-heat-legend", role: "img", "data-graphic": "legend",
      "aria-label": "Colour scale: blue for negative values, orange for positive, strongest at ±" + f(scale) },
      W.el("span", { class: "k3-num", text: f(-scale) }), W.el("span", { class: "k3-heat-bar" }),
      W.el("span", { class: "k3-num", text: "+" + f(scale) }),
      W.el("span", { class: "k3-heat-note", text: "hover, tap or focus a cell for its value" }));
  };

  H.toggle = function (root) {
    var btn = W.el("button", { type: "button", class: "k3-btn k3-heat-toggle", "aria-pressed": "false", text: "Show numbers",
      on: { click: function () {
        var on = btn.getAttribute("aria-pressed") !== "true";
        btn.setAttribute("aria-pressed", on ? "true" : "false");
        root.classList.toggle("k3-heat-numbers", on);
      } } });
    return btn;
  };
})();
