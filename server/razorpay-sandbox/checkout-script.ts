/**
 * checkout.js: `window.Razorpay` with the contract of Razorpay's checkout.js (subscriptions
 * only). Plain ES2019 for the browser: no imports, no eval, no inline styles (the site's CSP);
 * the look comes from checkout.css by class name. Kept as a string so it ships inside the server
 * bundle. String.raw keeps backslashes; the script must not contain backticks or "${" (except
 * the one that splices in the modal's rendering from checkout-modal.ts).
 */
import { MODAL_JS } from "./checkout-modal";

export const CHECKOUT_JS = String.raw`/* Razorpay-compatible sandbox checkout (test mode only). */
(function () {
  "use strict";
  if (window.Razorpay && window.Razorpay.sandbox) return;

  var script = document.currentScript;
  var src = script && script.src ? script.src : "";
  if (!src) {
    var scripts = document.getElementsByTagName("script");
    for (var s = scripts.length - 1; s >= 0; s--) {
      if (/\/checkout\.js([?#]|$)/.test(scripts[s].src)) { src = scripts[s].src; break; }
    }
  }
  var base = src.replace(/[?#].*$/, "").replace(/\/checkout\.js$/, "");

  var link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = base + "/checkout.css";
  (document.head || document.documentElement).appendChild(link);

  var money = new Intl.NumberFormat("en-IN", { style: "currency", currency: "INR" });
  var dates = new Intl.DateTimeFormat("en-IN", { day: "numeric", month: "long", year: "numeric" });
  var UNITS = { daily: ["day", "days"], weekly: ["week", "weeks"], monthly: ["month", "months"], yearly: ["year", "years"] };
  var counter = 0;

  function perText(period, interval) {
    var unit = UNITS[period] || [period, period];
    return interval === 1 ? "per " + unit[0] : "every " + interval + " " + unit[1];
  }

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function radio(parent, name, value, label, checked) {
    var wrapper = el("label", "rzp-sbx-choice");
    var input = el("input");
    input.type = "radio";
    input.name = name;
    input.value = value;
    input.checked = checked;
    wrapper.appendChild(input);
    wrapper.appendChild(el("span", null, label));
    parent.appendChild(wrapper);
    return input;
  }

  function describe(json, fallback) {
    return json && json.error && json.error.description ? json.error.description : fallback;
  }

  function later(error) {
    setTimeout(function () { throw error; }, 0);
  }

  function request(method, path, body) {
    var init = { method: method, headers: { Accept: "application/json" } };
    if (body) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    return fetch(base + path, init).then(function (response) {
      return response.json().then(
        function (json) { return { ok: response.ok, status: response.status, json: json }; },
        function () { return { ok: false, status: response.status, json: null }; }
      );
    });
  }

  /** Focusable descendants in document order, skipping hidden subtrees and disabled controls. */
  function focusables(root) {
    var found = [];
    (function walk(node) {
      for (var i = 0; i < node.children.length; i++) {
        var child = node.children[i];
        if (child.hidden) continue;
        var tag = child.tagName;
        if ((tag === "BUTTON" || tag === "INPUT" || (tag === "A" && child.getAttribute("href"))) && !child.disabled) found.push(child);
        walk(child);
      }
    })(root);
    return found;
  }

  function Razorpay(options) {
    if (!(this instanceof Razorpay)) return new Razorpay(options);
    if (!options || typeof options.key !== "string" || !options.key) throw new Error("Razorpay: the key option is required.");
    if (typeof options.subscription_id !== "string" || !options.subscription_id) throw new Error("Razorpay sandbox: pass subscription_id (only subscription checkout is simulated).");
    this.options = options;
    this._listeners = {};
    this._ui = null;
    this._busy = false;
  }
  Razorpay.sandbox = true;

  Razorpay.prototype.on = function (event, fn) {
    if (typeof fn === "function") (this._listeners[event] = this._listeners[event] || []).push(fn);
    return this;
  };

  Razorpay.prototype._emit = function (event, payload) {
    var list = (this._listeners[event] || []).slice();
    for (var i = 0; i < list.length; i++) {
      try { list[i](payload); } catch (error) { later(error); }
    }
  };

  Razorpay.prototype.open = function () {
    if (this._ui) return this;
    var self = this;
    var o = this.options;
    var id = "rzp-sbx-" + ++counter;
    var ui = { id: id, previousFocus: document.activeElement };
    ui.overlay = el("div", "rzp-sbx-overlay");
    ui.dialog = el("div", "rzp-sbx-dialog");
    ui.dialog.setAttribute("role", "dialog");
    ui.dialog.setAttribute("aria-modal", "true");
    ui.dialog.setAttribute("aria-labelledby", id + "-title");
    ui.dialog.tabIndex = -1;
    var header = el("div", "rzp-sbx-header");
    if (o.image) {
      var image = el("img", "rzp-sbx-logo");
      image.alt = "";
      image.src = o.image;
      header.appendChild(image);
    }
    var heading = el("h2", "rzp-sbx-heading", o.name || "Checkout");
    heading.id = id + "-title";
    header.appendChild(heading);
    header.appendChild(el("span", "rzp-sbx-badge", "Test mode"));
    ui.close = el("button", "rzp-sbx-close", "\u00d7");
    ui.close.type = "button";
    ui.close.setAttribute("aria-label", "Close checkout");
    ui.close.addEventListener("click", function () { if (!self._busy) self._dismiss(); });
    header.appendChild(ui.close);
    ui.dialog.appendChild(header);
    if (o.description) ui.dialog.appendChild(el("p", "rzp-sbx-muted", o.description));
    ui.body = el("div", "rzp-sbx-body");
    ui.body.appendChild(el("p", "rzp-sbx-muted", "Loading\u2026"));
    ui.dialog.appendChild(ui.body);
    ui.overlay.appendChild(ui.dialog);
    ui.onKey = function (event) { self._onKey(event); };
    document.addEventListener("keydown", ui.onKey, true);
    document.documentElement.classList.add("rzp-sbx-open");
    document.body.appendChild(ui.overlay);
    this._ui = ui;
    ui.dialog.focus();
    var path = "/checkout/subscriptions/" + encodeURIComponent(o.subscription_id) + "?key_id=" + encodeURIComponent(o.key);
    request("GET", path, null).then(
      function (result) {
        if (self._ui !== ui) return;
        if (!result.ok) self._renderError(describe(result.json, "This subscription could not be loaded."));
        else self._render(result.json);
      },
      function () {
        if (self._ui === ui) self._renderError("The payment server could not be reached. Close and try again.");
      }
    );
    return this;
  };

${MODAL_JS}
  Razorpay.prototype._onKey = function (event) {
    var ui = this._ui;
    if (!ui) return;
    if (event.key === "Escape" || event.key === "Esc") {
      event.preventDefault();
      event.stopPropagation();
      if (!this._busy) this._dismiss();
      return;
    }
    if (event.key !== "Tab") return;
    var nodes = focusables(ui.dialog);
    var active = document.activeElement;
    if (nodes.length === 0) {
      event.preventDefault();
      ui.dialog.focus();
      return;
    }
    var first = nodes[0];
    var last = nodes[nodes.length - 1];
    var inside = ui.dialog.contains(active) && active !== ui.dialog;
    if (event.shiftKey && (!inside || active === first)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (!inside || active === last)) {
      event.preventDefault();
      first.focus();
    }
  };

  Razorpay.prototype._dismiss = function () {
    this.close();
    var modal = this.options.modal;
    if (modal && typeof modal.ondismiss === "function") modal.ondismiss();
  };

  /** Closes the modal without calling modal.ondismiss (like Razorpay's close()). */
  Razorpay.prototype.close = function () {
    var ui = this._ui;
    if (!ui) return;
    this._ui = null;
    this._busy = false;
    document.removeEventListener("keydown", ui.onKey, true);
    if (ui.overlay.parentNode) ui.overlay.parentNode.removeChild(ui.overlay);
    document.documentElement.classList.remove("rzp-sbx-open");
    if (ui.previousFocus && typeof ui.previousFocus.focus === "function") ui.previousFocus.focus();
  };

  window.Razorpay = Razorpay;
})();
`;
