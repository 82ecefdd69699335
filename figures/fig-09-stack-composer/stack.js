/* K3W widgets: FIG 09's layer stack — one button per layer in columns of four, one tab stop. It
 * lives here, not in the figure file, only to keep each file small; nothing else uses it.
 *
 * It behaves as K3W.buttonGrid (which it replaced for this figure) for the reader: button i sits in
 * column floor(i / perColumn); one button is in the tab order at a time (roving tabindex); ↑ / ↓
 * move to the next / previous button, → / ← one column over, Home / End to the first / last;
 * Enter and Space press the focused button (natively, as a click). What differs is the cost of an
 * input, which must paint within a frame or two with 93 layers:
 *   - size(n) adds or removes buttons (and columns) at the end only; the others stay as they are
 *     (a rebuild of all 93, each laid out again, was most of a layer-count step);
 *   - set(i, kind, name) writes a button only where its kind or spoken name changed (a preset
 *     rewrote every button, a toggle too);
 *   - the spoken name is the button's aria-label, which begins with what the button shows ("5 K"),
 *     so the name still contains the visible text: an attribute, not hidden text the page must
 *     shape and lay out again for every button on every preset or context step;
 *   - moving the tab stop writes the two buttons concerned, not all of them.
 *
 * K3W.f09Stack({cls, columnCls, label, perColumn, onPress(i, "click"), onHover(i)})
 *   → {node, cells() → the buttons, size(n), set(i, kind, name)}
 *   kind: "kda" or "mla" (its letter is shown, its class "is-" + kind, data-kind, data-sym from
 *   opts.syms); name: the aria-label; onHover(i): pointer over a button or arrow keys onto it
 *   (−1 when the pointer leaves).
 */
(function () {
  "use strict";
  var W = window.K3W, el = W.el;
  W.f09Stack = function (opts) {
    var node = el("div", { class: opts.cls, role: "group", "aria-label": opts.label });
    var cells = [], shown = [], at = 0, per = opts.perColumn, hover = opts.onHover || function () {};
    var LETTER = { kda: "K", mla: "M" };

    function tabTo(i) {  // the roving tab stop: only the old and the new stop change
      if (cells[at]) cells[at].tabIndex = -1;
      at = i;
      if (cells[at]) cells[at].tabIndex = 0;
    }
    function button(i) {
      var letter = document.createTextNode("");
      var b = el("button", { type: "button", class: "f09-layer", "data-layer": i + 1, tabindex: -1 },
        el("span", { class: "f09-layer-n", text: String(i + 1) }), " ", el("span", { class: "f09-layer-k" }, letter));
      b.letter = letter;
      b.addEventListener("click", function () { tabTo(i); opts.onPress(i, "click"); });
      b.addEventListener("focus", function () { tabTo(i); });
      b.addEventListener("pointerenter", function () { hover(i); });
      b.addEventListener("pointerleave", function () { hover(-1); });
      return b;
    }
    function size(n) {
      if (n === cells.length) return;
      while (cells.length > n) {
        var gone = cells.pop();
        shown.pop();
        var col = gone.parentNode;
        gone.remove();
        if (!col.firstChild) col.remove();
      }
      while (cells.length < n) {
        var i = cells.length, column = node.lastChild;
        if (!column || i % per === 0) column = node.appendChild(el("div", { class: opts.columnCls }));
        cells.push(column.appendChild(button(i)));
        shown.push({});
      }
      var stop = Math.max(0, Math.min(at, n - 1));
      if (cells[stop] && (stop !== at || cells[stop].tabIndex !== 0)) tabTo(stop);  // the stop stays unless it was removed
    }
    function set(i, kind, name) {
      var b = cells[i], was = shown[i];
      if (was.kind !== kind) {
        was.kind = kind;
        b.className = "f09-layer is-" + kind;
        b.setAttribute("data-kind", kind);
        b.setAttribute("data-sym", opts.syms[kind]);
        b.letter.data = LETTER[kind];
      }
      if (was.name !== name) { was.name = name; b.setAttribute("aria-label", name); }
    }

    node.addEventListener("keydown", function (e) {
      var n = cells.length, next = null;
      if (e.key === "ArrowUp") next = at + 1;
      else if (e.key === "ArrowDown") next = at - 1;
      else if (e.key === "ArrowRight") next = at + per;
      else if (e.key === "ArrowLeft") next = at - per;
      else if (e.key === "Home") next = 0;
      else if (e.key === "End") next = n - 1;
      if (next === null) return;
      e.preventDefault();
      tabTo(Math.max(0, Math.min(n - 1, next)));
      cells[at].focus();
      hover(at);
    });
    return { node: node, cells: function () { return cells; }, size: size, set: set };
  };
})();
