import { l as createComponent, t as $$Base, u as __exportAll } from "./Base_DxzoHH7N.mjs";
import { a as renderComponent, f as renderTemplate, p as maybeRenderHead } from "./server_C3X2lkR6.mjs";
// src/pages/404.astro
var _404_exports = /* @__PURE__ */ __exportAll({
	default: () => $$404,
	file: () => $$file,
	url: () => $$url
});
var $$404 = createComponent(($$result, $$props, $$slots) => {
	return renderTemplate`${renderComponent($$result, "Base", $$Base, { "title": "Not found" }, { "default": ($$result) => renderTemplate`
  ${maybeRenderHead($$result)}<h1>Not found</h1>
  <p>There is no page here. The <a href="/">home page</a>, the <a href="/timezones/">timezones</a> and the
  <a href="/docs/">API reference</a> are good places to start.</p>
` })}`;
}, "/work/wt/places/site/src/pages/404.astro", void 0);
var $$file = "/work/wt/places/site/src/pages/404.astro";
var $$url = "/404";
// \0virtual:astro:page:src/pages/404@_@astro
var page = () => _404_exports;
export { page };
