/* k3explainer runtime, part 3 of 7: the state types a figure declares.
 *
 * A component's `state(data)` returns {key: type}. Each type turns the URL's text into a valid
 * value (clamped, or the default when it cannot be read), back into text, and compares values;
 * a key at its default is left out of the URL. One parser for every figure, so a hand-edited or
 * stale link always opens a valid view. Each type also says what it is (kind, min/max, options,
 * pattern), which K3.figure(id).schema shows to tests and authors.
 *   K3.state.int(min, max, def)       whole numbers, clamped
 *   K3.state.num(min, max, def)       real numbers, clamped (zoom, pan)
 *   K3.state.bool(def)                "1" / "0"
 *   K3.state.oneOf(values, def)       one of a list (strings or numbers, e.g. a slider's N values)
 *   K3.state.subset(values, def)      several of a list, in the list's order ("kda,mla"; "-" = none)
 *   K3.state.pattern(regexp, def)     text that matches
 */
(function () {
  "use strict";
  var K3 = window.K3;

  function type(kind, def, parse, format, clamp, equal) {
    return {
      kind: kind,
      def: def,
      parse: function (text) { var v = text === undefined ? undefined : parse(String(text)); return v === undefined ? def : clamp(v); },
      format: format,
      clamp: clamp,
      equal: equal || function (a, b) { return a === b; },
    };
  }
  function between(lo, hi) { return function (v) { return Math.max(lo, Math.min(hi, v)); }; }
  function same(v) { return v; }

  K3.state = {
    int: function (lo, hi, def) {
      return Object.assign(type("int", def, function (s) { var v = Math.round(+s); return s.trim() !== "" && isFinite(v) ? v : undefined; },
        String, function (v) { return between(lo, hi)(Math.round(v)); }), { min: lo, max: hi });
    },
    num: function (lo, hi, def) {
      return Object.assign(type("num", def, function (s) { var v = +s; return s.trim() !== "" && isFinite(v) ? v : undefined; },
        function (v) { return String(+v.toFixed(4)); }, between(lo, hi)), { min: lo, max: hi });
    },
    bool: function (def) {
      return type("bool", !!def, function (s) { return s === "1" ? true : s === "0" ? false : undefined; },
        function (v) { return v ? "1" : "0"; }, function (v) { return !!v; });
    },
    oneOf: function (values, def) {
      function find(v) { return values.find(function (x) { return String(x) === String(v); }); }
      return Object.assign(type("oneOf", def, find, String, function (v) { var x = find(v); return x === undefined ? def : x; }),
        { options: values });
    },
    subset: function (values, def) {
      function pick(list) { return values.filter(function (v) { return list.some(function (x) { return String(x) === String(v); }); }); }
      return Object.assign(type("subset", def.slice(), function (s) { return s === "-" ? [] : pick(s.split(",")); },
        function (v) { return v.length ? v.join(",") : "-"; }, pick,
        function (a, b) { return a.length === b.length && a.every(function (x, i) { return x === b[i]; }); }), { options: values });
    },
    pattern: function (re, def) {
      return Object.assign(type("pattern", def, function (s) { return re.test(s) ? s : undefined; }, same,
        function (v) { return re.test(v) ? v : def; }), { pattern: re.source });
    },
  };
})();
