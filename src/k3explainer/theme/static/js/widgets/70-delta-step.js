/* K3W widgets: one delta-rule step. */
(function () {
  "use strict";
  var W = window.K3W;
  /* One delta-rule step, S_t = S_{t−1} + β k (v − S_{t−1}ᵀk)ᵀ, laid out as the equation reads:
   * a table of the vectors (k, v, read, error; optionally q and the output) above three state grids
   * S_{t−1} + write = S_t. Shared by FIG 06 (stage by stage) and FIG 17 (a whole token per step).
   * Every part carries the data-sym of its symbol in the §06 equation (dr-k, dr-read, …).
   * opts: {d (= d_k = d_v), digits, query: bool, heat: {scale} (opt-in heatmaps; the write then shows
   * k as a column of colour chips beside its rows and the error as a row above its columns)}
   * update(step, upto): step = one token of the kernel trace {state_prev, k, v, read, error, write,
   * state, changed[, q, output]}; upto = last stage shown (0 read, 1 error, 2 write, 3 new state;
   * later stages show "·"); the stage `upto` is outlined as current unless opts.current === false. */
  W.deltaStep = function (opts) {
    var d = opts.d, dig = opts.digits;
    var rows = [["k", "dr-k", "key k"], ["v", "dr-v", "value v"], ["read", "dr-read", "read Sᵀk"],
      ["error", "dr-error", "error v − Sᵀk"]];
    if (opts.query) rows.push(["q", "dr-q", "query q"], ["output", "dr-out", "output Sᵀq"]);
    var vec = W.matrix({ caption: opts.vectorsCaption || "vectors", rows: rows.map(function (r) { return r[2]; }),
      cols: W.range(d, function (i) { return String(i + 1); }), corner: "", digits: dig, heat: opts.heat });
    rows.forEach(function (r, i) { vec.node.tBodies[0].rows[i].setAttribute("data-sym", r[1]); });
    var before = W.stateMatrix({ caption: "S before", d_k: d, d_v: d, digits: dig, sym: "dr-state", heat: opts.heat });
    var write = W.stateMatrix({ caption: "write β k (v − Sᵀk)ᵀ", d_k: d, d_v: d, digits: dig, sym: "dr-write", heat: opts.heat });
    var after = W.stateMatrix({ caption: "S after", d_k: d, d_v: d, digits: dig, sym: "dr-state", heat: opts.heat });
    var op = function (t) { return W.el("span", { class: "k3-op", "aria-hidden": "true", text: t }); };
    var node = W.el("div", { class: "k3-delta" },
      W.el("div", { class: "k3-scroll k3-delta-vec" }, vec.node),
      W.el("div", { class: "k3-delta-eq" }, before.node, op("+"), write.node, op("="), after.node));
    var dots = function () { return W.range(d, function () { return "·"; }); };
    var grid = function () { return W.range(d, dots); };
    function update(step, upto, labels) {
      var lab = labels || {};
      var stageOf = { read: 0, error: 1 };
      vec.update(rows.map(function (r) {
        if (r[0] in stageOf && stageOf[r[0]] > upto) return dots();
        if (r[0] === "output" && upto < 3) return dots();
        return step[r[0]];
      }));
      before.caption(lab.before || "S before");
      after.caption(lab.after || "S after");
      before.update(step.state_prev);
      write.update(upto >= 2 ? step.write : grid(), { changed: upto >= 2 ? step.changed : null });
      if (opts.heat) write.outer(upto >= 1 ? step.k : null, upto >= 1 ? step.error : null, opts.heat.scale);
      after.update(upto >= 3 ? step.state : grid(), { changed: upto >= 3 ? step.changed : null });
      var current = opts.current === false ? null : upto;
      [].forEach.call(vec.node.tBodies[0].rows, function (tr, i) {
        tr.classList.toggle("is-current", current !== null && stageOf[rows[i][0]] === current);
      });
      write.node.classList.toggle("is-current", current === 2);
      after.node.classList.toggle("is-current", current === 3);
    }
    return { node: node, update: update, vectors: vec, before: before, write: write, after: after };
  };
})();
