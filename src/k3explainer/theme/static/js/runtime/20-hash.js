/* k3explainer runtime, part 2 of 7: the URL hash.
 *
 * "#deltanet&fig-02.row=3&fig-06.step=2": an anchor plus per-figure keys. One history rule for
 * every figure: a discrete action (a click, a key) adds a history entry; a continuous one (a drag,
 * a slider being moved, a stepper playing, a wheel, a pointer sweeping over items) adds one entry
 * when it begins and then keeps replacing it, until the gesture ends or a discrete action or a
 * restore comes in between. */
(function () {
  "use strict";
  var K3 = window.K3, internal = K3._;
  var CONTINUOUS = { input: true, drag: true, play: true, wheel: true, hover: true };
  var running = null;  // the figure whose continuous gesture owns the current history entry

  function read() { return parse(location.hash); }
  /* "#anchor&fig.key=value…" (the page's hash, or an in-page link's href) → {anchor, state} */
  function parse(hashText) {
    var params = new URLSearchParams(hashText.replace(/^#/, ""));
    var anchor = null, state = {};
    params.forEach(function (value, key) {
      var dot = key.indexOf(".");
      if (dot < 0) { if (value === "") anchor = key; return; }
      var fig = key.slice(0, dot);
      (state[fig] = state[fig] || {})[key.slice(dot + 1)] = value;
    });
    return { anchor: anchor, state: state };
  }
  function write(anchor, state, push) {
    var parts = anchor ? [encodeURIComponent(anchor)] : [];
    Object.keys(state).sort().forEach(function (fig) {
      Object.keys(state[fig]).sort().forEach(function (k) {
        parts.push(encodeURIComponent(fig + "." + k) + "=" + encodeURIComponent(state[fig][k]));
      });
    });
    var url = location.pathname + location.search + (parts.length ? "#" + parts.join("&") : "");
    if (url === location.pathname + location.search + location.hash) return;
    try {
      history[push ? "pushState" : "replaceState"](null, "", url);
    } catch { /* file:// in some browsers forbids history writes; state still works in-page */ }
  }
  /* A figure's keys (strings) into the hash, following the history rule for `how`. */
  function save(id, values, how) {
    var h = read();
    if (Object.keys(values).length) h.state[id] = values; else delete h.state[id];
    var push = !(CONTINUOUS[how] && running === id);
    running = CONTINUOUS[how] ? id : null;
    write(h.anchor, h.state, push);
  }
  internal.hash = { read: read, parse: parse, write: write, save: save, endGesture: function () { running = null; } };
})();
