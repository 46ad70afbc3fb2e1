/* Scorekeeper's own script: progressive enhancement only, every page works without it.
   - card grids: a card tapped into one hand is disabled in the others, each hand shows
     how many cards it has, the grid closes by itself when the hand is full and the next
     empty hand opens; in meld mode the first and last card of a run or set fill it;
   - counts: a complete count moves on to the next player by itself; a keypad under
     the count being typed (digits, a key to take one back, Next) keeps the phone's
     keyboard closed, so a one-digit count moves on with one tap on Next;
   - the live preview marks the fields it names;
   - times are shown in the phone's own time zone;
   - form errors are scrolled into view and focused;
   - a box the server could not be reached to save stays on the phone until it is sent;
   - the Undo bar goes after its time;
   - a sheet that cannot reach the server says since when it is not current, and the
     service worker (sw.js) is registered where the browser allows one (HTTPS or
     localhost) so the last sheet can be read offline;
   - copy buttons on the share page. */
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  /* --- card grids ------------------------------------------------------------------ */

  function syncGrids(root) {
    var form = root.closest ? (root.closest("form") || root) : root;
    var grids = form.querySelectorAll("fieldset.grid[data-hand]");
    if (!grids.length) { return; }
    var owner = {};
    grids.forEach(function (grid) {
      grid.querySelectorAll("input[type=checkbox]:checked").forEach(function (box) {
        owner[box.value] = grid.dataset.player || "another hand";
      });
    });
    grids.forEach(function (grid) {
      var picked = 0;
      grid.querySelectorAll("input[type=checkbox]").forEach(function (box) {
        if (box.checked) { picked += 1; box.disabled = false; box.parentNode.removeAttribute("title"); return; }
        var taken = owner[box.value];
        box.disabled = Boolean(taken) && taken !== grid.dataset.player;
        if (box.disabled) { box.parentNode.title = "in " + taken + "'s hand"; }
        else { box.parentNode.removeAttribute("title"); }
      });
      form.querySelectorAll('[data-picked="' + grid.dataset.hand + '"]').forEach(function (label) {
        label.textContent = picked + (picked === 1 ? " card" : " cards");
      });
    });
  }

  function picked(grid) {
    return grid.querySelectorAll("input[type=checkbox]:checked").length;
  }

  /* A full hand needs no more taps: close its grid and open the next hand that has
     neither cards nor a count yet, so a showdown flows from one hand to the next. */
  function closeIfFull(grid) {
    var size = parseInt(grid.dataset.handSize || "10", 10);
    if (picked(grid) < size) { return; }
    var details = grid.closest("details");
    if (!details) { return; }
    details.open = false;
    var hands = Array.prototype.slice.call(grid.closest("form").querySelectorAll("fieldset.hand"));
    var here = hands.indexOf(grid.closest("fieldset.hand"));
    for (var i = here + 1; i < hands.length; i += 1) {
      var next = hands[i];
      var count = next.querySelector("input.count");
      var nextGrid = next.querySelector("fieldset.grid");
      if (next.offsetParent === null || !nextGrid) { continue; }
      if (picked(nextGrid) === 0 && !(count && count.value)) {
        var nextDetails = next.querySelector("details.cards");
        nextDetails.open = true;
        nextDetails.scrollIntoView({ block: "start" });
        return;
      }
    }
    details.closest("fieldset.hand").scrollIntoView({ block: "start" });
  }

  function meldOn(grid) {
    var toggle = grid.querySelector(".meld-toggle");
    return Boolean(toggle) && toggle.getAttribute("aria-pressed") === "true";
  }

  function position(box) {
    var row = box.closest(".suit-row");
    var rows = Array.prototype.slice.call(row.parentNode.querySelectorAll(".suit-row"));
    var cells = Array.prototype.slice.call(row.querySelectorAll("input"));
    return { row: rows.indexOf(row), col: cells.indexOf(box), rows: rows };
  }

  /* The cards from the first tapped to the last, along a suit (a run) or a rank (a set);
     null unless that makes three cards or more, all free. */
  function meldBetween(first, last) {
    var a = position(first), b = position(last), cards = [], i;
    if (a.row === b.row && Math.abs(a.col - b.col) >= 2) {
      var row = a.rows[a.row].querySelectorAll("input");
      for (i = Math.min(a.col, b.col); i <= Math.max(a.col, b.col); i += 1) { cards.push(row[i]); }
    } else if (a.col === b.col && Math.abs(a.row - b.row) >= 2) {
      for (i = Math.min(a.row, b.row); i <= Math.max(a.row, b.row); i += 1) {
        cards.push(a.rows[i].querySelectorAll("input")[a.col]);
      }
    } else {
      return null;
    }
    return cards.every(function (box) { return !box.disabled; }) ? cards : null;
  }

  function setAnchor(grid, box) {
    grid.querySelectorAll(".tap.anchor").forEach(function (l) { l.classList.remove("anchor"); });
    grid.meldAnchor = box;
    if (box) { box.parentNode.classList.add("anchor"); }
  }

  /* Meld mode: taps come in pairs, first and last card; a pair in one suit or one rank
     fills the cards between, any other second tap starts a new pair. */
  function meldTap(grid, box) {
    if (!meldOn(grid)) { return; }
    if (!box.checked) { if (grid.meldAnchor === box) { setAnchor(grid, null); } return; }
    var anchor = grid.meldAnchor;
    var meld = anchor && anchor.checked ? meldBetween(anchor, box) : null;
    if (!meld) { setAnchor(grid, box); return; }
    meld.forEach(function (card) { card.checked = true; });
    setAnchor(grid, null);
    box.dispatchEvent(new Event("change", { bubbles: true }));  // the live preview
  }

  function onGridChange(box) {
    var grid = box.closest("fieldset.grid[data-hand]");
    if (!grid) { return; }
    meldTap(grid, box);
    syncGrids(box);
    if (box.checked) { closeIfFull(grid); }
  }

  /* --- counts ---------------------------------------------------------------------- */

  function checkedValue(form, name) {
    var box = form.querySelector("input[name=" + name + "]:checked");
    return box ? box.value : "";
  }

  /* Complete: two digits, or a digit no longer count can start (0 always; for the
     knocker, a digit whose tens would pass the knock limit). */
  function countComplete(input) {
    var value = input.value.trim();
    if (!/^\d+$/.test(value)) { return false; }
    if (value.length >= 2 || value === "0") { return true; }
    var form = input.form;
    var knocker = checkedValue(form, "ending") === "knock" && checkedValue(form, "by") === input.dataset.player;
    var most = knocker ? parseInt(form.dataset.knockLimit || "98", 10) : 98;
    return parseInt(value, 10) * 10 > most;
  }

  /* The next count still to type: visible, not the gin hand's, no cards tapped. */
  function nextCount(input) {
    var form = input.form;
    var counts = Array.prototype.slice.call(form.querySelectorAll("input.count"));
    var ending = checkedValue(form, "ending"), by = checkedValue(form, "by");
    for (var i = counts.indexOf(input) + 1; i < counts.length; i += 1) {
      var next = counts[i];
      var hand = next.closest("fieldset.hand");
      if (next.offsetParent === null || (ending === "gin" && by === next.dataset.player)) { continue; }
      if (hand && hand.querySelector(".grid input:checked")) { continue; }
      return next;
    }
    return form.querySelector("#save-box");
  }

  function advance(input) {
    var next = nextCount(input);
    if (next) { next.focus(); }
    if (!next || !next.matches("input.count")) { hideKeypad(); }
  }

  /* --- the live preview's faults ----------------------------------------------------- */

  function markFaults(preview) {
    var form = preview.closest("form");
    if (!form) { return; }
    form.querySelectorAll(".invalid").forEach(function (el) { el.classList.remove("invalid"); });
    form.querySelectorAll("[aria-invalid=true]").forEach(function (el) { el.setAttribute("aria-invalid", "false"); });
    preview.querySelectorAll("[data-fault]").forEach(function (item) {
      var id = item.dataset.fault;
      var field = document.getElementById(id) || form.querySelector('[name="' + id + '"]');
      if (!field || notYetEntered(field)) { return; }
      if (field.matches("input:not([type=radio]):not([type=checkbox]), select")) {
        field.setAttribute("aria-invalid", "true");
      }
      var holder = field.matches("fieldset") ? field : field.closest("fieldset");
      if (holder) { holder.classList.add("invalid"); }
    });
  }

  /* A hand nobody has entered yet is not wrong, only to come: the preview names what
     is missing, but the hand's panel turns red only once something was entered in it
     (a save still marks it: the server's page does). */
  function notYetEntered(field) {
    var hand = field.closest("fieldset.hand");
    if (!hand) { return false; }
    var count = hand.querySelector("input.count");
    return !(count && count.value.trim()) && !hand.querySelector(".grid input:checked");
  }

  /* --- the count keypad ------------------------------------------------------------ */

  var keypad = null;
  var keypadFor = null;

  function makeKeypad() {
    var pad = document.createElement("div");
    pad.className = "keypad";
    pad.setAttribute("role", "group");
    pad.setAttribute("aria-label", "Count keypad");
    ["1", "2", "3", "back", "4", "5", "6", "0", "7", "8", "9", "next"].forEach(function (key) {
      var button = document.createElement("button");
      button.type = "button";
      button.dataset.key = key;
      if (key === "back") {
        button.textContent = "⌫";
        button.setAttribute("aria-label", "Take back a digit");
      } else if (key === "next") {
        button.textContent = "Next";
        button.className = "next";
      } else {
        button.textContent = key;
      }
      pad.appendChild(button);
    });
    // The count keeps the focus: a key tapped does not take it.
    pad.addEventListener("mousedown", function (event) { event.preventDefault(); });
    pad.addEventListener("click", function (event) {
      var button = event.target.closest && event.target.closest("button[data-key]");
      var input = keypadFor;
      if (!button || !input) { return; }
      var key = button.dataset.key;
      if (key === "next") { advance(input); return; }
      input.value = key === "back" ? input.value.slice(0, -1) : (input.value + key).slice(0, 2);
      input.focus({ preventScroll: true });
      input.dispatchEvent(new Event("input", { bubbles: true }));  // moves on when complete
    });
    return pad;
  }

  function showKeypad(input) {
    if (!keypad) { keypad = makeKeypad(); }
    keypadFor = input;
    var row = input.closest(".count-row") || input;
    if (row.nextSibling !== keypad || keypad.hidden) {
      // The keypad follows the field the finger chose: moved from above it, the page
      // would shift up by the keypad's height under the finger (the tap would end on the
      // fieldset), so the page scrolls back by what the field moved.
      var before = input.getBoundingClientRect().top;
      row.parentNode.insertBefore(keypad, row.nextSibling);
      keypad.hidden = false;
      var moved = input.getBoundingClientRect().top - before;
      if (moved) { window.scrollBy(0, moved); }
    }
  }

  function hideKeypad() {
    if (keypad) { keypad.hidden = true; }
    keypadFor = null;
  }

  /* --- a save the server never answered stays on the phone ------------------------ */

  /* A form marked data-keep (a box being recorded or corrected) that cannot reach the
     server is kept in localStorage, with its idempotency key, until the server answers:
     the form says "not saved yet", and sends it again when the connection returns (the
     online event, the Retry button, or the page opened again). The same key means the
     server stores it once even if the first send did arrive. */
  var PENDING = "scorekeeper:pending:";
  var KEEP_HOURS = 12;

  function pendingKey(form) { return PENDING + form.getAttribute("action"); }

  function readPending(form) {
    try {
      var kept = JSON.parse(window.localStorage.getItem(pendingKey(form)) || "null");
      if (kept && Date.now() - kept.at < KEEP_HOURS * 3600 * 1000) { return kept; }
    } catch (ignore) { /* storage off or garbage: nothing kept */ }
    return null;
  }

  function keep(form) {
    var fields = [];
    new FormData(form).forEach(function (value, name) {
      if (typeof value === "string") { fields.push([name, value]); }
    });
    try {
      window.localStorage.setItem(pendingKey(form), JSON.stringify({ at: Date.now(), fields: fields }));
    } catch (ignore) { /* storage full or off: the form itself still holds the entry */ }
  }

  function forget(form) {
    try { window.localStorage.removeItem(pendingKey(form)); } catch (ignore) { /* nothing kept */ }
    var shown = form.querySelector(".pending");
    if (shown) { shown.remove(); }
  }

  function showPending(form) {
    if (form.querySelector(".pending")) { return; }
    var box = document.createElement("div");
    box.className = "pending";
    box.setAttribute("role", "alert");
    var text = document.createElement("p");
    text.textContent = "Not saved yet: the server cannot be reached. This entry is kept on " +
      "this phone and is sent once the connection is back.";
    var retry = document.createElement("button");
    retry.type = "button";
    retry.className = "primary retry";
    retry.textContent = "Retry now";
    box.appendChild(text);
    box.appendChild(retry);
    form.insertBefore(box, form.firstChild);
    box.scrollIntoView({ block: "nearest" });
  }

  /* Put a kept entry back into the form (a reload shows a fresh one): every field,
     the idempotency key, version and box number included; the CSRF token stays fresh. */
  function restore(form, fields) {
    form.querySelectorAll("input[type=checkbox], input[type=radio]").forEach(function (box) { box.checked = false; });
    form.querySelectorAll("select[multiple] option").forEach(function (option) { option.selected = false; });
    fields.forEach(function (pair) {
      if (pair[0] === "csrf_token") { return; }
      form.querySelectorAll('[name="' + pair[0].replace(/["\\]/g, "") + '"]').forEach(function (field) {
        if (field.type === "checkbox" || field.type === "radio") {
          if (field.value === pair[1]) { field.checked = true; }
        } else if (field.tagName === "SELECT" && field.multiple) {
          Array.prototype.forEach.call(field.options, function (option) {
            if (option.value === pair[1]) { option.selected = true; }
          });
        } else {
          field.value = pair[1];
        }
      });
    });
    syncGrids(form);
  }

  function resend(form) {
    if (!readPending(form) || form.classList.contains("htmx-request")) { return; }
    var save = form.querySelector("#save-box");
    if (form.requestSubmit) { form.requestSubmit(save || undefined); }
  }

  /* The Undo bar goes after its seconds; once another phone wrote (the polled sheet
     has a newer version) it says the undo is no longer possible. */
  function setUpUndo(root) {
    var bar = root.querySelector ? root.querySelector(".undo-bar[data-seconds]") : null;
    if (!bar || bar.dataset.timer) { return; }
    bar.dataset.timer = "1";
    window.setTimeout(function () { bar.remove(); }, parseInt(bar.dataset.seconds, 10) * 1000);
  }

  function undoOutdated() {
    var bar = document.querySelector(".undo-bar[data-version]");
    var sheet = document.getElementById("sheet");
    if (!bar || !sheet || sheet.dataset.version === bar.dataset.version) { return; }
    var form = bar.querySelector("form");
    if (form) { form.remove(); }
    bar.querySelector("p").textContent = "Another phone has changed the game since: " +
      "this can no longer be undone here. Correct the box on the sheet if need be.";
  }

  function setUpPending(root) {
    root.querySelectorAll("form[data-keep]").forEach(function (form) {
      var kept = readPending(form);
      if (!kept) { return; }
      restore(form, kept.fields);
      showPending(form);
      if (navigator.onLine) { resend(form); }
    });
  }

  function keptForm(event) {
    var elt = event.detail && event.detail.elt;
    return elt && elt.matches && elt.matches("form[data-keep]") ? elt : null;
  }

  /* --- a sheet that cannot reach the server is never shown as current -------------- */

  var sheetAnswered = new Date();

  function sheetStale() {
    var sheet = document.getElementById("sheet");
    if (!sheet || document.getElementById("sheet-stale")) { return; }
    var note = document.createElement("p");
    note.id = "sheet-stale";
    note.className = "offline-note";
    note.setAttribute("role", "alert");
    var time = document.createElement("time");
    time.setAttribute("datetime", sheetAnswered.toISOString());
    note.appendChild(document.createTextNode("Not connected: this is the sheet as it was at "));
    note.appendChild(time);
    note.appendChild(document.createTextNode(". Other phones' boxes since then are not shown; " +
      "it updates again once the connection is back."));
    sheet.parentNode.insertBefore(note, sheet);
    localTimes(note);
  }

  function sheetCurrent() {
    sheetAnswered = new Date();
    var note = document.getElementById("sheet-stale");
    if (note) { note.remove(); }
  }

  /* A page the worker served offline (main.offline: a kept sheet, or "no copy") says it
     updates once the connection is back, so it asks the server when the phone says it is
     online again and every few seconds after, and opens itself again once answered. It
     asks with HEAD, which the worker passes by (it answers only GET), so an answer is the
     server's own. A box form served offline is never opened again: it may hold an entry. */
  var RETRY_SECONDS = 5;

  function awaitServer() {
    if (!document.querySelector("main.offline") || !window.fetch) { return; }
    var asking = false;
    function ask() {
      if (asking || !navigator.onLine) { return; }
      asking = true;
      window.fetch(window.location.href, { method: "HEAD", cache: "no-store" }).then(function () {
        window.location.reload();
      }, function () { asking = false; });
    }
    window.addEventListener("online", ask);
    window.setInterval(ask, RETRY_SECONDS * 1000);
  }

  function registerWorker() {
    var url = document.documentElement.dataset.sw;
    if (!url || !("serviceWorker" in navigator) || !window.isSecureContext) { return; }
    navigator.serviceWorker.register(url, { scope: "/" }).catch(function () {
      /* no worker (private mode, an old browser): the pages work as they are */
    });
  }

  /* --- times, errors, copy buttons ------------------------------------------------- */

  function localTimes(root) {
    root.querySelectorAll("time[datetime]").forEach(function (time) {
      var when = new Date(time.getAttribute("datetime"));
      if (isNaN(when.getTime())) { return; }
      time.textContent = when.toLocaleString(undefined, {
        day: "numeric", month: "short", hour: "2-digit", minute: "2-digit"
      });
      time.title = when.toString();
    });
  }

  function showErrors(root) {
    var first = root.querySelector(".form-errors");
    if (!first) { return; }
    first.scrollIntoView({ block: "start" });
    first.focus({ preventScroll: true });
  }

  function setUp(root) {
    root.querySelectorAll("form").forEach(function (form) {
      if (form.querySelector("fieldset.grid[data-hand]")) { syncGrids(form); }
    });
    root.querySelectorAll(".meld-toggle").forEach(function (toggle) {
      toggle.hidden = false;
    });
    root.querySelectorAll("input.count").forEach(function (input) {
      input.setAttribute("inputmode", "none");  // the page's keypad, not the phone's keyboard
    });
    localTimes(root);
    setUpUndo(root);
    undoOutdated();
    root.querySelectorAll("button.copy[data-copy]").forEach(function (button) {
      if (!navigator.clipboard) { return; }
      button.hidden = false;
      button.addEventListener("click", function () {
        var input = document.getElementById(button.dataset.copy);
        navigator.clipboard.writeText(input.value).then(function () {
          button.textContent = "Copied";
        });
      });
    });
  }

  document.addEventListener("change", function (event) {
    var target = event.target;
    if (event.isTrusted && target.matches && target.matches("fieldset.grid input[type=checkbox]")) {
      onGridChange(target);
    }
  });
  document.addEventListener("htmx:sendError", function (event) {
    var form = keptForm(event);
    if (form) { keep(form); showPending(form); }
    if (event.detail && event.detail.elt && event.detail.elt.id === "sheet") { sheetStale(); }
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var form = keptForm(event);
    var xhr = event.detail.xhr;
    if (form && xhr && xhr.status > 0) { forget(form); }  // the server answered
    if (event.detail.elt && event.detail.elt.id === "sheet" && xhr && xhr.status > 0) {
      sheetCurrent();
    }
  });
  window.addEventListener("online", function () {
    document.querySelectorAll("form[data-keep]").forEach(resend);
  });
  document.addEventListener("click", function (event) {
    // Done with counts: the keypad goes once a tap elsewhere is over (not as it starts,
    // which would move what the finger is on).
    var count = event.target.matches && event.target.matches("input.count");
    if (count) { showKeypad(event.target); }  // tapped again once hidden: it comes back
    else if (keypad && !keypad.hidden && !keypad.contains(event.target) &&
        !(keypadFor && event.target === keypadFor.closest("fieldset.hand"))) { hideKeypad(); }
    var retry = event.target.closest && event.target.closest(".pending .retry");
    if (retry) { resend(retry.closest("form")); return; }
    var toggle = event.target.closest && event.target.closest(".meld-toggle");
    if (!toggle) { return; }
    var on = toggle.getAttribute("aria-pressed") !== "true";
    toggle.setAttribute("aria-pressed", on ? "true" : "false");
    setAnchor(toggle.closest("fieldset.grid"), null);
  });
  document.addEventListener("input", function (event) {
    var target = event.target;
    if (target.matches && target.matches("input.count") && countComplete(target)) { advance(target); }
  });
  document.addEventListener("focusin", function (event) {
    var target = event.target;
    if (target.matches && target.matches("input.count")) { showKeypad(target); }
  });
  document.addEventListener("keydown", function (event) {
    var target = event.target;
    if (event.key === "Enter" && target.matches && target.matches("input.count")) {
      event.preventDefault();
      advance(target);
    }
  });
  document.addEventListener("DOMContentLoaded", function () {
    setUp(document);
    setUpPending(document);  // only as a page opens: a swapped-in form is the server's answer
    showErrors(document);
    registerWorker();
    awaitServer();
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    setUp(document);
    if (event.target.id === "preview") { markFaults(event.target); }
    else { showErrors(event.target); }
  });
}());
