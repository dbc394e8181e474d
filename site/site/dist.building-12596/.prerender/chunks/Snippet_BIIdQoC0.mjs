import { c as createAstro, l as createComponent } from "./Base_DxzoHH7N.mjs";
import { f as renderTemplate, h as addAttribute, p as maybeRenderHead } from "./server_C3X2lkR6.mjs";
import { t as renderScript } from "./script_BO_3PWg4.mjs";
// src/components/Snippet.astro
createAstro("https://zonetime.example");
var $$Snippet = createComponent(($$result, $$props, $$slots) => {
	const Astro = $$result.createAstro($$props, $$slots);
	Astro.self = $$Snippet;
	const { id, label, text } = Astro.props;
	return renderTemplate`${maybeRenderHead($$result)}<figure class="snippet" data-astro-cid-46njg7og>
  <figcaption data-astro-cid-46njg7og>${label} <button type="button"${addAttribute(id, "data-copy")} data-astro-cid-46njg7og>Copy</button></figcaption>
  <pre data-astro-cid-46njg7og><code${addAttribute(id, "id")} data-astro-cid-46njg7og>${text}</code></pre>
</figure>
${renderScript($$result, "/work/wt/places/site/src/components/Snippet.astro?astro&type=script&index=0&lang.ts")}`;
}, "/work/wt/places/site/src/components/Snippet.astro", void 0);
export { $$Snippet as t };
