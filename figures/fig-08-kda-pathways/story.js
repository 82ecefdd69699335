/* K3W widgets: FIG 08's pathways in words: the story line under the diagram (what the current step
 * lights) and what the live region says when a step or the set of shown pathways changes. Every
 * step's words are also laid out, hidden, in the same grid cell, so the line is as tall as its
 * longest step at any width and stepping never moves what lies below. It lives here, not in the
 * figure file, only to keep each file small; nothing else uses it. The words are the builder's
 * (each pathway's under diagram.pathways, the whole diagram's under text); this only places them.
 *
 * K3W.f08Story(diagram, ctx) → {node, show(step), describeStep(step), describePaths(prevOff, nextOff)};
 * diagram: the builder's {pathways: [{id, head, nodes, story, describe, hidden, shown, only}]};
 * step 0 is all pathways; *Off: the ids of the hidden pathways; the describe* return what the
 * live region says ({path} of a shipped text, or null: nothing to say).
 */
(function () {
  "use strict";
  var W = window.K3W, el = W.el;
  W.f08Story = function (D, ctx) {
    var ids = D.pathways.map(function (p) { return p.id; });
    function pathway(id) { return ["diagram", "pathways", ids.indexOf(id)]; }
    /* the step's words into head and text, each in a span of its own (the line is refilled, never
     * retagged); `live` marks the shown line (the sizers' copies lack its class) */
    function fill(head, text, step, live) {
      head.textContent = "";
      text.textContent = "";
      if (!step) {
        head.append(ctx.show(el("span"), ["text", "all_pathways", "head"]));
        text.append(ctx.show(el("span"), ["text", "all_pathways", "text"]));
        return;
      }
      var at = ["diagram", "pathways", step - 1];
      head.append(el("span", { class: "f08-swatch", "data-path": ids[step - 1], "aria-hidden": "true" }),
        ctx.show(el("span"), at.concat("head")));
      text.append(ctx.show(el("span", { class: live ? "f08-story-nodes" : null }), at.concat("nodes")),
        ctx.show(el("span"), at.concat("story")));
    }
    var head = el("p", { class: "f08-story-head" }), text = el("p", { class: "f08-story-text" });
    var card = el("div", { class: "f08-story-card" });
    W.range(ids.length + 1, function (step) {
      var h = el("p", { class: "f08-story-head" }), t = el("p", { class: "f08-story-text" });
      fill(h, t, step, false);
      card.appendChild(el("div", { class: "f08-story-sizer", "aria-hidden": "true" }, h, t));
    });
    card.appendChild(el("div", {}, head, text));
    function describeStep(step) {
      return { path: step ? ["diagram", "pathways", step - 1, "describe"] : ["text", "all_pathways", "describe"] };
    }
    function describePaths(prev, next) {
      function off(list, id) { return list.indexOf(id) >= 0; }
      var changed = ids.filter(function (id) { return off(prev, id) !== off(next, id); });
      var on = ids.filter(function (id) { return !off(next, id); });
      if (changed.length === 1) return { path: pathway(changed[0]).concat(off(next, changed[0]) ? "hidden" : "shown") };
      if (on.length === 1) return { path: pathway(on[0]).concat("only") };
      return next.length ? null : { path: ["text", "every_shown"] };
    }
    return { node: card, show: function (step) { fill(head, text, step, true); }, describeStep: describeStep, describePaths: describePaths };
  };
})();
