/* Scorekeeper: sharing a game and joining one (no inline scripts: the CSP forbids them).
   - the join link carries its code in the fragment (#code): the confirm page fills
     the code field with it and drops it from the address bar and history;
   - Share opens the phone's share sheet where it has one (navigator.share, which needs
     HTTPS); elsewhere Copy puts the link on the clipboard (the clipboard API on HTTPS,
     the selection on a LAN's plain HTTP). */
(function () {
  "use strict";

  function fillCodeFromFragment() {
    var code = decodeURIComponent(window.location.hash.slice(1));
    // A fragment naming an element is an anchor (#invite, where renewing returns), not a code.
    if (code.length < 6 || document.getElementById(code)) { return; }
    var field = document.querySelector("form[data-join] input[name=code]");
    if (field && !field.value) { field.value = code; }
    if (window.history && window.history.replaceState) {
      window.history.replaceState(null, "", window.location.pathname + window.location.search);
    }
  }

  function copied(button) {
    var label = button.textContent;
    button.textContent = "Copied";
    window.setTimeout(function () { button.textContent = label; }, 2000);
  }

  function copyFrom(input, button) {
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(input.value).then(function () { copied(button); });
      return;
    }
    input.focus();
    input.select();
    input.setSelectionRange(0, input.value.length);
    try {
      if (document.execCommand("copy")) { copied(button); }
    } catch (err) { /* the text stays selected for a long press */ }
  }

  function wireButtons() {
    var canShare = typeof navigator.share === "function";
    document.querySelectorAll("button.share[data-share]").forEach(function (button) {
      if (!canShare) { return; }
      button.hidden = false;
      button.addEventListener("click", function () {
        var input = document.getElementById(button.dataset.share);
        navigator.share({ title: button.dataset.title, url: input.value }).catch(function () {});
      });
    });
    document.querySelectorAll("button.copy-link[data-copy-link]").forEach(function (button) {
      if (canShare && document.querySelector("button.share[data-share='" + button.dataset.copyLink + "']")) {
        button.hidden = true;
        return;
      }
      button.addEventListener("click", function () {
        copyFrom(document.getElementById(button.dataset.copyLink), button);
      });
    });
    document.querySelectorAll("input.link-text").forEach(function (input) {
      input.addEventListener("focus", function () { input.select(); });
    });
  }

  function start() {
    fillCodeFromFragment();
    wireButtons();
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
