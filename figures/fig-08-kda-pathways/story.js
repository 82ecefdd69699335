/* K3W widgets: FIG 08's pathways in words: the story line under the diagram (what the current step
 * lights) and what the live region says when a step or the set of shown pathways changes. Every
 * step's words are also laid out, hidden, in the same grid cell, so the line is as tall as its
 * longest step at any width and stepping never moves what lies below. It lives here, not in the
 * figure file, only to keep each file small; nothing else uses it.
 *
 * K3W.f08Story(diagram) → {node, show(step), describeStep(step), describePaths(prevOff, nextOff)};
 * diagram: the builder's {pathways: [{id, label, story}], nodes, edges} (each node and edge names
 * its pathway in .path); step 0 is all pathways; *Off: the ids of the hidden pathways.
 */
(function () {
  "use strict";
  var W = window.K3W, el = W.el;
  W.f08Story = function (D) {
    var P = D.pathways, ids = P.map(function (p) { return p.id; });
    function nodesOf(id) { return D.nodes.filter(function (n) { return n.path === id; }); }
    function countOf(id) {
      return nodesOf(id).length + " nodes and " + D.edges.filter(function (e) { return e.path === id; }).length + " edges";
    }
    function label(id) { return P[ids.indexOf(id)].label; }
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
        text.textContent = "Step through them one at a time with ▶ or Play; each lights its boxes and the wires drawn in its colour.";
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
    function describeStep(step) {
      if (!step) return "All pathways shown together.";
      var p = P[step - 1];
      return "Pathway " + step + " of " + P.length + ", " + p.label + ": " + countOf(p.id) + ". " + p.story;
    }
    function describePaths(prev, next) {
      function off(list, id) { return list.indexOf(id) >= 0; }
      var changed = ids.filter(function (id) { return off(prev, id) !== off(next, id); });
      var on = ids.filter(function (id) { return !off(next, id); });
      if (changed.length === 1) return label(changed[0]) + (off(next, changed[0]) ? " hidden" : " shown") + ": " + countOf(changed[0]) + ".";
      if (on.length === 1) return "Only " + label(on[0]) + ": " + countOf(on[0]) + ".";
      return next.length ? null : "Showing every pathway.";
    }
    return { node: card, show: function (step) { fill(head, text, step); }, describeStep: describeStep, describePaths: describePaths };
  };
})();
