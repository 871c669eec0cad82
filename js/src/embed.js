// The script of a standalone page (iaa_widgets.html.page: saved charts, `iaa report`):
// vega + vega-lite + vega-embed as one classic script defining the global
// `iaaVega.embed`, inlined into the page (no CDN; works from file:// with no network).
export { default as embed } from "vega-embed";
