/**
 * The rendering half of checkout.js (spliced into the IIFE of checkout-script.ts, so it sees its
 * helpers): the subscription summary, the method choice, Success/Failure and their requests.
 * Plain ES2019; String.raw keeps backslashes; no backticks or "${" inside.
 */
export const MODAL_JS = String.raw`  Razorpay.prototype._renderError = function (message) {
    var ui = this._ui;
    ui.body.textContent = "";
    ui.alert = el("p", "rzp-sbx-alert", message);
    ui.alert.setAttribute("role", "alert");
    ui.body.appendChild(ui.alert);
  };

  Razorpay.prototype._render = function (info) {
    var self = this;
    var ui = this._ui;
    var o = this.options;
    if (info.status !== "created") {
      this._renderError("This subscription cannot be authorised in " + info.status + " status.");
      return;
    }
    ui.body.textContent = "";
    var quantity = info.quantity || 1;
    var amountText = money.format((info.plan.amount * quantity) / 100);
    ui.body.appendChild(el("p", "rzp-sbx-muted", info.plan.name + (quantity > 1 ? " \u00d7 " + quantity : "")));
    var amount = el("p", "rzp-sbx-amount", amountText + " ");
    amount.appendChild(el("span", "rzp-sbx-per", perText(info.plan.period, info.plan.interval)));
    ui.body.appendChild(amount);
    if (info.start_in_future && info.start_at) {
      var when = dates.format(new Date(info.start_at * 1000));
      ui.body.appendChild(el("p", "rzp-sbx-note", "You will be charged " + amountText + " on " + when + "; today we only authorise the mandate."));
    }
    var fieldset = el("fieldset", "rzp-sbx-methods");
    fieldset.appendChild(el("legend", null, "Payment method"));
    ui.card = radio(fieldset, ui.id + "-method", "card", "Card", true);
    ui.upi = radio(fieldset, ui.id + "-method", "upi", "UPI AutoPay", false);
    ui.body.appendChild(fieldset);
    ui.cardPanel = el("p", "rzp-sbx-testcard", "Test card 4718 6091 0820 4366");
    ui.body.appendChild(ui.cardPanel);
    ui.upiPanel = el("label", "rzp-sbx-field");
    ui.upiPanel.appendChild(el("span", null, "UPI ID"));
    ui.vpa = el("input", "rzp-sbx-input");
    ui.vpa.type = "text";
    ui.vpa.name = "vpa";
    ui.vpa.value = "success@razorpay";
    ui.vpa.setAttribute("autocomplete", "off");
    ui.vpa.setAttribute("spellcheck", "false");
    ui.upiPanel.appendChild(ui.vpa);
    ui.upiPanel.hidden = true;
    ui.body.appendChild(ui.upiPanel);
    var sync = function () {
      ui.cardPanel.hidden = !ui.card.checked;
      ui.upiPanel.hidden = !ui.upi.checked;
    };
    ui.card.addEventListener("change", sync);
    ui.upi.addEventListener("change", sync);
    if (o.prefill && o.prefill.email) ui.body.appendChild(el("p", "rzp-sbx-muted", "Paying as " + o.prefill.email));
    ui.alert = el("p", "rzp-sbx-alert");
    ui.alert.setAttribute("role", "alert");
    ui.body.appendChild(ui.alert);
    var actions = el("div", "rzp-sbx-actions");
    ui.success = el("button", "rzp-sbx-button rzp-sbx-primary", "Success");
    ui.success.type = "button";
    ui.failure = el("button", "rzp-sbx-button rzp-sbx-danger", "Failure");
    ui.failure.type = "button";
    ui.success.addEventListener("click", function () { self._pay("success", ui.success); });
    ui.failure.addEventListener("click", function () { self._pay("failure", ui.failure); });
    actions.appendChild(ui.success);
    actions.appendChild(ui.failure);
    ui.body.appendChild(actions);
    ui.body.appendChild(el("p", "rzp-sbx-footnote", "Sandbox checkout: no real money moves. Success and Failure stand for the bank's answer."));
  };

  Razorpay.prototype._setBusy = function (busy) {
    this._busy = busy;
    var ui = this._ui;
    if (!ui || !ui.success) return;
    ui.success.disabled = busy;
    ui.failure.disabled = busy;
    ui.close.disabled = busy;
    if (busy) ui.dialog.setAttribute("aria-busy", "true");
    else ui.dialog.removeAttribute("aria-busy");
  };

  Razorpay.prototype._pay = function (outcome, pressed) {
    var self = this;
    var ui = this._ui;
    var o = this.options;
    if (!ui || this._busy) return;
    var method = ui.upi.checked ? "upi" : "card";
    var body = { key_id: o.key, method: method, outcome: outcome };
    if (method === "upi") body.vpa = ui.vpa.value.trim();
    ui.alert.textContent = "";
    this._setBusy(true);
    var path = "/checkout/subscriptions/" + encodeURIComponent(o.subscription_id) + "/pay";
    request("POST", path, body).then(
      function (result) {
        self._setBusy(false);
        if (self._ui !== ui) return;
        if (result.ok) {
          self.close();
          if (typeof o.handler === "function") o.handler(result.json);
          return;
        }
        var error = result.json && result.json.error ? result.json.error : { code: "BAD_REQUEST_ERROR", description: "Payment failed", reason: "payment_failed" };
        if (error.reason === "payment_failed") {
          ui.alert.textContent = "Payment failed. Nothing was charged. Try again or close.";
          self._emit("payment.failed", { error: error });
        } else {
          ui.alert.textContent = error.description || "The payment could not be made.";
        }
        if (!ui.dialog.contains(document.activeElement)) pressed.focus();
      },
      function () {
        self._setBusy(false);
        if (self._ui !== ui) return;
        ui.alert.textContent = "The payment server could not be reached. Try again.";
        if (!ui.dialog.contains(document.activeElement)) pressed.focus();
      }
    );
  };

`;
