import { l as createComponent, t as $$Base, u as __exportAll } from "./Base_DxzoHH7N.mjs";
import { a as renderComponent, f as renderTemplate, p as maybeRenderHead } from "./server_C3X2lkR6.mjs";
import { t as renderScript } from "./script_BO_3PWg4.mjs";
// src/pages/status.astro
var status_exports = /* @__PURE__ */ __exportAll({
	default: () => $$Status,
	file: () => $$file,
	url: () => $$url
});
var $$Status = createComponent(($$result, $$props, $$slots) => {
	return renderTemplate`${renderComponent($$result, "Base", $$Base, {
		"title": "Status",
		"description": "Readiness, data versions and clock synchronisation of the answering instance."
	}, { "default": ($$result) => renderTemplate`
  ${maybeRenderHead($$result)}<h1>Status</h1>
  <p>What the instance that answers you reports about itself (<a href="/health">/health</a>).</p>
  <div class="table-scroll"><table id="status-table" data-state="loading">
    <tbody>
      <tr><th>Service</th><td data-field="status">Live with JavaScript; or open <a href="/health">/health</a>.</td></tr>
      <tr><th>tz database</th><td data-field="tzdb"></td></tr>
      <tr><th>IP data</th><td data-field="ip"></td></tr>
      <tr><th>System clock</th><td data-field="clock"></td></tr>
      <tr><th>Uptime</th><td data-field="uptime"></td></tr>
    </tbody>
  </table></div>
` })}

${renderScript($$result, "/work/wt/places/site/src/pages/status.astro?astro&type=script&index=0&lang.ts")}`;
}, "/work/wt/places/site/src/pages/status.astro", void 0);
var $$file = "/work/wt/places/site/src/pages/status.astro";
var $$url = "/status";
// \0virtual:astro:page:src/pages/status@_@astro
var page = () => status_exports;
export { page };
