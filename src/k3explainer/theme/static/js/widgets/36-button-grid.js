/* K3W widgets: a row of columns of buttons with one tab stop (FIG 09's layer stack).
 *
 * K3W.buttonGrid(opts) puts button i in column floor(i / perColumn); which way a column runs
 * (FIG 09 stacks layer 1 at the bottom) is the CSS's. One button is in the tab order at a time
 * (roving tabindex): ↑ / ↓ move to the next / previous button, → / ← one column over, Home / End
 * to the first / last; Enter and Space press the focused button (natively, as a click).
 *   opts {cls, columnCls (classes of the grid and of a column), label, perColumn,
 *         button(i) → a <button> with its content (the figure paints it), onPress(i, "click"),
 *         onHover(i) (pointer over a button, or arrow keys onto it; −1 when the pointer leaves)}
 *   returns {node, cells() → the buttons, size(n) (rebuilds for n buttons when n changes)} */
(function () {
  "use strict";
  var W = window.K3W;
  W.buttonGrid = function (opts) {
    var node = W.el("div", { class: opts.cls, role: "group", "aria-label": opts.label });
    var cells = [], at = 0, per = opts.perColumn, hover = opts.onHover || function () {};
    function roving() { cells.forEach(function (b, i) { b.tabIndex = i === at ? 0 : -1; }); }
    function button(i) {
      var b = opts.button(i);
      b.addEventListener("click", function () { at = i; roving(); opts.onPress(i, "click"); });
      b.addEventListener("focus", function () { at = i; roving(); });
      b.addEventListener("pointerenter", function () { hover(i); });
      b.addEventListener("pointerleave", function () { hover(-1); });
      return b;
    }
    function size(n) {
      if (n === cells.length) return;
      node.textContent = "";
      cells = [];
      for (var c = 0; c * per < n; c++) {
        var col = node.appendChild(W.el("div", { class: opts.columnCls }));
        for (var i = c * per; i < Math.min(n, (c + 1) * per); i++) cells.push(col.appendChild(button(i)));
      }
      at = Math.min(at, n - 1);
      roving();
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
      at = Math.max(0, Math.min(n - 1, next));
      roving();
      cells[at].focus();
      hover(at);
    });
    return { node: node, cells: function () { return cells; }, size: size };
  };
})();
