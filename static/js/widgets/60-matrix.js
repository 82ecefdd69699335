/* K3W widgets: numeric tables and the key-major state grid. */
(function () {
  "use strict";
  var W = window.K3W;
  /* A numeric matrix (or vector, as one row) as a table; string entries are shown as they are.
   * opts: {caption, rows: [labels] (omit for a vector), cols: [labels], corner, digits, sym};
   * update(values, {masked, changed, style}) */
  W.matrix = function (opts) {
    var table = W.el("table", { class: "k3-matrix", "data-sym": opts.sym });
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
    function update(values, marks) {
      var m = marks || {};
      cells.forEach(function (row, i) {
        row.forEach(function (td, j) {
          var v = Array.isArray(values[0]) ? values[i][j] : values[j];
          td.textContent = typeof v === "string" ? v : W.fmt(v, opts.digits);
          td.className = (m.masked && m.masked(i, j) ? "is-masked " : "") + (m.changed && m.changed(i, j) ? "is-changed" : "");
          if (m.style) m.style(td, v, i, j);
        });
      });
    }
    return { node: table, cells: cells, update: update };
  };

  /* A key-major state matrix S [d_k × d_v] (rows: key channels, columns: value channels), used by the
   * delta-rule figures (FIG 06, 07, 17). update(values, {changed: bool[][] from the data, tone}) marks
   * the cells that changed (is-changed) and can tint the whole grid ("decayed", "faded").
   * opts: {caption, d_k, d_v, digits, sym} */
  W.stateMatrix = function (opts) {
    var m = W.matrix({ caption: opts.caption, rows: W.axis("k", opts.d_k), cols: W.axis("v", opts.d_v),
      corner: "k╲v", digits: opts.digits, sym: opts.sym });
    m.node.classList.add("k3-state");
    var cap = m.node.caption;
    return {
      node: m.node, cells: m.cells,
      caption: function (text) { if (cap) cap.textContent = text; },
      update: function (values, marks) {
        var mk = marks || {};
        m.update(values, { changed: mk.changed ? function (i, j) { return !!mk.changed[i][j]; } : null });
        m.node.setAttribute("data-tone", mk.tone || "");
      },
    };
  };
})();
