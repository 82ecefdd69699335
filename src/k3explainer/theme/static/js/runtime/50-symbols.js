/* k3explainer runtime, part 5 of 7: symbol links. Elements sharing data-sym light up together, so
 * hovering or focusing a symbol in an equation lights the figure part it names, and back. */
(function () {
  "use strict";
  var K3 = window.K3;
  var lit = null;
  K3.highlight = function (name) {
    if (lit === name) return;
    [].forEach.call(document.querySelectorAll(".sym-on"), function (el) { el.classList.remove("sym-on"); });
    lit = name || null;
    if (!lit) return;
    [].forEach.call(document.querySelectorAll('[data-sym="' + CSS.escape(lit) + '"]'), function (el) { el.classList.add("sym-on"); });
  };
  function symOf(target) {
    var el = target && target.closest ? target.closest("[data-sym]") : null;
    return el ? el.getAttribute("data-sym") : null;
  }
  // The latest of pointer and keyboard wins; moving onto something without a symbol falls back to
  // what the other one lit instead of clearing it. The page scrolling under a resting mouse (a
  // keyboard focus scrolls it too) puts a new element under the pointer without the pointer moving:
  // that pointerover keeps a keyboard focus lit rather than taking over from it.
  var hovered = null, focused = null, at = "";
  document.addEventListener("pointerover", function (e) {
    var moved = at !== (at = e.clientX + "," + e.clientY);
    hovered = symOf(e.target);
    K3.highlight(moved ? hovered || focused : focused || hovered);
  });
  document.documentElement.addEventListener("pointerleave", function () { hovered = null; K3.highlight(focused); });
  document.addEventListener("focusin", function (e) { focused = symOf(e.target); K3.highlight(focused || hovered); });
  document.addEventListener("focusout", function () { focused = null; K3.highlight(hovered); });

})();
