/* K3W widgets: numbers and labels as the page shows them (tests parse them back). */
(function () {
  "use strict";
  var W = window.K3W;
  /* Fixed-precision numbers with a real minus sign; tests parse them back. */
  W.fmt = function (x, digits) {
    if (x === null || x === undefined) return "—";
    var d = digits === undefined ? 3 : digits;
    var s = Math.abs(x) < 0.5 * Math.pow(10, -d) ? (0).toFixed(d) : x.toFixed(d);
    return s.charAt(0) === "-" ? "\u2212" + s.slice(1) : s;
  };
  /* Small differences in scientific notation (the exact value is in the data): 1.8e−15, or with
   * opts.power "1.8 × 10⁻¹⁵" where a reader, not a test, is the audience; opts.digits (default 1). */
  W.sci = function (x, opts) {
    var o = opts || {};
    if (x === 0) return "0";
    var p = x.toExponential(o.digits === undefined ? 1 : o.digits).replace("-", "\u2212").split("e");
    return o.power ? p[0] + " × 10" + W.sup(p[1].replace("+", "")) : p[0] + "e" + p[1];
  };
  /* Superscript digits and minus sign: "10" + sup("−15") → 10⁻¹⁵. */
  W.sup = function (s) {
    return String(s).replace(/[\u2212\-\d]/g, function (c) { return "⁻⁻⁰¹²³⁴⁵⁶⁷⁸⁹"["\u2212-0123456789".indexOf(c)]; });
  };
  /* Integers with thousands separators; large values keep every digit. One formatter for the page:
   * toLocaleString builds a new one on every call (~0.1 ms, and figures format dozens per input). */
  var INT = new Intl.NumberFormat("en-US");
  W.int = function (x) { return INT.format(Math.round(x)); };
  /* 1.23e9 → "1.23 G" style with the exact value left to a title attribute by callers. */
  W.si = function (x, unit) {
    var units = ["", "K", "M", "G", "T", "P", "E"];
    var i = 0, v = x;
    while (Math.abs(v) >= 1000 && i < units.length - 1) { v /= 1000; i++; }
    return (i ? v.toPrecision(3) : String(Math.round(v))) + (unit || i ? " " + units[i] + (unit || "") : "");
  };

  /* Subscript digits, for labels like "S₁₂"; axis labels "k₁ … k₄" for matrices indexed by channel. */
  var SUB = "₀₁₂₃₄₅₆₇₈₉";
  W.sub = function (n) { return String(n).replace(/\d/g, function (c) { return SUB[+c]; }); };
  W.axis = function (prefix, n) {
    var out = [];
    for (var i = 1; i <= n; i++) out.push(prefix + W.sub(i));
    return out;
  };

  /* [f(0), …, f(n − 1)] (f defaults to the index): row and column labels, placeholder rows. */
  W.range = function (n, f) {
    var a = [];
    for (var i = 0; i < n; i++) a.push(f ? f(i) : i);
    return a;
  };
})();
