// The site's own script (mkdocs.yml extra_javascript), loaded after KaTeX and its auto-render
// (copied from js/node_modules/katex into the site by dev/docs_pages.py: no CDN).
// 1. Typesets formulas: pymdownx.arithmatex's spans and divs (\( \) and \[ \]) on every page
//    and in docstrings, and $ … $ / $$ … $$ in the notebooks' markdown cells.
// 2. Sizes each same-origin iframe (the widget snapshots) to its document, again when that
//    document changes size, and gives it the site's light or dark theme.
(function () {
  "use strict";
  const DELIMITERS = [
    { left: "$$", right: "$$", display: true },
    { left: "\\[", right: "\\]", display: true },
    { left: "\\(", right: "\\)", display: false },
    { left: "\\begin{equation}", right: "\\end{equation}", display: true },
    { left: "\\begin{align}", right: "\\end{align}", display: true },
  ];
  const NOTEBOOK_DELIMITERS = [...DELIMITERS, { left: "$", right: "$", display: false }];

  function typeset(root) {
    if (typeof renderMathInElement !== "function") return;
    const options = (delimiters) => ({ delimiters, throwOnError: false, ignoredClasses: ["katex"] });
    root.querySelectorAll(".arithmatex").forEach((el) => renderMathInElement(el, options(DELIMITERS)));
    root.querySelectorAll(".jp-MarkdownCell .jp-RenderedMarkdown, .jp-RenderedHTMLCommon.jp-MarkdownOutput")
      .forEach((el) => renderMathInElement(el, options(NOTEBOOK_DELIMITERS)));
  }

  const dark = () => document.body.getAttribute("data-md-color-scheme") === "slate";

  // the snapshot's widget follows html[data-theme] (js/src/base.js, themeOf); its page's
  // own background and text follow this style
  const PAGE_DARK = "html[data-theme=dark] body { background: #1e2129; color: #e2e4e9; }" +
    " html[data-theme=dark] .iaa-static-banner { background: #17233a; }" +
    " html[data-theme=dark] .iaa-static-notice { background: #3a2a17; }";

  function theme(frame) {
    const doc = frame.contentDocument;
    if (!doc || !doc.documentElement) return;
    if (doc.head && !doc.getElementById("iaa-site-theme")) {
      const style = doc.createElement("style");
      style.id = "iaa-site-theme";
      style.textContent = PAGE_DARK;
      doc.head.append(style);
    }
    doc.documentElement.setAttribute("data-theme", dark() ? "dark" : "light");
  }

  function fit(frame) {
    const doc = frame.contentDocument;
    if (!doc || !doc.documentElement) return;
    const height = Math.max(doc.documentElement.scrollHeight, doc.body ? doc.body.scrollHeight : 0);
    if (height > 0) frame.style.height = height + "px";
  }

  function follow(frame) {
    let observer = null;
    const attach = () => {
      let doc;
      try { doc = frame.contentDocument; } catch (e) { return; }  // another origin: left as is
      if (!doc || !doc.body) return;
      theme(frame);
      fit(frame);
      if (observer) observer.disconnect();
      observer = new ResizeObserver(() => fit(frame));
      observer.observe(doc.documentElement);
      observer.observe(doc.body);
    };
    frame.addEventListener("load", attach);
    if (frame.contentDocument && frame.contentDocument.readyState === "complete") attach();
  }

  function start() {
    typeset(document);
    const frames = Array.from(document.querySelectorAll("iframe.iaa-snapshot, .md-content iframe"));
    frames.forEach(follow);
    new MutationObserver(() => frames.forEach(theme))
      .observe(document.body, { attributes: true, attributeFilter: ["data-md-color-scheme"] });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
