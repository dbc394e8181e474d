import { l as createComponent, t as $$Base, u as __exportAll } from "./Base_DxzoHH7N.mjs";
import { a as renderComponent, f as renderTemplate, p as maybeRenderHead } from "./server_C3X2lkR6.mjs";
// src/pages/terms.astro
var terms_exports = /* @__PURE__ */ __exportAll({
	default: () => $$Terms,
	file: () => $$file,
	url: () => $$url
});
var $$Terms = createComponent(($$result, $$props, $$slots) => {
	return renderTemplate`${renderComponent($$result, "Base", $$Base, { "title": "Terms" }, { "default": ($$result) => renderTemplate`
  ${maybeRenderHead($$result)}<h1>Terms</h1>
  <ul>
    <li><strong>Free</strong> for personal and commercial use, anonymous, no key.</li>
    <li><strong>A link back is asked for, not enforced</strong>: in a site footer, a README or an app's About screen.
      Copy-ready snippets are on the <a href="/attribution/">attribution page</a>.</li>
    <li>Fair use: per-client <a href="/guides/rate-limits/">rate limits</a> keep the service fast for everyone.</li>
    <li>No guarantee: the service aims to be exact and always up, and tells you its data versions and clock state on
      the <a href="/status/">status page</a>.</li>
    <li>The data's own licences apply: the IANA tz database is public domain; IP geolocation by DB-IP is CC BY 4.0.</li>
  </ul>
` })}`;
}, "/work/wt/places/site/src/pages/terms.astro", void 0);
var $$file = "/work/wt/places/site/src/pages/terms.astro";
var $$url = "/terms";
// \0virtual:astro:page:src/pages/terms@_@astro
var page = () => terms_exports;
export { page };
