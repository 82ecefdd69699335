/* K3W widgets: a Play/Pause button that walks a figure's step state on a timer.
 * It plugs into the figure lifecycle: hand pause/resume to the view so it stops while the figure
 * is off-screen and carries on when it returns; it goes slower under reduced motion (the figure
 * then draws each step without transitions).
 * A toggle: aria-pressed says whether it plays, and its name, "Play or pause <what>", holds the word
 * it shows in either state (WCAG 2.5.3, label in name: a voice user can say what they see).
 * opts: {ctx, what (e.g. "the decode steps"), at() → current step, last (final step), go(step)
 * (sets the state, how "play")}
 * → {node, pause, resume, stop} */
(function () {
  "use strict";
  var W = window.K3W;
  W.player = function (opts) {
    var timer = null, suspended = false;
    var node = W.el("button", { type: "button", class: "k3-btn k3-play", "aria-pressed": "false",
      "aria-label": "Play or pause " + opts.what, on: { click: function () { if (timer) stop(); else start(true); } } });
    function show(glyph, word) {  // the glyph is decoration: the word is what the name must hold
      node.textContent = "";
      node.append(W.el("span", { "aria-hidden": "true", text: glyph }), " " + word);
    }
    show("▶", "Play");
    function tick() {
      if (opts.at() >= opts.last) stop();
      else opts.go(opts.at() + 1);
    }
    function start(fresh) {
      if (fresh && opts.at() >= opts.last) opts.go(0);
      suspended = false;
      timer = setInterval(tick, window.K3.reducedMotion() ? 1800 : 1100);
      node.setAttribute("aria-pressed", "true");
      show("❚❚", "Pause");
    }
    function stop() {
      if (timer) clearInterval(timer);
      timer = null;
      suspended = false;
      node.setAttribute("aria-pressed", "false");
      show("▶", "Play");
      opts.ctx.end();  // the run is one history entry
    }
    return {
      node: node, stop: stop,
      pause: function () { if (timer) { clearInterval(timer); timer = null; suspended = true; } },
      resume: function () { if (suspended) start(false); },
    };
  };
})();
