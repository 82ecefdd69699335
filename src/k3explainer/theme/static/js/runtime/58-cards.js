/* k3explainer runtime: preview cards, while the pointer is over a link or it has focus.
 * - A citation's number (a.cite-ref) shows its entry of the reference list. The link goes to that
 *   entry, which is also its accessible description (aria-describedby).
 * - A cross-reference (a.xref) shows its target: a figure's question and takeaway, a section's title
 *   and summary, and, for a link that opens a figure in a state, the words for that state.
 * A card is only a picture of what the link leads to, so it is aria-hidden and its links are out
 * of the tab order. Every word in it was written at build time. One card serves the page. */
(function () {
  "use strict";
  var card = null, owner = null, hideTimer = 0;
  var dismissed = null;  // a link whose card Escape closed: it stays closed until the pointer leaves (WCAG 1.4.13)
  var SOURCES = "a.cite-ref, a.xref";

  function still(node) {  // a copy to show, not to use: no ids, no tab stops
    var copy = node.cloneNode(true);
    copy.removeAttribute("id");
    [].forEach.call(copy.querySelectorAll("[id]"), function (el) { el.removeAttribute("id"); });
    [].forEach.call(copy.querySelectorAll("a, [tabindex]"), function (a) { a.setAttribute("tabindex", "-1"); });
    return copy;
  }
  function part(node, cls) {
    var p = document.createElement("div");
    p.className = cls;
    p.appendChild(still(node));
    return p;
  }
  function content(link) {
    if (link.classList.contains("cite-ref")) {
      var entry = document.getElementById(link.getAttribute("href").slice(1).split("&")[0]);
      if (!entry) return null;
      var copy = still(entry);
      var cited = copy.querySelector(".ref-cited");
      if (cited) cited.remove();  // where it is cited belongs to the list, not to a card read in place
      return copy;
    }
    var target = document.getElementById(window.K3._.hash.parse(link.getAttribute("href")).anchor);
    if (!target) return null;
    var box = document.createElement("div"), head, body;
    if (target.matches("figure")) {
      head = target.querySelector(".fig-title");
      body = target.querySelector(".fig-takeaway");
    } else {
      var section = target.closest("section.section") || target;
      head = target.matches("h3, h4") ? target : section.querySelector("h2");
      body = section.querySelector(".section-summary");
    }
    if (head) box.appendChild(part(head, "card-title"));
    if (body) box.appendChild(part(body, "card-body"));
    if (link.dataset.stateLabel) {
      var state = document.createElement("p");
      state.className = "card-state";
      state.textContent = link.dataset.stateLabel;
      box.appendChild(state);
    }
    return box;
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
    if (link && e.pointerType !== "touch" && link !== dismissed) show(link);
  });
  document.addEventListener("pointerout", function (e) {
    var link = e.target.closest && e.target.closest(SOURCES);
    if (!link || link.contains(e.relatedTarget)) return;
    if (link === dismissed) dismissed = null;
    if (link === owner) hideSoon();
  });
  document.addEventListener("focusin", function (e) {
    var link = e.target.closest && e.target.closest(SOURCES);
    if (link) show(link); else if (owner) hide();
  });
  document.addEventListener("keydown", function (e) {
    if (e.key === "Escape" && owner) { dismissed = owner; hide(); }
  });
  window.addEventListener("scroll", function () { if (owner && document.activeElement !== owner) hide(); }, { passive: true });
})();
