/* K3W widgets: numeric tables and the key-major state grid. */
(function () {
  "use strict";
  var W = window.K3W;
  /* A numeric matrix (or vector, as one row) as a table; string entries are shown as they are.
   * opts: {caption, rows: [labels] (omit for a vector), cols: [labels], corner, digits, sym,
   * heat: {scale} (opt-in: cells coloured by value, numbers on hover/focus; see 62-heatmap)};
   * update(values, {masked, changed, style}); style(td, value, i, j) sets its own classes with
   * classList.toggle: they are kept from one update to the next, as every write is compared first */
  W.matrix = function (opts) {
    var heat = opts.heat || null;
    var table = W.el("table", { class: "k3-matrix" + (heat ? " k3-heat" : ""), "data-sym": opts.sym });
    if (opts.caption) table.appendChild(W.el("caption", { text: opts.caption }));
    var labelled = !!opts.rows;  // without row labels the table is a single vector
    var head = W.el("tr", {}, !labelled ? null : opts.corner ? W.el("th", { scope: "col", text: opts.corner }) : W.el("td"));
    (opts.cols || []).forEach(function (c) { head.appendChild(W.el("th", { scope: "col", text: c })); });
    table.appendChild(W.el("thead", {}, head));
    var body = table.appendChild(W.el("tbody"));
    var cells = (opts.rows || [null]).map(function (r) {
      var tr = body.appendChild(W.el("tr", {}, labelled ? W.el("th", { scope: "row", text: r }) : null));
      return (opts.cols || []).map(function () { return tr.appendChild(W.el("td")); });
    });
    if (heat) {
      cells.forEach(function (row, i) {  // the cell's place drives the staggered "landing" transition
        row.forEach(function (td, j) { td.style.setProperty("--i", i); td.style.setProperty("--j", j); });
      });
      W.heat.keys(table, cells);
    }
    function update(values, marks) {
      var m = marks || {};
      cells.forEach(function (row, i) {
        row.forEach(function (td, j) {
          var v = Array.isArray(values[0]) ? values[i][j] : values[j];
          var masked = m.masked && m.masked(i, j), changed = m.changed && m.changed(i, j);
          if (heat) {  // only what differs is written (see W.heat.paint): the class as it will end
            var cls = [masked && "is-masked", changed && "is-changed", typeof v === "string" && "is-text"].filter(Boolean).join(" ");
            if (td.className !== cls) td.className = cls;
            W.heat.paint(td, v, heat.scale, opts.digits);
          } else {  // the marks' classes, then what m.style adds, compared with the cell's before a write
            var plain = [masked && "is-masked", changed && "is-changed"].filter(Boolean);
            var extra = td.className.split(" ").filter(function (c) { return c && c !== "is-masked" && c !== "is-changed"; });
            var want = plain.concat(extra).join(" ");
            if (td.className !== want) td.className = want;
            W.text(td, typeof v === "string" ? v : W.fmt(v, opts.digits));
          }
          if (m.style) m.style(td, v, i, j);
        });
      });
    }
    return { node: table, cells: cells, update: update };
  };

  /* A key-major state matrix S [d_k × d_v] (rows: key channels, columns: value channels), used by the
   * delta-rule figures (FIG 06, 07, 17). update(values, {changed: bool[][] from the data, tone}) marks
   * the cells that changed (is-changed) and can tint the whole grid ("decayed", "faded").
   * opts: {caption, d_k, d_v, digits, sym, heat}
   * outer(col, row, scale) (heat mode): colour chips beside the row labels (col[i]) and above the
   * column labels (row[j]), so a rank-one write reads as the column times the row; null clears. */
  W.stateMatrix = function (opts) {
    var m = W.matrix({ caption: opts.caption, rows: W.axis("k", opts.d_k), cols: W.axis("v", opts.d_v),
      corner: "k╲v", digits: opts.digits, sym: opts.sym, heat: opts.heat });
    m.node.classList.add("k3-state");
    var cap = m.node.caption;
    var chips = null;
    function outer(col, row, scale) {
      if (!chips) {  // decorative: the same numbers are in the vectors table, so hidden from screen readers
        var mk = function (th) { return th.insertBefore(W.el("span", { class: "k3-outer-chip", "aria-hidden": "true" }), th.firstChild); };
        chips = { rows: [].map.call(m.node.tBodies[0].rows, function (tr) { return mk(tr.cells[0]); }),
          cols: [].slice.call(m.node.tHead.rows[0].cells, 1).map(mk) };
      }
      m.node.classList.toggle("has-outer", !!col);
      [[chips.rows, col], [chips.cols, row]].forEach(function (pair) {
        pair[0].forEach(function (chip, i) { W.heat.tint(chip, pair[1] ? pair[1][i] : null, scale); });
      });
    }
    return {
      node: m.node, cells: m.cells, outer: outer,
      caption: function (text) { if (cap) W.text(cap, text); },
      update: function (values, marks) {
        var mk = marks || {};
        m.update(values, { changed: mk.changed ? function (i, j) { return !!mk.changed[i][j]; } : null });
        if (m.node.getAttribute("data-tone") !== (mk.tone || "")) m.node.setAttribute("data-tone", mk.tone || "");
      },
    };
  };
})();
