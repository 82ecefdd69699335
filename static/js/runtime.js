/* k3explainer runtime: everything cross-cutting, so figure components stay small.
 *
 * - a registry: components call K3.register(name, init); data files call K3.data(id, data)
 * - lazy init: a figure's data, component (and Plotly, once) load when it nears the viewport
 * - URL hash state: "#deltanet&fig-02.row=3&fig-06.step=2" — an anchor plus per-figure keys
 * - symbol links: elements sharing data-sym light up together (equations ↔ figures)
 * - the journey strip: jump to a stage, highlight the stage being read
 * Scripts are classic and loaded by <script src> so the site also works from file://.
 */
(function () {
  "use strict";
  var K3 = (window.K3 = window.K3 || {});
  var components = {};
  var datasets = {};
  var instances = {};
  var scripts = {};
  var motion = window.matchMedia("(prefers-reduced-motion: reduce)");

  K3.register = function (name, init) { components[name] = init; };
  K3.data = function (id, data) { datasets[id] = data; };
  K3.reducedMotion = function () { return motion.matches; };

  function loadScript(src) {
    if (!scripts[src]) {
      scripts[src] = new Promise(function (resolve, reject) {
        var s = document.createElement("script");
        s.src = src;
        s.onload = resolve;
        s.onerror = function () { reject(new Error("could not load " + src)); };
        document.head.appendChild(s);
      });
    }
    return scripts[src];
  }
  K3.plotly = function () { return loadScript("vendor/plotly.min.js").then(function () { return window.Plotly; }); };

  /* ---------- URL hash state ---------- */
  function readHash() {
    var params = new URLSearchParams(location.hash.slice(1));
    var anchor = null, state = {};
    params.forEach(function (value, key) {
      var dot = key.indexOf(".");
      if (dot < 0) { if (value === "") anchor = key; return; }
      var fig = key.slice(0, dot);
      (state[fig] = state[fig] || {})[key.slice(dot + 1)] = value;
    });
    return { anchor: anchor, state: state };
  }
  function writeHash(anchor, state, push) {
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
    } catch (e) { /* file:// in some browsers forbids history writes; state still works in-page */ }
  }
  function figureState(id) {
    return {
      get: function () { return readHash().state[id] || {}; },
      set: function (values, opts) {
        var h = readHash();
        var mine = {};
        Object.keys(values).forEach(function (k) {
          if (values[k] !== null && values[k] !== undefined && values[k] !== "") mine[k] = String(values[k]);
        });
        h.state[id] = mine;
        if (!Object.keys(mine).length) delete h.state[id];
        writeHash(h.anchor, h.state, opts && opts.push);
      },
    };
  }
  window.addEventListener("popstate", function () {
    var state = readHash().state;
    Object.keys(instances).forEach(function (id) {
      var inst = instances[id];
      if (inst && inst.restore) inst.restore(state[id] || {});
    });
  });

  /* ---------- figures ---------- */
  function fail(fig, err) {
    console.error("[" + fig.id + "]", err);
    var mount = fig.querySelector(".fig-mount");
    if (mount) {
      mount.removeAttribute("aria-busy");
      mount.innerHTML = "";
      var p = document.createElement("p");
      p.className = "fig-error";
      p.textContent = "This figure could not start: " + err.message;
      mount.appendChild(p);
    }
  }
  var starting = {};
  function initFigure(fig) {  // once per figure, however many times it is asked for
    return starting[fig.id] || (starting[fig.id] = startFigure(fig));
  }
  function startFigure(fig) {
    var id = fig.id;
    var needs = [loadScript("assets/widgets.js"), loadScript(fig.dataset.src)];
    if (fig.dataset.plotly) needs.push(K3.plotly());
    return Promise.all(needs)
      .then(function () { return loadScript(fig.dataset.componentSrc); })
      .then(function () {
        var init = components[fig.dataset.component];
        if (!init) throw new Error("component " + fig.dataset.component + " did not register");
        var mount = fig.querySelector(".fig-mount");
        var live = fig.querySelector(".fig-live");
        var ctx = {
          id: id,
          figure: fig,
          state: figureState(id),
          narrate: function (text) { live.textContent = text; },
          reducedMotion: K3.reducedMotion,
          plotly: K3.plotly,
        };
        return Promise.resolve(init(mount, datasets[id], ctx)).then(function (inst) {
          instances[id] = inst || {};
          mount.removeAttribute("aria-busy");
          focusableScrollers(fig);
          fig.dataset.ready = "true";
        });
      })
      .catch(function (err) { fail(fig, err); });
  }
  K3.initAll = function () {  // used by tests and print: start every figure now
    return Promise.all([].map.call(document.querySelectorAll("figure[data-src]"), initFigure));
  };

  function watchFigures() {
    var figs = document.querySelectorAll("figure[data-src]");
    if (!("IntersectionObserver" in window)) { K3.initAll(); return; }
    var io = new IntersectionObserver(function (entries) {
      entries.forEach(function (e) {
        if (e.isIntersecting) { io.unobserve(e.target); initFigure(e.target); }
      });
    }, { rootMargin: "400px 0px" });
    [].forEach.call(figs, function (f) { io.observe(f); });
  }

  /* Charts take their colours from CSS when they are drawn. When the reader's colour scheme
   * changes, chart figures start again in it; their state comes back from the URL. */
  window.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", function () {
    Object.keys(instances).forEach(function (id) {
      var fig = document.getElementById(id);
      if (!fig || !fig.dataset.plotly) return;
      var mount = fig.querySelector(".fig-mount");
      [].forEach.call(mount.querySelectorAll(".js-plotly-plot"), function (p) { window.Plotly.purge(p); });
      mount.textContent = "";
      delete instances[id];
      delete starting[id];
      fig.removeAttribute("data-ready");
      initFigure(fig);
    });
  });

  /* ---------- symbol links: equations ↔ figures ---------- */
  var lit = null;
  K3.highlight = function (name) {
    if (lit === name) return;
    [].forEach.call(document.querySelectorAll(".sym-on"), function (el) { el.classList.remove("sym-on"); });
    lit = name || null;
    if (!lit) return;
    [].forEach.call(document.querySelectorAll('[data-sym="' + CSS.escape(lit) + '"]'), function (el) { el.classList.add("sym-on"); });
  };
  function symOf(target) {
    var el = target && target.closest ? target.closest("[data-sym]") : null;
    return el ? el.getAttribute("data-sym") : null;
  }
  // The latest of pointer and keyboard wins; moving onto something without a symbol (or the page
  // scrolling under a resting mouse) falls back to what the other one lit instead of clearing it.
  var hovered = null, focused = null;
  document.addEventListener("pointerover", function (e) { hovered = symOf(e.target); K3.highlight(hovered || focused); });
  document.documentElement.addEventListener("pointerleave", function () { hovered = null; K3.highlight(focused); });
  document.addEventListener("focusin", function (e) { focused = symOf(e.target); K3.highlight(focused || hovered); });
  document.addEventListener("focusout", function () { focused = null; K3.highlight(hovered); });

  /* ---------- journey strip and in-page links ---------- */
  function goTo(id, push) {
    var target = document.getElementById(id);
    if (!target) return;
    target.scrollIntoView({ behavior: K3.reducedMotion() ? "auto" : "smooth", block: "start" });
    var heading = target.querySelector("h2") || target;
    heading.setAttribute("tabindex", "-1");
    heading.focus({ preventScroll: true });
    writeHash(id, readHash().state, push);
  }
  document.addEventListener("click", function (e) {
    var a = e.target.closest && e.target.closest('a[href^="#"]');
    if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey) return;
    var id = decodeURIComponent(a.getAttribute("href").slice(1));
    if (!id || !document.getElementById(id) || a.classList.contains("skip-link")) return;
    e.preventDefault();
    goTo(id, true);
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

  /* A region that scrolls sideways (a wide equation or table) must be reachable by keyboard.
   * Sections far from the viewport skip layout (content-visibility), so they are measured again
   * when the browser renders them. */
  var SCROLLERS = ".math-block, .section > table, .k3-scroll";
  function focusableScrollers(root) {
    var scope = root || document;
    var els = [].slice.call(scope.querySelectorAll(SCROLLERS));
    if (scope.matches && scope.matches(SCROLLERS)) els.push(scope);
    els.forEach(function (el) {
      if (el.scrollWidth > el.clientWidth + 1) el.setAttribute("tabindex", "0");
      else el.removeAttribute("tabindex");
    });
  }
  document.addEventListener("contentvisibilityautostatechange", function (e) {
    if (!e.skipped) requestAnimationFrame(function () { focusableScrollers(e.target); });
  }, true);
  K3.focusableScrollers = focusableScrollers;

  /* "Copy link": the page URL with this figure's state, scrolled to the figure. */
  document.addEventListener("click", function (e) {
    var btn = e.target.closest && e.target.closest("[data-copy-link]");
    if (!btn) return;
    var id = btn.getAttribute("data-copy-link");
    var h = readHash();
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

  /* Math fonts: KaTeX's @font-face rules load only when the first formula nears the viewport. */
  function loadMathFonts() {
    if (document.getElementById("k3-math-fonts")) return;
    var link = document.createElement("link");
    link.id = "k3-math-fonts";
    link.rel = "stylesheet";
    link.href = "vendor/katex/katex-fonts.css";
    document.head.appendChild(link);
  }
  function watchMath() {
    var formulas = document.querySelectorAll(".katex");
    if (!formulas.length) return;
    if (!("IntersectionObserver" in window)) { loadMathFonts(); return; }
    var io = new IntersectionObserver(function (entries) {
      if (entries.some(function (e) { return e.isIntersecting; })) { io.disconnect(); loadMathFonts(); }
    }, { rootMargin: "1000px 0px" });  // early enough that fonts arrive before the formula scrolls in
    [].forEach.call(formulas, function (k) { io.observe(k); });
  }

  function start() {
    focusableScrollers();
    watchMath();
    var resizeTimer = null;
    window.addEventListener("resize", function () {
      clearTimeout(resizeTimer);
      resizeTimer = setTimeout(function () { focusableScrollers(); }, 150);
    });
    watchFigures();
    watchJourney();
    jumpToAnchor();
  }
  /* A link into the article ("#fig-14&fig-14.open=kda,mla") lands mid-page. The figures it
   * restores may be taller than their reserved space, and formulas set in fallback fonts reflow
   * when KaTeX's arrive; so those figures and the two main math faces load first, off-screen,
   * and the page jumps a frame after they are drawn: nothing in view moves (three seconds at most). */
  function jumpToAnchor() {
    var h = readHash();
    var target = h.anchor && document.getElementById(h.anchor);
    if (!target) return;
    var restored = Object.keys(h.state).map(function (id) { return document.getElementById(id); })
      .filter(function (f) { return f && f.matches("figure[data-src]"); });
    var jumped = false;
    function jump() { if (!jumped) { jumped = true; target.scrollIntoView({ behavior: "instant" }); } }
    var ready = restored.map(initFigure);
    if (document.querySelector(".katex")) ready.push(mathFontsReady());
    Promise.all(ready).then(function () {
      requestAnimationFrame(function () { requestAnimationFrame(jump); });
    });
    setTimeout(jump, 3000);
  }
  function mathFontsReady() {
    loadMathFonts();
    var link = document.getElementById("k3-math-fonts");
    return new Promise(function (resolve) {
      if (link.sheet) resolve();
      else { link.addEventListener("load", resolve); link.addEventListener("error", resolve); }  // jump regardless
    }).then(function () {
      return Promise.all(["1em KaTeX_Main", "italic 1em KaTeX_Math"].map(function (f) { return document.fonts.load(f); }));
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
