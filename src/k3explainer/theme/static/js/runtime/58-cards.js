/* k3explainer runtime: preview cards. A citation's number (a.cite-ref) shows its entry of the
 * reference list as a card while the pointer is over it or it has focus; the link itself goes to
 * that entry, which is also its accessible description (aria-describedby), so the card is only a
 * picture of it: aria-hidden, its links out of the tab order. One card serves the page. */
(function () {
  "use strict";
  var card = null, owner = null, hideTimer = 0;
  var SOURCES = "a.cite-ref";

  function content(link) {
    var entry = document.getElementById(link.getAttribute("href").slice(1));
    if (!entry) return null;
    var copy = entry.cloneNode(true);
    copy.removeAttribute("id");
    [].forEach.call(copy.querySelectorAll("[id]"), function (el) { el.removeAttribute("id"); });
    [].forEach.call(copy.querySelectorAll("a"), function (a) { a.setAttribute("tabindex", "-1"); });
    var cited = copy.querySelector(".ref-cited");
    if (cited) cited.remove();  // where it is cited belongs to the list, not to a card read in place
    return copy;
  }

  function place(link) {
    var r = link.getBoundingClientRect(), w = card.offsetWidth, h = card.offsetHeight;
    var left = Math.max(8, Math.min(r.left + r.width / 2 - w / 2, document.documentElement.clientWidth - w - 8));
    var below = r.bottom + 8 + h <= window.innerHeight || r.top - 8 - h < 0;
    card.style.left = left + window.scrollX + "px";
    card.style.top = (below ? r.bottom + 8 : r.top - 8 - h) + window.scrollY + "px";
  }

  function show(link) {
    clearTimeout(hideTimer);
    if (owner === link) return;
    var body = content(link);
    if (!body) return;
    if (!card) {
      card = document.createElement("div");
      card.className = "k3-card";
      card.setAttribute("aria-hidden", "true");
      card.addEventListener("pointerenter", function () { clearTimeout(hideTimer); });
      card.addEventListener("pointerleave", function () { hideSoon(); });
      document.body.appendChild(card);
    }
    card.replaceChildren(body);
    card.hidden = false;
    owner = link;
    place(link);
  }

  function hide() {
    clearTimeout(hideTimer);
    if (card) card.hidden = true;
    owner = null;
  }
  function hideSoon() { clearTimeout(hideTimer); hideTimer = setTimeout(hide, 250); }  // time to reach the card

  document.addEventListener("pointerover", function (e) {
    var link = e.target.closest && e.target.closest(SOURCES);
    if (link && e.pointerType !== "touch") show(link);
  });
  document.addEventListener("pointerout", function (e) {
    var link = e.target.closest && e.target.closest(SOURCES);
    if (link && link === owner && !link.contains(e.relatedTarget)) hideSoon();
  });
  document.addEventListener("focusin", function (e) {
    var link = e.target.closest && e.target.closest(SOURCES);
    if (link) show(link); else if (owner) hide();
  });
  document.addEventListener("keydown", function (e) { if (e.key === "Escape" && owner) hide(); });
  window.addEventListener("scroll", function () { if (owner && document.activeElement !== owner) hide(); }, { passive: true });
})();
