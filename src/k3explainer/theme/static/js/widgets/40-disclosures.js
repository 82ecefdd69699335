/* K3W widgets: a list of items that expand in place. */
(function () {
  "use strict";
  var W = window.K3W;
  /* A list of items that expand in place (disclosure buttons with aria-expanded/aria-controls);
   * ↑ ↓ (and ← →) move focus between item buttons, Home/End jump, Enter/Space toggle (native).
   * opts: {label, items: [{id, head: Node, body: Node}], open: [ids], onToggle(openIds, id, how)};
   * returns {node, items (li per id), set(openIds), get() → openIds}. Used by FIG 14 and FIG 18. */
  var discSerial = 0;
  W.disclosures = function (opts) {
    var prefix = "k3-disc-" + (++discSerial) + "-";
    var open = {};
    (opts.open || []).forEach(function (id) { open[id] = true; });
    var list = W.el("ul", { class: "k3-disc", "aria-label": opts.label });
    var parts = {}, buttons = [];
    opts.items.forEach(function (it) {
      var panel = W.el("div", { class: "k3-disc-body", id: prefix + it.id }, it.body);
      var btn = W.el("button", { type: "button", class: "k3-disc-btn", "aria-controls": panel.id, "data-id": it.id,
        on: { click: function () { toggle(it.id, "click"); } } }, it.head);
      buttons.push(btn);
      parts[it.id] = { li: list.appendChild(W.el("li", { class: "k3-disc-item", "data-id": it.id }, btn, panel)), btn: btn, panel: panel };
    });
    function ids() { return opts.items.map(function (it) { return it.id; }).filter(function (id) { return open[id]; }); }
    function paint() {  // writes only the items that changed: an input re-styles one item, not the list
      opts.items.forEach(function (it) {
        var p = parts[it.id], on = !!open[it.id];
        W.attr(p.btn, "aria-expanded", on ? "true" : "false");
        if (p.panel.hidden === on) p.panel.hidden = !on;
        p.li.classList.toggle("is-open", on);
      });
    }
    function toggle(id, how) {
      open[id] = !open[id];
      paint();
      if (opts.onToggle) opts.onToggle(ids(), id, how);
    }
    list.addEventListener("keydown", function (e) {
      var i = buttons.indexOf(document.activeElement), n = buttons.length, next = null;
      if (i < 0) return;  // keys inside an open panel (links) keep their usual meaning
      if (e.key === "ArrowDown" || e.key === "ArrowRight") next = Math.min(n - 1, i + 1);
      else if (e.key === "ArrowUp" || e.key === "ArrowLeft") next = Math.max(0, i - 1);
      else if (e.key === "Home") next = 0;
      else if (e.key === "End") next = n - 1;
      if (next === null) return;
      e.preventDefault();
      buttons[next].focus();
    });
    paint();
    return {
      node: list, items: parts, get: ids,
      set: function (list2) { open = {}; (list2 || []).forEach(function (id) { open[id] = true; }); paint(); },
    };
  };
})();
