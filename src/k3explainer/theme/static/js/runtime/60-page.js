/* k3explainer runtime, part 7 of 7: the page around the figures — the journey strip and in-page
 * links, keyboard access to sideways scrollers, "Copy link", printing, math fonts on demand, and
 * the start of it all (including a shared link's jump to its anchor). */
(function () {
  "use strict";
  var K3 = window.K3, internal = K3._, hash = internal.hash;
  /* ---------- journey strip and in-page links ---------- */
  /* To an anchor, adding a history entry when `push`; a link's `state` ({figure: {key: value}})
   * replaces those figures' state, so a reference opens its figure where it says. */
  function goTo(id, push, state) {
    var target = document.getElementById(id);
    if (!target) return;
    var now = hash.read().state;
    Object.keys(state || {}).forEach(function (fig) { now[fig] = state[fig]; });
    hash.write(id, now, push);
    if (state && Object.keys(state).length) internal.restoreAll();
    internal.glide(target);  // 55-landing: it arrives even where the page settles on the way
    var heading = target.querySelector("h2") || target;
    heading.setAttribute("tabindex", "-1");
    heading.focus({ preventScroll: true });
  }
  document.addEventListener("click", function (e) {
    var a = e.target.closest && e.target.closest('a[href^="#"]');
    if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey) return;
    var link = hash.parse(a.getAttribute("href"));
    var id = link.anchor;
    if (!id || !document.getElementById(id) || a.classList.contains("skip-link")) return;
    e.preventDefault();
    goTo(id, true, link.state);
  });
  /* The stage being read: the last section whose top has passed a line a third of the way down
   * the window (or the last section once the page is scrolled to its end). */
  function watchJourney() {
    var links = {};
    [].forEach.call(document.querySelectorAll("[data-journey]"), function (a) { links[a.dataset.journey] = a; });
    var sections = [].slice.call(document.querySelectorAll("section.section"));
    var current = null, pending = false;
    function update() {
      pending = false;
      var line = window.innerHeight / 3, id = null;
      var atEnd = window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 2;
      sections.forEach(function (s) { if (s.getBoundingClientRect().top <= line) id = s.id; });
      if (atEnd && sections.length) id = sections[sections.length - 1].id;
      if (id === current) return;
      if (current && links[current]) links[current].removeAttribute("aria-current");
      current = id;
      var link = links[current];
      if (!link) return;
      link.setAttribute("aria-current", "true");
      var strip = link.closest(".journey-list");
      strip.scrollTo({ left: link.offsetLeft - strip.clientWidth / 2 + link.clientWidth / 2,
        behavior: K3.reducedMotion() ? "auto" : "smooth" });
    }
    window.addEventListener("scroll", function () {
      if (!pending) { pending = true; requestAnimationFrame(update); }
    }, { passive: true });
    update();
  }

  /* A region that scrolls sideways (a wide equation, table or figure part) must say so and be
   * reachable by keyboard. Each one that overflows gets tabindex=0 and data-overflow naming the
   * side(s) with more to see ("end", "start" or "both"); the CSS draws a fade on those edges and,
   * while the region is at its start, a "scroll →" hint. Nothing here ever scrolls a region
   * itself: the reader decides what goes out of view. Regions are measured when they appear
   * (figures render into the page), when they or the window change size, and as they scroll. */
  var SCROLLERS = ".math-block, .section > table, .k3-scroll, .journey-list";
  function overflowSide(el) {
    var max = el.scrollWidth - el.clientWidth;
    return max > 1 ? (el.scrollLeft <= 1 ? "end" : el.scrollLeft >= max - 1 ? "start" : "both") : null;
  }
  function markScroller(el, side) {
    if (el.getAttribute("data-overflow") !== side) {
      if (side) el.setAttribute("data-overflow", side); else el.removeAttribute("data-overflow");
    }
    if (el.classList.contains("journey-list")) return;  // its links are already in the tab order
    if (side && !el.hasAttribute("tabindex")) el.setAttribute("tabindex", "0");
    else if (!side && el.getAttribute("tabindex") === "0") el.removeAttribute("tabindex");
  }
  /* Every width is read before any mark is written: a write between two reads would make the
   * browser lay the page out again for each region. A region in a section the browser has not laid
   * out yet (content-visibility: auto, base.css) is left for when it is: reading its width would
   * force that layout, the very work the skip saves at load. */
  var laidOut = document.body.checkVisibility
    ? function (el) { return el.checkVisibility({ contentVisibilityAuto: true }); }
    : function () { return true; };
  function measureScrollers(els) {
    els = els.filter(laidOut);
    var sides = els.map(overflowSide);
    els.forEach(function (el, i) { markScroller(el, sides[i]); });
  }
  document.addEventListener("contentvisibilityautostatechange", function (e) {
    if (!e.skipped) markScrollers(e.target);
  }, true);
  var sized = "ResizeObserver" in window ? new ResizeObserver(function (entries) {
    measureScrollers(entries.map(function (e) { return e.target; }));
  }) : null;
  var watched = typeof WeakSet === "function" ? new WeakSet() : null;
  function scrollersIn(scope) {  // and keep measuring them whenever their size changes
    var els = [].slice.call(scope.querySelectorAll(SCROLLERS));
    if (scope.matches && scope.matches(SCROLLERS)) els.push(scope);
    els.forEach(function (el) {
      if (sized && watched && !watched.has(el)) { watched.add(el); sized.observe(el); }
    });
    return els;
  }
  document.addEventListener("scroll", function (e) {
    var el = e.target;
    if (el.nodeType === 1 && el.matches(SCROLLERS)) measureScrollers([el]);
  }, { capture: true, passive: true });
  /* Figures draw (and redraw) their parts after start: measure again, and only inside what
   * changed (a heatmap updating its numbers must not re-measure every scroller of the article on
   * each input). Requests gather until the frame has been laid out and painted (a task queued
   * from requestAnimationFrame runs after it) and are measured together then, so the reads see a
   * layout the browser made anyway instead of forcing one per figure in the middle of drawing.
   * Resolves once the marks are set (a figure is "ready" only then). */
  var batch = null;
  function markScrollers(scope) {
    if (!batch) {
      var scopes = [];
      batch = { scopes: scopes, done: new Promise(function (resolve) {
        requestAnimationFrame(function () {
          setTimeout(function () {
            batch = null;
            measureScrollers([].concat.apply([], scopes.map(scrollersIn)));
            resolve();
          }, 0);
        });
      }) };
    }
    if (batch.scopes.indexOf(scope) < 0) batch.scopes.push(scope);
    return batch.done;
  }
  if ("MutationObserver" in window) {
    new MutationObserver(function (records) {
      records.forEach(function (r) {
        if (!r.addedNodes.length && !r.removedNodes.length) return;
        var el = r.target.nodeType === 1 ? r.target : r.target.parentElement;
        markScrollers((el && el.closest("figure")) || document);
      });
    }).observe(document.body, { childList: true, subtree: true });
  }
  K3.markScrollers = markScrollers;

  /* The sticky journey strip's real height, as --strip-h on the root: anchors (scroll-margin-top in
   * base.css) land just below it whatever its height at this width and font size. */
  function trackStrip() {
    var strip = document.querySelector(".journey");
    if (!strip) return;
    var root = document.documentElement;
    function set() { root.style.setProperty("--strip-h", Math.ceil(strip.getBoundingClientRect().height) + "px"); }
    set();
    if ("ResizeObserver" in window) new ResizeObserver(set).observe(strip);
  }

  /* "Copy link": the page URL with this figure's state, scrolled to the figure. */
  document.addEventListener("click", function (e) {
    var btn = e.target.closest && e.target.closest("[data-copy-link]");
    if (!btn) return;
    var id = btn.getAttribute("data-copy-link");
    var h = hash.read();
    var params = [encodeURIComponent(id)];
    Object.keys(h.state[id] || {}).sort().forEach(function (k) {
      params.push(encodeURIComponent(id + "." + k) + "=" + encodeURIComponent(h.state[id][k]));
    });
    var url = location.href.split("#")[0] + "#" + params.join("&");
    var live = document.querySelector("#" + CSS.escape(id) + " .fig-live");
    var text = btn.querySelector(".fig-copy-text");
    var done = function (ok) {
      text.textContent = ok ? "Link copied" : "Copy failed";
      if (live) live.textContent = ok ? "A link to this view was copied." : "Copying the link was refused by the browser.";
      setTimeout(function () { text.textContent = "Copy link"; }, 1800);
    };
    btn.setAttribute("data-url", url);
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(url).then(function () { done(true); }, function () { done(false); });
    } else done(false);
  });

  /* Printing: start every figure and open the text descriptions so the printout carries them. */
  var openedForPrint = [];
  window.addEventListener("beforeprint", function () {
    K3.initAll();
    loadMathFonts();
    [].forEach.call(document.querySelectorAll("details.fig-alt:not([open]), details.fig-prov:not([open])"), function (d) {
      d.open = true;
      openedForPrint.push(d);
    });
  });
  window.addEventListener("afterprint", function () {
    openedForPrint.forEach(function (d) { d.open = false; });
    openedForPrint = [];
  });

  /* Math fonts: their @font-face rules load only when the first formula nears the viewport. */
  function loadMathFonts() {
    if (document.getElementById("k3-math-fonts")) return;
    var link = document.createElement("link");
    link.id = "k3-math-fonts";
    link.rel = "stylesheet";
    link.href = "vendor/math/math-fonts.css";
    document.head.appendChild(link);
  }
  function watchMath() {
    var formulas = document.querySelectorAll("math");
    if (!formulas.length) return;
    if (!("IntersectionObserver" in window)) { loadMathFonts(); return; }
    var io = new IntersectionObserver(function (entries) {
      if (entries.some(function (e) { return e.isIntersecting; })) { io.disconnect(); mathFontsReady(); }
    }, { rootMargin: "1000px 0px" });  // early enough that fonts arrive before the formula scrolls in
    // (the core face is asked for at once: left to the browser, it is fetched only when a formula's
    // section is laid out, and on a loaded machine the formula then reflowed in view)
    [].forEach.call(formulas, function (k) { io.observe(k); });
  }

  function start() {
    trackStrip();
    markScrollers(document);
    watchMath();
    var resizeTimer = null;
    window.addEventListener("resize", function () {
      clearTimeout(resizeTimer);
      resizeTimer = setTimeout(function () { markScrollers(document); }, 150);
    });
    internal.watchFigures();
    internal.keepView();
    watchJourney();
    jumpToAnchor();
  }
  /* A link into the article ("#fig-14&fig-14.open=kda,mla") lands mid-page. The figures it
   * restores may be taller than their reserved space, and formulas set in fallback fonts reflow
   * when the math font arrives; so those figures and the math font's core face load first,
   * off-screen, and the page jumps a frame after they are drawn: nothing in view moves. A slow phone may need
   * several seconds for that (seen: 7 s at a 4x CPU slowdown), and jumping early lets the figure
   * grow in view, so the fallback only covers a figure that never settles (ten seconds). */
  function jumpToAnchor() {
    var h = hash.read();
    var target = h.anchor && document.getElementById(h.anchor);
    if (!target) return;
    var restored = Object.keys(h.state).map(function (id) { return document.getElementById(id); })
      .filter(function (f) { return f && f.matches("figure[data-src]"); });
    var jumped = false;
    function jump() { if (!jumped) { jumped = true; internal.glide(target, true); } }
    var ready = restored.map(internal.initFigure);
    if (document.querySelector("math")) ready.push(mathFontsReady());
    function afterPaint() { requestAnimationFrame(function () { requestAnimationFrame(jump); }); }
    Promise.all(ready).then(afterPaint, afterPaint);
    setTimeout(jump, 10000);
  }
  function mathFontsReady() {
    loadMathFonts();
    var link = document.getElementById("k3-math-fonts");
    return new Promise(function (resolve) {
      if (link.sheet) resolve();
      else { link.addEventListener("load", resolve); link.addEventListener("error", resolve); }  // jump regardless
    }).then(function () {
      return document.fonts.load('1em "Latin Modern Math Web"', "x\ud835\udc65");  // the core face: letters and italics
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
