import { l as createComponent, t as $$Base, u as __exportAll } from "./Base_DxzoHH7N.mjs";
import { a as renderComponent, f as renderTemplate, h as addAttribute, p as maybeRenderHead } from "./server_C3X2lkR6.mjs";
import { t as guides } from "./guides_D_jqY6rR.mjs";
// src/pages/guides/index.astro
var guides_exports = /* @__PURE__ */ __exportAll({
	default: () => $$Index,
	file: () => $$file,
	url: () => $$url
});
var $$Index = createComponent(($$result, $$props, $$slots) => {
	return renderTemplate`${renderComponent($$result, "Base", $$Base, { "title": "Guides" }, { "default": ($$result) => renderTemplate`
  ${maybeRenderHead($$result)}<h1>Guides</h1>
  <ul>${guides.map((g) => renderTemplate`<li><a${addAttribute(`/guides/${g.slug}/`, "href")}>${g.title}</a>: ${g.summary}</li>`)}</ul>
` })}`;
}, "/work/wt/places/site/src/pages/guides/index.astro", void 0);
var $$file = "/work/wt/places/site/src/pages/guides/index.astro";
var $$url = "/guides";
// \0virtual:astro:page:src/pages/guides/index@_@astro
var page = () => guides_exports;
export { page };
