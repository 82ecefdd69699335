/* k3explainer runtime, part 5 of 6: symbol links. Elements sharing data-sym light up together, so
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
  // The latest of pointer and keyboard wins; moving onto something without a symbol (or the page
  // scrolling under a resting mouse) falls back to what the other one lit instead of clearing it.
  var hovered = null, focused = null;
  document.addEventListener("pointerover", function (e) { hovered = symOf(e.target); K3.highlight(hovered || focused); });
  document.documentElement.addEventListener("pointerleave", function () { hovered = null; K3.highlight(focused); });
  document.addEventListener("focusin", function (e) { focused = symOf(e.target); K3.highlight(focused || hovered); });
  document.addEventListener("focusout", function () { focused = null; K3.highlight(hovered); });

})();
