/* K3W widgets: a legend — a row of keys beside a chart, each a small swatch (a filled square, or a
 * short line, solid or dashed) and its label, wrapping with gaps. Its look is figure.css's
 * .k3-legend; the figure's own class on a swatch gives its colour (color, or a box's background),
 * a line's thickness (height) and a dashed line's pattern (--k3-dash, --k3-gap: its chart line's
 * dasharray). Used by FIG 01, 04, 07, 09, 11, 11b and 12b.
 *   W.legend(items, opts) → <p class="k3-legend">
 *   items: [{text | node, swatch?: "box" | "line", dash?, faint?, cls?, sym?}, …]
 *     text, or node: the label (a node the figure keeps to rewrite later, e.g. the chosen token);
 *     swatch: the mark before it (none: a label alone); dash: a dashed line; faint: a faded mark;
 *     cls: the swatch's classes (see above); sym: the symbol the item lights with (data-sym).
 *   opts: {title? (a bold lead-in), hidden? (aria-hidden: the text alternative says it all)}
 */
(function () {
  "use strict";
  var W = window.K3W, el = W.el;

  W.legend = function (items, opts) {
    opts = opts || {};
    var node = el("p", { class: "k3-legend", "aria-hidden": opts.hidden ? "true" : null },
      opts.title ? el("span", { class: "k3-legend-title", text: opts.title }) : null);
    items.forEach(function (it) {
      var sw = it.swatch && el("i", { "aria-hidden": "true", class: ["k3-sw", "k3-sw-" + it.swatch, it.dash && "k3-sw-dash",
        it.faint && "k3-sw-faint", it.cls].filter(Boolean).join(" ") });
      node.appendChild(el("span", { class: "k3-legend-item", "data-sym": it.sym }, sw, it.node || it.text));
    });
    return node;
  };
})();
