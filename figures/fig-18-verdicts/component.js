/* FIG 18 · Verdicts: before/after cards (data from the spec), each answering the same four
 * questions, expanding in place, with chips linking to their sections. "Read one question"
 * lines the same answer up under every card, so a column can be read down the list. */
(function () {
  "use strict";
  var SLOTS = ["first", "second", "third"];  // the narration's parts, in the order said.joined takes them
  K3.register("fig-18-verdicts", {
    state: function (data) {
      var ids = data.verdicts.map(function (v) { return v.id; });
      return {
        open: K3.state.subset(ids, [ids[0]]),  // the first verdict starts open; "-" = none open
        q: K3.state.oneOf(["all"].concat(data.questions.map(function (q) { return q.key; })), "all"),
      };
    },
    setup: function (mount, data, ctx) {
      var W = window.K3W, el = W.el;
      var vs = data.verdicts, N = vs.length, Q = data.questions;
      var allIds = vs.map(function (v) { return v.id; });
      var qLabel = {};
      Q.forEach(function (q) { qLabel[q.key] = q.label; });
      function said(key, index) { return ["said", key, index]; }
      var bulk = false;  // the action under way is "Expand all" / "Collapse all"

      function answerNode(a) {
        return el("div", { class: "f18-answer f18-q-" + a.key, "data-q": a.key },
          el("dt", { text: qLabel[a.key] }), W.html(el("dd"), a.answer_html));
      }
      function elMany(tag, attrs, kids) { var n = el(tag, attrs); kids.forEach(function (k) { n.appendChild(k); }); return n; }
      function k3Line(v) {  /* where Kimi K3 keeps the "after" side of this verdict */
        var p = W.html(el("p", { class: "f18-k3" }), v.k3_html);
        p.insertBefore(el("span", { class: "f18-k3-label", text: "In Kimi K3" }), p.firstChild);
        return p;
      }
      function chipsFor(v) {
        var p = el("p", { class: "f18-links" }, el("span", { class: "f18-links-label", text: "Sections" }));
        v.links.forEach(function (l) { p.appendChild(W.sectionLink(el("span", { class: "f18-chip" }), l.link_html, l.section, "§")); });
        return p;
      }

      var disc = W.disclosures({
        label: ctx.text(["text", "list_label"]),
        items: vs.map(function (v, i) {
          return {
            id: v.id,
            head: el("span", { class: "f18-head" },
              el("span", { class: "f18-num", "aria-hidden": "true", text: String(i + 1) }),
              el("span", { class: "f18-before", text: v.before }),
              el("span", { class: "f18-arrow", "aria-hidden": "true", text: "→" }),
              el("span", { class: "visually-hidden", text: " to " }),
              el("span", { class: "f18-after", text: v.after })),
            body: el("div", { class: "f18-body" },
              elMany("dl", { class: "f18-grid" }, v.answers.map(answerNode)),
              k3Line(v),
              chipsFor(v)),
          };
        }),
        onToggle: function (ids, id, how) { ctx.set({ open: ids }, how); },
      });
      /* one answer shown under every collapsed card while a single question is chosen */
      var peeks = vs.map(function (v) {
        return disc.items[v.id].li.appendChild(elMany("dl", { class: "f18-peek" }, v.answers.map(answerNode)));
      });

      var show = W.choice({
        label: "Answers to show",
        options: [{ value: "all", text: "All four" }].concat(Q.map(function (q) { return { value: q.key, text: q.label }; })),
        value: ctx.get().q,
        onChange: function (v, how) { ctx.set({ q: v }, how); },
      });
      var allBtn = el("button", { type: "button", class: "k3-btn", on: { click: function () {
        bulk = true;
        try { ctx.set({ open: ctx.get().open.length === N ? [] : allIds }, "click"); } finally { bulk = false; }
      } } });

      var root = mount.appendChild(el("div", { class: "f18" },
        el("div", { class: "f18-controls" }, el("span", { class: "k3-label", text: "Show" }), show.node, allBtn),
        disc.node));

      /* what opening or closing said: one verdict by name and how many are open now, or (Expand
       * all, Collapse all, several at once) only how many are open */
      function describeOpen(prev, next) {
        var changed = allIds.filter(function (id) { return (prev.indexOf(id) >= 0) !== (next.indexOf(id) >= 0); });
        if (!bulk && changed.length === 1) {
          var i = allIds.indexOf(changed[0]);
          return [said(next.indexOf(changed[0]) >= 0 ? "expanded" : "collapsed", i), said("open_count", next.length)];
        }
        return [said("open", next.length)];
      }

      return {
        render: function (s, prev) {  // writes only what changed, so an input re-lays out only that
          disc.set(s.open);
          if (!prev || prev.q !== s.q) {
            show.set(s.q);
            root.setAttribute("data-only", s.q);
          }
          vs.forEach(function (v, i) {
            var hide = s.q === "all" || s.open.indexOf(v.id) >= 0;
            if (peeks[i].hidden !== hide) peeks[i].hidden = hide;
            [].forEach.call(peeks[i].children, function (d) {
              var off = d.getAttribute("data-q") !== s.q;
              if (d.hidden !== off) d.hidden = off;
            });
          });
          W.text(allBtn, s.open.length === N ? "Collapse all" : "Expand all");
        },
        describe: function (prev, next) {
          var parts = [], slots = {};
          if (prev.q !== next.q) parts.push(said("show", next.q));
          if (prev.open.join() !== next.open.join()) parts = parts.concat(describeOpen(prev.open, next.open));
          if (!parts.length) return null;
          parts.forEach(function (path, k) { slots[SLOTS[k]] = path; });
          return { path: said("joined", parts.length - 1), slots: slots };
        },
      };
    },
  });
})();
