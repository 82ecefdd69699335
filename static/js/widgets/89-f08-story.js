/* K3W widgets: FIG 08's story line under the diagram: what the current step lights, in words.
 * Every step's words are also laid out, hidden, in the same grid cell, so the line is as tall as
 * its longest step at any width and stepping never moves what lies below. It lives here, not in
 * the figure file, only to keep each file small; nothing else uses it.
 *
 * K3W.f08Story(P, nodesOf) → {node, show(step)}; P: the pathways ({id, label, story}), step 0: all
 * of them; nodesOf(id): the diagram nodes of pathway id.
 */
(function () {
  "use strict";
  var W = window.K3W, el = W.el;
  W.f08Story = function (P, nodesOf) {
    function fill(head, text, step) {
      var p = step ? P[step - 1] : null;
      head.textContent = "";
      text.textContent = "";
      if (p) {
        head.append(el("span", { class: "f08-swatch", "data-path": p.id, "aria-hidden": "true" }),
          "Pathway " + step + " of " + P.length + ": " + p.label);
        text.append(el("span", { class: "f08-story-nodes", text: nodesOf(p.id).map(function (n) { return n.label; }).join(" · ") + ". " }),
          p.story);
      } else {
        head.textContent = "All " + P.length + " pathways";
        text.textContent = "Step through them one at a time with ▶ or Play; each lights its boxes and the wires it sends and receives.";
      }
    }
    var head = el("p", { class: "f08-story-head" }), text = el("p", { class: "f08-story-text" });
    var card = el("div", { class: "f08-story-card" });
    W.range(P.length + 1, function (step) {
      var h = el("p", { class: "f08-story-head" }), t = el("p", { class: "f08-story-text" });
      fill(h, t, step);
      card.appendChild(el("div", { class: "f08-story-sizer", "aria-hidden": "true" }, h, el("p", { class: "f08-story-text", text: t.textContent })));
    });
    card.appendChild(el("div", {}, head, text));
    return { node: card, show: function (step) { fill(head, text, step); } };
  };
})();
