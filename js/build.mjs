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

if (process.argv.includes("--watch")) {
  const ctx = await esbuild.context(options);
  await ctx.watch();
} else {
  await esbuild.build(options);
}
