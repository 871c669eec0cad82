// Bundle js/src into iaa_widgets/static/ (generated: never edit the output by hand).
// One ES module shared by every widget, vega + vega-lite + vega-embed inlined: no CDN.
import * as esbuild from "esbuild";
import { fileURLToPath } from "node:url";
import path from "node:path";

const here = path.dirname(fileURLToPath(import.meta.url));
const options = {
  entryPoints: { widgets: path.join(here, "src", "index.js") },
  outdir: path.join(here, "..", "iaa_widgets", "static"),
  bundle: true,
  format: "esm",
  minify: true,
  target: ["es2020"],
  legalComments: "linked",
  logLevel: "info",
};

// A classic script defining iaaVega.embed, for the self-contained pages that charts and
// `iaa report` write (html.page): it runs from file:// where an ES module would not.
const embedOptions = { ...options, entryPoints: { embed: path.join(here, "src", "embed.js") },
                       format: "iife", globalName: "iaaVega" };

// A classic script defining iaaStandalone.mount, for the page `widget.to_html()` writes
// (widgets/export.py): the widgets over a stand-in model of their saved state. Their CSS
// is static/widgets.css (made by the first build), inlined by the page: not output here.
const standaloneOptions = { ...options,
  entryPoints: { standalone: path.join(here, "src", "standalone.js") },
  format: "iife", globalName: "iaaStandalone", loader: { ".css": "empty" } };

// The small module each widget model loads (its `_esm`); it imports widgets.js once per
// page from the model's `_bundle` traitlet (js/src/loader.js says why).
const loaderOptions = { ...options, entryPoints: { loader: path.join(here, "src", "loader.js") },
                        legalComments: "none" };

const builds = [options, embedOptions, standaloneOptions, loaderOptions];
if (process.argv.includes("--watch")) {
  for (const o of builds) await (await esbuild.context(o)).watch();
} else {
  await Promise.all(builds.map((o) => esbuild.build(o)));
}
