/* K3W widgets: links from a figure to the article's own sections, labelled from the page.
 *   sectionTitle(id)                      "06 · DeltaNet — …": the section's h2 as the page shows it
 *   sectionLink(node, html, section, pre) insert a build-time link (`*_html`, via W.html) and label
 *                                         its anchor pre + the section's title ("Read §06 · …")
 * Used by FIG 14 and FIG 18. */
(function () {
  "use strict";
  var W = window.K3W;
  W.sectionTitle = function (id) {
    var h = document.querySelector("#" + CSS.escape(id) + " h2");
    return h ? h.textContent.trim() : id;
  };
  W.sectionLink = function (node, html, section, prefix) {
    W.html(node, html);
    var a = node.querySelector("a");
    if (a) a.textContent = (prefix || "") + W.sectionTitle(section);
    return node;
  };
})();
