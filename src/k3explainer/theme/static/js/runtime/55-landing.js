/* k3explainer runtime, part 6 of 7: every move lands where it points.
 *
 * The page's geometry settles after a long move: a section far from view skips layout
 * (content-visibility: auto, base.css) and counts as an estimate until it is first laid out, a
 * figure draws when it nears the viewport, formulas reflow when the math font arrives. So a scroll
 * aimed at where a target was stops short of where it is, and after a jump (the scrollbar, End,
 * find-in-page, scrollIntoView) whatever lies above the window can grow and push the view away.
 * Two things here keep the reader where they meant to be:
 *   keep   what sits in the middle of the window stays there when anything above it changes size:
 *          the browser's scroll anchoring does not follow sections that skip layout, so the page
 *          turns it off (overflow-anchor: none, base.css) and this is the one place that anchors;
 *   glide  an in-page link scrolls toward its target's position as it is on each frame, so it
 *          arrives wherever the target has moved in the meantime (instantly with reduced motion),
 *          and the target stays under the strip until the reader scrolls on. The browser's own
 *          jumps (a fragment, find-in-page) are instant (no scroll-behavior: smooth in base.css),
 *          so they never aim at a stale position, and keep holds what they land on.
 */
(function () {
  "use strict";
  var K3 = window.K3, internal = K3._;
  var anchor = null;   // {el, top}: the element the view holds still, and its top; {end: true} at the page's end
  var held = false;    // the anchor is a link's target, kept until the reader moves on
  var gliding = null;  // the glide in progress: {cancel}
  var placed = null;   // the scroll position this file last set: any other is the reader's (or the browser's) move
  // the page's top-level blocks, in document order
  var FLOW = ".masthead, .part-title, section.section, .site-footer";
  var laidOut = document.body.checkVisibility
    ? function (el) { return el.checkVisibility({ contentVisibilityAuto: true }); }
    : function () { return true; };

  function stripBottom() {
    var strip = document.querySelector(".journey");
    return strip ? Math.max(0, strip.getBoundingClientRect().bottom) : 0;
  }
  function maxScroll() { return document.documentElement.scrollHeight - window.innerHeight; }
  function scrollToY(y) {
    window.scrollTo({ top: Math.max(0, Math.min(y, maxScroll())), behavior: "instant" });
    placed = window.scrollY;
  }
  function movedByReader() { return placed === null || Math.abs(window.scrollY - placed) >= 1; }

  /* The first of `els` that reaches below `line`: its rect is read only if its section is laid out
   * (reading inside a skipped section would force the layout the skip saves). */
  function firstBelow(els, line) {
    for (var i = 0; i < els.length; i++) {
      var r = els[i].getBoundingClientRect();
      if (r.height > 0 && r.bottom > line) return els[i];
    }
    return null;
  }
  /* What the reader is looking at: the block across the middle of the window (below the strip),
   * found as the page's top-level block there and, in a laid-out section, its block (paragraph,
   * formula, figure) and, in a figure, its part (title, stage, caption). Not deeper: a component
   * redraws its own DOM, and a sticky control bar does not move with the page. The middle rather
   * than the top, because a formula or figure above it that reflows (the math font arriving)
   * should move the edge of the view, not the line the reader's eyes are on. */
  function pick() {
    if (window.scrollY <= 0) return null;  // at the top nothing lies above to grow
    // at the end (End, the scrollbar's foot) the reader came for the end: it stays in view while
    // the sections above are laid out and grow
    if (window.scrollY >= maxScroll() - 1) return { end: true };
    var line = (stripBottom() + window.innerHeight) / 2;
    var el = firstBelow(document.querySelectorAll(FLOW), line);
    if (!el || !laidOut(el)) return el && { el: el, top: el.getBoundingClientRect().top };
    for (var depth = 0; depth < 2; depth++) {
      var child = firstBelow(el.children, line);
      if (!child || getComputedStyle(child).position === "sticky") break;
      el = child;
      if (!el.matches("figure")) break;
    }
    return { el: el, top: el.getBoundingClientRect().top };
  }
  /* After the reader's own scroll, the anchor is what is at the top now; after this file's, it
   * stays (a link's target stays under the strip until the reader moves on). */
  function record() {
    if (gliding || (held && !movedByReader())) return;
    held = false;
    anchor = pick();
  }

  /* Something changed size: put the anchor back where it was, before the frame is painted (a
   * ResizeObserver reports after layout and before paint, so the reader never sees the shift). */
  function keep() {
    if (gliding || !anchor) return;
    if (anchor.end) { if (window.scrollY < maxScroll() - 1) scrollToY(maxScroll()); }
    else if (anchor.el.isConnected) {
      var moved = anchor.el.getBoundingClientRect().top - anchor.top;
      if (Math.abs(moved) >= 0.5) scrollToY(window.scrollY + moved);
    }
    if (!held) anchor = pick();
  }

  /* ---------- glide: an in-page link's scroll ---------- */
  function margin(target) { return parseFloat(getComputedStyle(target).scrollMarginTop) || 0; }  // the strip and a gap
  function destination(target) {  // the scroll position that puts the target under the strip
    return Math.max(0, Math.min(window.scrollY + target.getBoundingClientRect().top - margin(target), maxScroll()));
  }
  var GLIDE_MS = 450;
  function ease(t) { return t < 0.5 ? 4 * t * t * t : 1 - Math.pow(-2 * t + 2, 3) / 2; }
  /* Scroll so `target` sits under the strip and stays there while the page settles. A glide over
   * more than two screens first jumps to two screens short of the target (no reader follows
   * thousands of pixels going by, and the sections between are not laid out for nothing), then
   * moves the rest with easing, aiming every frame at where the target is now. The reader's own
   * scroll (wheel, touch, keys, scrollbar) stops it. */
  function glide(target, instant) {
    if (gliding) gliding.cancel();
    function arrive() {  // from here on keep() holds it under the strip (or as near as the page allows)
      gliding = null;
      held = true;
      anchor = { el: target, top: margin(target) };
    }
    if (instant || K3.reducedMotion()) { scrollToY(destination(target)); arrive(); return; }
    var span = 2 * window.innerHeight, from = window.scrollY, dist = destination(target) - from;
    if (Math.abs(dist) > span) { scrollToY(destination(target) - (dist > 0 ? span : -span)); from = window.scrollY; }
    else placed = from;
    var t0 = null, frame = 0;
    gliding = { cancel: function () { cancelAnimationFrame(frame); gliding = null; } };
    function step(now) {
      if (movedByReader()) { gliding = null; record(); return; }
      if (t0 === null) t0 = now;
      var t = Math.min(1, (now - t0) / GLIDE_MS);
      scrollToY(from + (destination(target) - from) * ease(t));
      if (t < 1) frame = requestAnimationFrame(step); else arrive();
    }
    frame = requestAnimationFrame(step);
  }
  internal.glide = glide;

  function start() {
    var pending = false;
    window.addEventListener("scroll", function () {
      if (pending) return;
      pending = true;
      // scroll events come before the frame's layout: the anchor is read once that layout is done
      requestAnimationFrame(function () { pending = false; record(); });
    }, { passive: true });
    if ("ResizeObserver" in window) {
      var sized = new ResizeObserver(keep);
      [].forEach.call(document.querySelectorAll(FLOW), function (el) { sized.observe(el); });
    }
    record();
  }
  internal.keepView = start;
})();
