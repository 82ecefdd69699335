/* K3W widgets: the controls every figure shares, with keyboard behaviour built in. A figure sets
 * its controls from its state on every render, so each writes only what differs (K3W.text,
 * K3W.attr): an unchanged attribute or text rewritten still restyles or re-lays out its element. */
(function () {
  "use strict";
  var W = window.K3W;
  /* A single-choice group (radio semantics, roving tabindex, arrow keys, Home/End).
   * opts: {label, options: [{value, text, sym?}], value, onChange(value, how)} */
  W.choice = function (opts) {
    var group = W.el("div", { class: "k3-choice", role: "radiogroup", "aria-label": opts.label });
    var buttons = opts.options.map(function (o, i) {
      return group.appendChild(W.el("button", {
        type: "button", class: "k3-btn", role: "radio", "data-value": o.value, "data-sym": o.sym,
        "aria-label": o.aria, text: o.text,
        on: { click: function () { set(o.value, "click"); } },
      }));
    });
    var value = opts.value;
    function index() { return opts.options.findIndex(function (o) { return String(o.value) === String(value); }); }
    function paint() {
      var idx = index();
      buttons.forEach(function (b, i) {
        W.attr(b, "aria-checked", i === idx ? "true" : "false");
        W.attr(b, "tabindex", i === idx ? "0" : "-1");
      });
    }
    function set(v, how) {
      value = v;
      paint();
      if (opts.onChange) opts.onChange(v, how);
    }
    group.addEventListener("keydown", function (e) {
      var idx = index(), n = buttons.length, next = null;
      if (e.key === "ArrowRight" || e.key === "ArrowDown") next = (idx + 1) % n;
      else if (e.key === "ArrowLeft" || e.key === "ArrowUp") next = (idx - 1 + n) % n;
      else if (e.key === "Home") next = 0;
      else if (e.key === "End") next = n - 1;
      if (next === null) return;
      e.preventDefault();
      set(opts.options[next].value, "key");
      buttons[next].focus();
    });
    paint();
    return { node: group, set: function (v) { value = v; paint(); }, get: function () { return value; } };
  };

  /* A stepper: ◀ step k of n ▶, arrow keys on the group (a figure that plays adds K3W.player's
   * button to the stepper's row).
   * opts: {label, count, value, format(i) -> text, onChange(i, how)} */
  W.stepper = function (opts) {
    var value = opts.value || 0;
    var readout = W.el("span", { class: "k3-stepper-readout k3-num", "aria-live": "off" });
    var prev = W.el("button", { type: "button", class: "k3-btn", "aria-label": "Previous step", text: "◀",
      on: { click: function () { go(value - 1, "click"); } } });
    var next = W.el("button", { type: "button", class: "k3-btn", "aria-label": "Next step", text: "▶",
      on: { click: function () { go(value + 1, "click"); } } });
    // the group itself takes ← → Home End, so the keys keep working when an end button is disabled
    var node = W.el("div", { class: "k3-row k3-stepper", role: "group", tabindex: "0", "aria-label": opts.label },
      prev, readout, next);
    function paint() {
      W.text(readout, opts.format ? opts.format(value) : "step " + (value + 1) + " / " + opts.count);
      var focused = document.activeElement;
      if (prev.disabled !== value <= 0) prev.disabled = value <= 0;
      if (next.disabled !== value >= opts.count - 1) next.disabled = value >= opts.count - 1;
      if ((focused === prev || focused === next) && focused.disabled) node.focus();
    }
    function go(i, how) {
      var v = Math.max(0, Math.min(opts.count - 1, i));
      if (v === value) return;
      value = v;
      paint();
      if (opts.onChange) opts.onChange(value, how);
    }
    node.addEventListener("keydown", function (e) {
      if (e.key === "ArrowRight") { e.preventDefault(); go(value + 1, "key"); }
      else if (e.key === "ArrowLeft") { e.preventDefault(); go(value - 1, "key"); }
      else if (e.key === "Home") { e.preventDefault(); go(0, "key"); }
      else if (e.key === "End") { e.preventDefault(); go(opts.count - 1, "key"); }
    });
    paint();
    return { node: node, set: function (i) { value = Math.max(0, Math.min(opts.count - 1, i)); paint(); },
      get: function () { return value; } };
  };

  /* A labelled range input over an index into `values` (so log scales are data, not maths here).
   * opts: {label, values: [...], index, format(v) -> text, onInput(index, how)} */
  W.slider = function (opts) {
    var id = "k3-slider-" + Math.random().toString(36).slice(2, 8);
    var input = W.el("input", { type: "range", id: id, min: 0, max: opts.values.length - 1, step: 1, value: opts.index });
    var out = W.el("output", { for: id, class: "k3-num" });
    function paint() {
      var v = opts.values[+input.value];
      W.text(out, opts.format ? opts.format(v) : String(v));
      W.attr(input, "aria-valuetext", out.textContent);
      // the track is filled up to the thumb (figure.css draws it from --fill)
      var max = opts.values.length - 1;
      W.prop(input, "--fill", (max > 0 ? (100 * +input.value / max) : 0) + "%");
    }
    input.addEventListener("input", function () { paint(); if (opts.onInput) opts.onInput(+input.value, "input"); });
    paint();
    // the longest value, for a layout that must not move while the value changes (a stuck row, figure.css)
    out.style.setProperty("--k3-widest", opts.values.reduce(function (n, v) {
      return Math.max(n, (opts.format ? opts.format(v) : String(v)).length);
    }, 0));
    var node = W.el("div", { class: "k3-row k3-slider" }, W.el("label", { for: id, class: "k3-label", text: opts.label }), input, out);
    return { node: node, input: input, get: function () { return +input.value; },
      set: function (i) { if (+input.value !== +i) input.value = i; paint(); } };
  };
})();
