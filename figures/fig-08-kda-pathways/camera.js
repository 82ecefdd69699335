/* K3W widgets: a pan/zoom camera over a fixed-size canvas (FIG 08's diagram).
 *
 * K3W.camera(opts) moves `canvas` (a width × height box, absolutely placed at 0,0 with
 * transform-origin 0 0) inside the clipped `viewport` with one CSS transform. A view is
 * {z, cx, cy}: the zoom relative to "fit" and the canvas point shown at the viewport's centre.
 * Fit is the whole canvas across the viewport's width (never enlarged past its natural size), and
 * the camera makes the viewport exactly as tall as the fitted canvas: at zoom 1 nothing is cropped,
 * on a phone as on a desktop. Zoomed in, the viewport keeps that height and the reader pans; at
 * zoom 1 or less a touch drag scrolls the page instead (touch-action), so a tall diagram never
 * traps the finger. The camera owns no state: every gesture computes the next view and hands it to
 * opts.onView(view, how) — the figure stores it (declared state, clamped by the runtime) and paints
 * it back with show(view).
 *   drag (pointer, touch)           pan, how "drag"; opts.onEnd() when the pointer is released
 *   Ctrl + wheel                    zoom about the pointer, how "wheel"; onEnd() 250 ms after the last
 *   ← → ↑ ↓ (viewport focused)      pan 60 screen px, how "key"
 *   + / −, 0                        zoom ×1.25 / ÷1.25 about the centre, reset to home, how "key"
 *   buttons.zoomIn/zoomOut/fit      the same by click; buttons.level shows the zoom (opts.showLevel)
 * opts: {viewport, canvas, width, height, zoom: {min, max}, cls (class prefix for the buttons,
 * e.g. "f08" → f08-zoom-in), labels: {zoomOut, zoomIn, fit} (the buttons' names, the figure's
 * text), showLevel(node, z) (writes the zoom z into node), onView(view, how), onEnd()}
 * returns {home, buttons: {zoomOut, level, zoomIn, fit}, show(view), size(width, height) (the canvas
 * changed: home moves to its new centre), refresh(), destroy()}
 */
(function () {
  "use strict";
  var W = window.K3W;
  W.camera = function (opts) {
    var vp = opts.viewport, canvas = opts.canvas, zmin = opts.zoom.min, zmax = opts.zoom.max;
    var home = { z: 1, cx: opts.width / 2, cy: opts.height / 2 };  // size() keeps this object, moved
    var view = home, drag = null, wheelTimer = null;
    var pre = opts.cls ? opts.cls + "-" : "k3-";

    function fit() { return Math.min(1, (vp.clientWidth || opts.width) / opts.width); }
    function clampZ(z) { return Math.max(zmin, Math.min(zmax, z)); }
    function move(v, how) { opts.onView(v, how); }
    /* zoom by `factor`, keeping the canvas point under (px, py) (viewport coordinates; null = centre) in place */
    function zoomBy(factor, at, how) {
      var s = fit() * view.z, hw = vp.clientWidth / 2, hh = vp.clientHeight / 2;
      var px = at ? at[0] : hw, py = at ? at[1] : hh;
      var gx = view.cx + (px - hw) / s, gy = view.cy + (py - hh) / s;
      var z = clampZ(view.z * factor), s2 = fit() * z;
      move({ z: z, cx: gx - (px - hw) / s2, cy: gy - (py - hh) / s2 }, how);
    }
    function button(name, text, label, fn) {
      return W.el("button", { type: "button", class: "k3-btn " + pre + name, "aria-label": label, text: text,
        on: { click: fn } });
    }
    var buttons = {
      zoomOut: button("zoom-out", "−", opts.labels.zoomOut, function () { zoomBy(1 / 1.25, null, "click"); }),
      level: W.el("span", { class: "k3-num " + pre + "zoom-level", "aria-hidden": "true" }),
      zoomIn: button("zoom-in", "+", opts.labels.zoomIn, function () { zoomBy(1.25, null, "click"); }),
      fit: button("zoom-reset", "Fit", opts.labels.fit, function () { move(home, "click"); }),
    };

    function show(v) {
      view = v;
      vp.style.height = Math.ceil(opts.height * fit()) + "px";
      vp.style.touchAction = v.z > 1 + 1e-9 ? "none" : "pan-y pinch-zoom";
      var s = fit() * v.z;
      var tx = vp.clientWidth / 2 - v.cx * s, ty = vp.clientHeight / 2 - v.cy * s;
      canvas.style.transform = "translate(" + tx.toFixed(1) + "px," + ty.toFixed(1) + "px) scale(" + s.toFixed(4) + ")";
      opts.showLevel(buttons.level, v.z);
      buttons.zoomIn.disabled = v.z >= zmax - 1e-9;
      buttons.zoomOut.disabled = v.z <= zmin + 1e-9;
    }

    vp.addEventListener("pointerdown", function (e) {
      if (e.button !== 0) return;
      drag = { id: e.pointerId, x: e.clientX, y: e.clientY, cx: view.cx, cy: view.cy, moved: false };
      vp.setPointerCapture(e.pointerId);
    });
    vp.addEventListener("pointermove", function (e) {
      if (!drag || e.pointerId !== drag.id) return;
      var s = fit() * view.z, dx = e.clientX - drag.x, dy = e.clientY - drag.y;
      if (Math.abs(dx) + Math.abs(dy) > 2) drag.moved = true;
      if (!drag.moved) return;
      vp.classList.add("is-dragging");
      move({ z: view.z, cx: drag.cx - dx / s, cy: drag.cy - dy / s }, "drag");
    });
    function endDrag(e) {
      if (!drag || e.pointerId !== drag.id) return;
      var moved = drag.moved;
      drag = null;
      vp.classList.remove("is-dragging");
      if (moved && opts.onEnd) opts.onEnd();
    }
    vp.addEventListener("pointerup", endDrag);
    vp.addEventListener("pointercancel", endDrag);
    vp.addEventListener("wheel", function (e) {
      if (!e.ctrlKey) return;  // a plain wheel scrolls the page
      e.preventDefault();
      var r = vp.getBoundingClientRect();
      zoomBy(Math.exp(-e.deltaY * 0.0025), [e.clientX - r.left, e.clientY - r.top], "wheel");
      clearTimeout(wheelTimer);
      wheelTimer = setTimeout(function () { if (opts.onEnd) opts.onEnd(); }, 250);
    }, { passive: false });
    vp.addEventListener("keydown", function (e) {
      if (e.target !== vp) return;
      var step = 60 / (fit() * view.z), k = e.key;
      var moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
      if (moves[k]) move({ z: view.z, cx: view.cx + moves[k][0], cy: view.cy + moves[k][1] }, "key");
      else if (k === "+" || k === "=") zoomBy(1.25, null, "key");
      else if (k === "-" || k === "_") zoomBy(1 / 1.25, null, "key");
      else if (k === "0") move(home, "key");
      else return;
      e.preventDefault();
    });
    // focusing a node inside the clipped viewport must not scroll it (the transform does the moving)
    vp.addEventListener("scroll", function () { vp.scrollLeft = 0; vp.scrollTop = 0; });

    return {
      home: home, buttons: buttons, show: show,
      size: function (width, height) {
        opts.width = width;
        opts.height = height;
        home.cx = width / 2;
        home.cy = height / 2;
      },
      refresh: function () { show(view); },  // after the viewport changes size
      destroy: function () { clearTimeout(wheelTimer); },
    };
  };
})();
