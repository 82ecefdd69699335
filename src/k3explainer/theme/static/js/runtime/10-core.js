/* k3explainer runtime, part 1 of 7: the namespace, the registries and the script loader.
 *
 * The runtime is everything cross-cutting, so figure components stay small. Its parts live in
 * static/js/runtime/ and the build joins them, in file-name order, into one assets/k3.js:
 *   10-core       K3.register / K3.data, script loading, Plotly on demand, reduced motion
 *   20-hash       the URL hash: "#deltanet&fig-02.row=3&fig-06.step=2" and the history rule
 *   30-state      the state types a component declares (int, num, bool, oneOf, subset, pattern)
 *   40-figures    the figure lifecycle: start, restore, narrate, pause/resume off-screen, destroy
 *   50-symbols    symbol links: elements sharing data-sym light up together (equations ↔ figures)
 *   55-landing    every move lands: the view holds still as the page settles; links glide to their target
 *   60-page       journey strip, in-page links, sideways scrollers, copy link, print, math fonts
 * Scripts are classic and loaded by <script src> so the site also works from file://.
 */
(function () {
  "use strict";
  var K3 = (window.K3 = window.K3 || {});
  var internal = (K3._ = { components: {}, datasets: {}, scripts: {} });
  var motion = window.matchMedia("(prefers-reduced-motion: reduce)");

  /* A component: {state: data => schema, setup: (mount, data, ctx) => view}; see 40-figures. */
  K3.register = function (name, component) { internal.components[name] = component; };
  K3.data = function (id, data) { internal.datasets[id] = data; };
  K3.reducedMotion = function () { return motion.matches; };

  /* A script or a stylesheet, requested once however often it is asked for; the promise settles
   * when it has run or applies (a figure's sheet applies before the figure draws). */
  function loadOnce(url, node) {
    if (!internal.scripts[url]) {
      internal.scripts[url] = new Promise(function (resolve, reject) {
        node.onload = resolve;
        node.onerror = function () { reject(new Error("could not load " + url)); };
        document.head.appendChild(node);
      });
    }
    return internal.scripts[url];
  }
  internal.loadScript = function (src) {
    return internal.scripts[src] || loadOnce(src, Object.assign(document.createElement("script"), { src: src }));
  };
  internal.loadStyle = function (href) {
    return internal.scripts[href] || loadOnce(href, Object.assign(document.createElement("link"), { rel: "stylesheet", href: href }));
  };
  /* Plotly, loaded once. Its drawing calls finish asynchronously (a redraw ends by re-hovering),
   * so each graph remembers its last pending call and 40-figures purges a destroyed chart only
   * after that has settled; purging earlier makes the late re-hover throw. */
  function trackPending(Plotly) {
    if (Plotly.__k3tracked) return Plotly;
    ["newPlot", "react", "relayout", "restyle", "update"].forEach(function (name) {
      var call = Plotly[name];
      Plotly[name] = function (gd) {
        var done = call.apply(this, arguments);
        gd.__k3pending = Promise.resolve(done).catch(function () {});
        return done;
      };
    });
    Plotly.__k3tracked = true;
    return Plotly;
  }
  K3.plotly = function () {
    return internal.loadScript("vendor/plotly.min.js").then(function () { return trackPending(window.Plotly); });
  };
})();
