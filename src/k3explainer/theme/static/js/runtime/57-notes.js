/* k3explainer runtime: sidenotes (site/sidenotes.py). Where the sheet sets a note in the margin,
 * its number only draws the eye to it; where the column is too narrow for a margin, the number
 * opens and closes the note in place (aria-expanded on the number), and Escape closes it. */
(function () {
  "use strict";
  function noteOf(ref) { return document.getElementById(ref.getAttribute("aria-controls") || ""); }
  function inMargin(note) { return getComputedStyle(note).float !== "none"; }

  /* A number opens something only where its note is not in the margin: say so, and again
   * whenever the window crosses the width where the margin appears. */
  function mark() {
    [].forEach.call(document.querySelectorAll("a.sn-ref[aria-controls]"), function (ref) {
      var note = noteOf(ref);
      if (!note) return;
      if (inMargin(note)) ref.removeAttribute("aria-expanded");
      else ref.setAttribute("aria-expanded", String(note.classList.contains("open")));
    });
  }
  mark();
  window.matchMedia("(min-width: 75rem)").addEventListener("change", mark);
  document.addEventListener("click", function (e) {
    var ref = e.target.closest && e.target.closest("a.sn-ref[aria-controls]");
    var note = ref && noteOf(ref);
    if (!note || e.button !== 0 || e.metaKey || e.ctrlKey) return;
    e.preventDefault();
    if (inMargin(note)) {
      note.classList.remove("sn-flash");
      void note.offsetWidth;  // restart the highlight
      note.classList.add("sn-flash");
      return;
    }
    var open = !note.classList.contains("open");
    note.classList.toggle("open", open);
    ref.setAttribute("aria-expanded", String(open));
  });
  document.addEventListener("keydown", function (e) {
    if (e.key !== "Escape") return;
    var ref = e.target.closest && e.target.closest("a.sn-ref[aria-controls]");
    var note = ref && noteOf(ref);
    if (note && note.classList.contains("open")) {
      note.classList.remove("open");
      ref.setAttribute("aria-expanded", "false");
    }
  });
})();
