/* FIG 18 · Verdicts: before/after cards (data from the spec), each answering the same four
 * questions, expanding in place, with chips linking to their sections. "Read one question"
 * lines the same answer up under every card, so a column can be read down the list. */
K3.register("fig-18-verdicts", function (mount, data, ctx) {
  "use strict";
  var W = window.K3W, el = W.el;
  var vs = data.verdicts, N = vs.length, Q = data.questions;
  var byId = {}, qLabel = {};
  vs.forEach(function (v, i) { byId[v.id] = i; });
  Q.forEach(function (q) { qLabel[q.key] = q.label; });

  var st = ctx.state.get();
  var only = st.q in qLabel ? st.q : "all";

  /* open=- means "none open"; no key means the default (the first verdict open) */
  function openFrom(s) {
    if (s.open === undefined) return [vs[0].id];
    return String(s.open).split(",").filter(function (id) { return id in byId; });
  }
  function sectionTitle(id) {
    var h = document.querySelector("#" + CSS.escape(id) + " h2");
    return h ? h.textContent.trim() : id;
  }
  function answerNode(v, a) {
    return el("div", { class: "f18-answer f18-q-" + a.key, "data-q": a.key },
      el("dt", { text: qLabel[a.key] }), W.html(el("dd"), a.answer_html));
  }
  function elMany(tag, attrs, kids) { var n = el(tag, attrs); kids.forEach(function (k) { n.appendChild(k); }); return n; }

  var disc = W.disclosures({
    label: "Verdicts, before and after",
    open: openFrom(st),
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
          elMany("dl", { class: "f18-grid" }, v.answers.map(function (a) { return answerNode(v, a); })),
          k3Line(v),
          chipsFor(v)),
      };
    }),
    onToggle: function (ids, id, how) {
      var i = byId[id], open = ids.indexOf(id) >= 0;
      paint();
      ctx.narrate("Verdict " + (i + 1) + " of " + N + ", " + vs[i].before + " to " + vs[i].after +
        (open ? ", expanded: " + Q.length + " answers, " + vs[i].links.length + " section link" +
          (vs[i].links.length > 1 ? "s" : "") + "." : ", collapsed.") + " " + ids.length + " of " + N + " open.");
      save(how === "click" || how === "key");
    },
  });
  function k3Line(v) {  /* where Kimi K3 keeps the "after" side of this verdict */
    var p = W.html(el("p", { class: "f18-k3" }), v.k3_html);
    p.insertBefore(el("span", { class: "f18-k3-label", text: "In Kimi K3" }), p.firstChild);
    return p;
  }
  function chipsFor(v) {
    var p = el("p", { class: "f18-links" }, el("span", { class: "f18-links-label", text: "Sections" }));
    v.links.forEach(function (l) {
      var wrap = W.html(el("span", { class: "f18-chip" }), l.link_html), a = wrap.querySelector("a");
      if (a) a.textContent = "§" + sectionTitle(l.section);
      p.appendChild(wrap);
    });
    return p;
  }
  /* one answer shown under every collapsed card while a single question is chosen */
  var peeks = vs.map(function (v) {
    var peek = el("dl", { class: "f18-peek" });
    v.answers.forEach(function (a) { peek.appendChild(answerNode(v, a)); });
    disc.items[v.id].li.appendChild(peek);
    return peek;
  });

  var show = W.choice({
    label: "Answers to show",
    options: [{ value: "all", text: "All four" }].concat(Q.map(function (q) { return { value: q.key, text: q.label }; })),
    value: only,
    onChange: function (v, how) { setOnly(v, how); },
  });
  var allBtn = el("button", { type: "button", class: "k3-btn", on: { click: function () {
    var open = disc.get().length === N ? [] : vs.map(function (v) { return v.id; });
    disc.set(open);
    paint();
    ctx.narrate(open.length ? "All " + N + " verdicts expanded." : "All verdicts collapsed.");
    save(true);
  } } });

  mount.appendChild(el("div", { class: "f18" },
    el("div", { class: "f18-controls" }, el("span", { class: "k3-label", text: "Show" }), show.node, allBtn),
    disc.node));

  function paint() {
    var open = disc.get();
    mount.firstChild.setAttribute("data-only", only);
    vs.forEach(function (v, i) {
      peeks[i].hidden = only === "all" || open.indexOf(v.id) >= 0;
      [].forEach.call(peeks[i].children, function (d) { d.hidden = d.getAttribute("data-q") !== only; });
    });
    allBtn.textContent = open.length === N ? "Collapse all" : "Expand all";
  }
  function setOnly(v, how) {
    only = v in qLabel ? v : "all";
    show.set(only);
    paint();
    if (how === "restore") return;
    ctx.narrate(only === "all" ? "Every card shows all " + Q.length + " answers when expanded."
      : "Showing \u201c" + qLabel[only] + "\u201d for all " + N + " verdicts.");
    save(how === "click" || how === "key");
  }
  function save(push) {
    var open = disc.get();
    var isDefault = open.length === 1 && open[0] === vs[0].id;
    ctx.state.set({ open: isDefault ? null : (open.length ? open.join(",") : "-"), q: only === "all" ? null : only }, { push: push });
  }

  paint();
  return {
    restore: function (s) {
      disc.set(openFrom(s));
      setOnly(s.q in qLabel ? s.q : "all", "restore");
    },
  };
});
