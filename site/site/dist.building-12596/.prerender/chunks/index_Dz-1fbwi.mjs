import { l as createComponent, n as examples, o as openapi, t as $$Base, u as __exportAll } from "./Base_DxzoHH7N.mjs";
import { S as unescapeHTML, a as renderComponent, f as renderTemplate, h as addAttribute, o as Fragment, p as maybeRenderHead } from "./server_C3X2lkR6.mjs";
// src/lib/inline-markdown.ts
var escape = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
function inlineMarkdown(text) {
	return escape(text ?? "").replace(/`([^`]+)`/g, "<code>$1</code>");
}
// src/pages/docs/index.astro
var docs_exports = /* @__PURE__ */ __exportAll({
	default: () => $$Index,
	file: () => $$file,
	url: () => $$url
});
var $$Index = createComponent(($$result, $$props, $$slots) => {
	const resolve = (ref) => ref.split("/").slice(1).reduce((o, k) => o[k], openapi);
	const operations = Object.entries(openapi.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({
		path,
		method: method.toUpperCase(),
		op
	})));
	const typeOf = (s) => Array.isArray(s.type) ? s.type.join(" or ") : s.type ?? (s.oneOf ? "one of" : "");
	const timeObject = openapi.components.schemas.TimeObject;
	const objects = [{
		id: "transition-entry",
		title: "A transition entry",
		schema: openapi.components.schemas.TransitionEntry,
		intro: "Each entry of `transitions` (and `next_transition` of info): the state from the change on, the state before it, the wall clock."
	}, {
		id: "zone-info",
		title: "Zone info",
		schema: openapi.components.schemas.ZoneInfo,
		intro: "What `/timezone/{name}/info` answers."
	}];
	return renderTemplate`${renderComponent($$result, "Base", $$Base, {
		"title": "API reference",
		"description": "Every path, parameter, field, error and status of the zonetime API."
	}, { "default": ($$result) => renderTemplate`
  ${maybeRenderHead($$result)}<h1>API reference</h1>
  <p>${openapi.info.summary} ${renderComponent($$result, "Fragment", Fragment, {}, { "default": ($$result) => renderTemplate`${unescapeHTML(inlineMarkdown(openapi.info.description))}` })}</p>
  <p>Machine-readable: <a href="/openapi.json">/openapi.json</a> (OpenAPI ${openapi.openapi}).</p>

  ${operations.map(({ path, method, op }) => renderTemplate`<section${addAttribute(op.operationId, "id")}>
      <h2><code>${method} ${path.replace("{format}", "")}</code></h2>
      <p>${op.summary}. ${renderComponent($$result, "Fragment", Fragment, {}, { "default": ($$result) => renderTemplate`${unescapeHTML(inlineMarkdown(op.description))}` })}</p>
      ${op.parameters?.length > 0 && renderTemplate`<div class="table-scroll"><table>
          <thead><tr><th>Parameter</th><th>In</th><th>Meaning</th></tr></thead>
          <tbody>${op.parameters.map((p) => renderTemplate`<tr><td><code>${p.name}</code></td><td>${p.in}</td><td>${unescapeHTML(inlineMarkdown(p.description))}</td></tr>`)}</tbody>
        </table></div>`}
      <div class="table-scroll"><table>
        <thead><tr><th>Status</th><th>Meaning</th><th>Body</th></tr></thead>
        <tbody>${Object.entries(op.responses).map(([status, r]) => renderTemplate`<tr><td>${status}</td><td>${unescapeHTML(inlineMarkdown(r.description))}</td><td>${Object.keys(r.content ?? {}).join(", ")}</td></tr>`)}</tbody>
      </table></div>
    </section>`)}<section id="time-object">
    <h2>The time object</h2>
    <p>Every key is always present (null where empty), in this order:</p>
    <div class="table-scroll"><table>
      <thead><tr><th>Field</th><th>Type</th><th>Meaning</th></tr></thead>
      <tbody>${timeObject.required.map((k) => renderTemplate`<tr><td><code>${k}</code></td><td>${typeOf(timeObject.properties[k])}</td><td>${unescapeHTML(inlineMarkdown(timeObject.properties[k].description))}</td></tr>`)}</tbody>
    </table></div>
    <p>Errors: <code>${JSON.stringify(resolve("#/components/schemas/Error").properties)}</code>, i.e. <code>${"{\"error\":\"<message>\"}"}</code>.</p>
  </section>

  ${objects.map((o) => renderTemplate`<section${addAttribute(o.id, "id")}>
      <h2>${o.title}</h2>
      <p>${unescapeHTML(inlineMarkdown(o.intro))}</p>
      <div class="table-scroll"><table>
        <thead><tr><th>Field</th><th>Type</th><th>Meaning</th></tr></thead>
        <tbody>${o.schema.required.map((k) => renderTemplate`<tr><td><code>${k}</code></td><td>${typeOf(o.schema.properties[k])}</td><td>${unescapeHTML(inlineMarkdown(o.schema.properties[k].description))}</td></tr>`)}</tbody>
      </table></div>
    </section>`)}<section id="examples">
    <h2>Examples</h2>
    ${examples.map((e) => renderTemplate`${renderComponent($$result, "Fragment", Fragment, {}, { "default": ($$result) => renderTemplate`<p><code>GET ${e.request}</code></p><pre><code>${e.body}</code></pre>` })}`)}
  </section>
` })}`;
}, "/work/wt/places/site/src/pages/docs/index.astro", void 0);
var $$file = "/work/wt/places/site/src/pages/docs/index.astro";
var $$url = "/docs";
// \0virtual:astro:page:src/pages/docs/index@_@astro
var page = () => docs_exports;
export { page };
