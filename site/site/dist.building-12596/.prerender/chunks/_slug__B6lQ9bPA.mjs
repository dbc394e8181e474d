import { c as createAstro, l as createComponent, t as $$Base, u as __exportAll } from "./Base_DxzoHH7N.mjs";
import { S as unescapeHTML, a as renderComponent, f as renderTemplate, o as Fragment, p as maybeRenderHead } from "./server_C3X2lkR6.mjs";
import { t as guides } from "./guides_D_jqY6rR.mjs";
// src/pages/guides/[slug].astro
var _slug__exports = /* @__PURE__ */ __exportAll({
	default: () => $$Slug,
	file: () => $$file,
	getStaticPaths: () => getStaticPaths,
	url: () => $$url
});
createAstro("https://zonetime.example");
function getStaticPaths() {
	return guides.map((guide) => ({
		params: { slug: guide.slug },
		props: { guide }
	}));
}
var $$Slug = createComponent(($$result, $$props, $$slots) => {
	const Astro = $$result.createAstro($$props, $$slots);
	Astro.self = $$Slug;
	const { guide } = Astro.props;
	return renderTemplate`${renderComponent($$result, "Base", $$Base, {
		"title": guide.title,
		"description": guide.summary
	}, { "default": ($$result) => renderTemplate`
  ${maybeRenderHead($$result)}<p><a href="/guides/">Guides</a></p>
  <h1>${guide.title}</h1>
  ${renderComponent($$result, "Fragment", Fragment, {}, { "default": ($$result) => renderTemplate`${unescapeHTML(guide.html)}` })}
` })}`;
}, "/work/wt/places/site/src/pages/guides/[slug].astro", void 0);
var $$file = "/work/wt/places/site/src/pages/guides/[slug].astro";
var $$url = "/guides/[slug]";
// \0virtual:astro:page:src/pages/guides/[slug]@_@astro
var page = () => _slug__exports;
export { page };
