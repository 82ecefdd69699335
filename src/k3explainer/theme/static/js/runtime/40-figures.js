/* k3explainer runtime, part 4 of 7: the figure lifecycle, owned here and nowhere else.
 *
 *   not started ──(nears the viewport, or a link restores it)──▶ starting ──▶ ready
 *   ready: on-screen ⇄ off-screen (view.pause / view.resume); destroy() releases everything
 * The <figure> shows it: data-status="starting|ready", data-visible="true|false", and
 * data-ready="true" once drawn (tests and the print path wait for that).
 *
 * A component is registered as
 *   K3.register(name, {
 *     state: function (data) { return {step: K3.state.int(0, n - 1, 0), rb: K3.state.bool(false)}; },
 *     setup: function (mount, data, ctx) { ...build the DOM once...; return view; },
 *   });
 * and its view is {render(state, prev, how), describe(prev, next, how) → text, pause(), resume(),
 * destroy()} (only render is required; prev is null on the first render).
 * ctx.set(changes, how) is the one way to change state: the runtime clamps the values, skips a
 * change that changes nothing, renders, narrates what describe() says through the figure's
 * aria-live line (user actions only, never a restore) and writes the URL by the history rule
 * of 20-hash (`how`: "click" | "key" discrete; "input" | "drag" | "play" | "wheel" | "hover" continuous;
 * ctx.end() ends a continuous gesture). ctx.get() is the current state; ctx.on(target, type, fn)
 * adds a listener that destroy() removes; ctx.visible() says whether the figure is on screen.
 * Reader text comes from the data: ctx.show(el, path, slots) places a shipped sentence and tags
 * el with where it came from, ctx.text(path, slots) returns one, and describe() returns
 * {path, slots} for the narration (readerText below).
 * Back/forward and shared links restore state through render(…, "restore").
 */
(function () {
  "use strict";
  var K3 = window.K3, internal = K3._, hash = internal.hash;
  var figures = {};  // id → controller
  var starting = {};

  function fail(fig, err) {
    console.error("[" + fig.id + "]", err);
    var mount = fig.querySelector(".fig-mount");
    if (mount) {
      mount.removeAttribute("aria-busy");
      mount.textContent = "";
      var p = document.createElement("p");
      p.className = "fig-error";
      p.textContent = "This figure could not start: " + err.message;
      mount.appendChild(p);
    }
  }

  /* Reader text is written in Python (site/readertext.py says how): the builder ships every
   * sentence, whole or as a template whose {slots} take other shipped texts, and the component
   * only places it. text(path, slots) is the text at `path` in the data (["steps", 3, "read"]),
   * each {name} filled with the text at the path slots[name]; a missing text, a slot without a
   * value or a value that is not text throws, so a figure never shows "undefined". */
  function at(data, path) {
    return path.reduce(function (node, key) {
      if (node === null || typeof node !== "object" || !(key in node)) throw new Error("no text at " + JSON.stringify(path));
      return node[key];
    }, data);
  }
  function readerText(data, path, slots) {
    var template = at(data, path), given = Object.keys(slots || {}).sort();
    if (typeof template !== "string") throw new Error("no text at " + JSON.stringify(path));
    var names = (template.match(/\{\w+\}/g) || []).map(function (s) { return s.slice(1, -1); });
    names = names.filter(function (n, i) { return names.indexOf(n) === i; }).sort();
    if (names.join() !== given.join()) throw new Error(JSON.stringify(path) + ": slots " + names.join() + " ≠ " + given.join());
    return template.replace(/\{(\w+)\}/g, function (_, name) {
      var v = at(data, slots[name]);
      if (typeof v !== "string" && !Number.isInteger(v)) throw new Error(JSON.stringify(path) + ": slot " + name + " is not text");
      return String(v);
    });
  }
  /* show(el, path, slots): the text in el (a path ending in an _html key: its rendered Markdown),
   * with both paths on el (data-shows, data-slots), so a test checks what is shown against what
   * was shipped through one mechanism for every figure (tests/browser/support.py). */
  function showText(data, el, path, slots) {
    var html = /_html$/.test(String(path[path.length - 1]));
    if (html && slots) throw new Error(JSON.stringify(path) + ": rendered Markdown takes no slots");
    if (html) el.innerHTML = at(data, path);
    else el.textContent = readerText(data, path, slots);
    el.setAttribute("data-shows", JSON.stringify(path));
    if (slots) el.setAttribute("data-slots", JSON.stringify(slots));
    else el.removeAttribute("data-slots");
    return el;
  }

  function controller(fig, component) {
    var id = fig.id, data = internal.datasets[id];
    var mount = fig.querySelector(".fig-mount"), live = fig.querySelector(".fig-live");
    var schema = component.state ? component.state(data) : {};
    var c = { fig: fig, id: id, schema: schema, visible: true, listeners: [], view: null };
    function parse(values) {
      var s = {};
      Object.keys(schema).forEach(function (k) { s[k] = schema[k].parse(values[k]); });
      return s;
    }
    function same(a, b) { return Object.keys(schema).every(function (k) { return schema[k].equal(a[k], b[k]); }); }
    function text(state) {
      var out = {};
      Object.keys(schema).forEach(function (k) { if (!schema[k].equal(state[k], schema[k].def)) out[k] = schema[k].format(state[k]); });
      return out;
    }
    c.apply = function (changes, how) {
      var next = Object.assign({}, c.state);
      Object.keys(changes).forEach(function (k) {
        if (!schema[k]) throw new Error(id + " has no state key " + JSON.stringify(k));
        next[k] = schema[k].clamp(changes[k]);
      });
      if (same(next, c.state)) return false;
      var prev = c.state;
      c.state = next;
      c.view.render(next, prev, how);
      if (how !== "restore") {
        // describe() says what changed: a text of the data ({path, slots}, tagged like show()'s)
        var said = c.view.describe ? c.view.describe(prev, next, how) : null;
        if (said && said.path) showText(data, live, said.path, said.slots);
        else if (said) live.textContent = said;
        hash.save(id, text(next), how);
      }
      return true;
    };
    c.restore = function (values) { c.apply(parse(values), "restore"); };
    c.state = parse(hash.read().state[id] || {});
    var ctx = {
      id: id, figure: fig, reducedMotion: K3.reducedMotion, plotly: K3.plotly,
      get: function () { return c.state; },
      set: function (changes, how) { return c.apply(changes, how || "click"); },
      end: hash.endGesture,
      on: function (target, type, fn, opts) { target.addEventListener(type, fn, opts); c.listeners.push([target, type, fn, opts]); },
      visible: function () { return c.visible; },
      text: function (path, slots) { return readerText(data, path, slots); },
      show: function (el, path, slots) { return showText(data, el, path, slots); },
    };
    return Promise.resolve(component.setup(mount, data, ctx)).then(function (view) {
      c.view = view;
      view.render(c.state, null, "restore");
      return c;
    });
  }

  /* "Where do these numbers come from?": the builder's own account (kernels, inputs, seed), which
   * ships with the figure's data, so the page does not carry it twice. Rows with nothing to say
   * are left out. */
  function showProvenance(fig, provenance) {
    var dl = fig.querySelector(".fig-prov-computed");
    if (!dl || dl.childNodes.length) return;
    function row(term, value) {
      var dd = document.createElement("dd");
      if (Array.isArray(value)) {
        value.forEach(function (v, i) {
          if (i) dd.appendChild(document.createTextNode(", "));
          dd.appendChild(document.createElement("code")).textContent = String(v);
        });
      } else dd.textContent = String(value);
      dl.appendChild(document.createElement("dt")).textContent = term;
      dl.appendChild(dd);
    }
    Object.keys(provenance).sort().forEach(function (k) {
      var v = provenance[k];
      if (v !== null && v !== undefined && v !== "" && !(Array.isArray(v) && !v.length)) row(k, v);
    });
    row("computed by", [dl.dataset.builder]);
    dl.lastChild.appendChild(document.createTextNode(" at build time; the browser only draws the numbers."));
  }

  function startFigure(fig) {
    fig.dataset.status = "starting";
    // widgets.css is asked for before the figure's own sheet: later in the document, that sheet
    // wins where both style the same control
    var needs = [internal.loadScript("assets/widgets.js"), internal.loadStyle("assets/widgets.css"),
                 internal.loadScript(fig.dataset.src)];
    if (fig.dataset.cssSrc) needs.push(internal.loadStyle(fig.dataset.cssSrc));
    if (fig.dataset.plotly) needs.push(K3.plotly());
    return Promise.all(needs)
      .then(function () { return internal.loadScript(fig.dataset.componentSrc); })
      .then(function () {
        var component = internal.components[fig.dataset.component];
        if (!component) throw new Error("component " + fig.dataset.component + " did not register");
        return controller(fig, component);
      })
      .then(function (c) {
        figures[fig.id] = c;
        showProvenance(fig, internal.datasets[fig.id].provenance || {});
        fig.querySelector(".fig-mount").removeAttribute("aria-busy");
        return K3.markScrollers(fig).then(function () { return c; });
      })
      .then(function (c) {
        fig.dataset.status = "ready";
        fig.dataset.ready = "true";
        watchVisibility(c);
      })
      .catch(function (err) { fail(fig, err); });
  }
  internal.initFigure = function (fig) {  // once per figure, however many times it is asked for
    return starting[fig.id] || (starting[fig.id] = startFigure(fig));
  };
  K3.initAll = function () {  // used by tests and print: start every figure now
    return Promise.all([].map.call(document.querySelectorAll("figure[data-src]"), internal.initFigure));
  };
  /* A started figure's state and setter, for tests and for authors at the console. */
  K3.figure = function (id) {
    var c = figures[id];
    return c && { schema: c.schema, state: function () { return c.state; },
      set: function (changes, how) { return c.apply(changes, how || "click"); } };
  };

  /* on-screen ⇄ off-screen: a playing stepper or an animation stops where nobody sees it */
  var seen = "IntersectionObserver" in window ? new IntersectionObserver(function (entries) {
    entries.forEach(function (e) {
      var c = figures[e.target.id];
      if (!c || c.visible === e.isIntersecting) return;
      c.visible = e.isIntersecting;
      e.target.dataset.visible = String(c.visible);
      var hook = c.visible ? c.view.resume : c.view.pause;
      if (hook) hook.call(c.view);
    });
  }) : null;
  function watchVisibility(c) {
    c.fig.dataset.visible = "true";
    if (seen) seen.observe(c.fig);
  }

  function destroy(c) {  // a destroyed figure is paused first: no timer outlives its DOM
    if (seen) seen.unobserve(c.fig);
    if (c.view.pause) c.view.pause();
    if (c.view.destroy) c.view.destroy();
    c.listeners.forEach(function (l) { l[0].removeEventListener(l[1], l[2], l[3]); });
    var mount = c.fig.querySelector(".fig-mount");
    [].forEach.call(mount.querySelectorAll(".js-plotly-plot"), function (p) {  // see K3.plotly in 10-core
      Promise.resolve(p.__k3pending).then(function () { window.Plotly.purge(p); });
    });
    mount.textContent = "";
    delete figures[c.id];
    delete starting[c.id];
    ["ready", "status", "visible"].forEach(function (k) { delete c.fig.dataset[k]; });
  }

  /* The URL's state into every started figure (one not started yet reads it when it starts). */
  internal.restoreAll = function () {
    hash.endGesture();
    var state = hash.read().state;
    Object.keys(figures).forEach(function (id) { figures[id].restore(state[id] || {}); });
  };
  window.addEventListener("popstate", internal.restoreAll);

  /* Destroy a figure and start it again from the URL's state: a colour-scheme change does it to
   * the charts, and the browser tests do it to give each test a fresh figure on an open page. */
  function restart(id) {
    var fig = document.getElementById(id);
    return Promise.resolve(starting[id]).then(function () {
      if (figures[id]) destroy(figures[id]);
      return internal.initFigure(fig);
    });
  }
  internal.restart = restart;

  /* Charts take their colours from CSS when they are drawn: when the reader's colour scheme
   * changes, chart figures are started again in it, in the state they were in. */
  window.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", function () {
    Object.keys(figures).forEach(function (id) { if (figures[id].fig.dataset.plotly) restart(id); });
  });

  internal.watchFigures = function () {
    var figs = document.querySelectorAll("figure[data-src]");
    if (!("IntersectionObserver" in window)) { K3.initAll(); return; }
    var near = new IntersectionObserver(function (entries) {
      entries.forEach(function (e) {
        if (e.isIntersecting) { near.unobserve(e.target); internal.initFigure(e.target); }
      });
    }, { rootMargin: "400px 0px" });
    [].forEach.call(figs, function (f) { near.observe(f); });
  };
})();
