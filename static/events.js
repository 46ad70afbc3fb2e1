/* Club nights: a timed round's clock counts down on the phone (without JavaScript the
   page shows the minutes left when it was drawn and the time the round ends); on the
   director's page a refusal, a question or a write done appears where the finger is and
   takes focus; the projector pages its standings by itself. */
(function () {
  "use strict";
  function tick() {
    document.querySelectorAll(".round-clock[data-ends]").forEach(function (clock) {
      var ends = new Date(clock.getAttribute("data-ends")).getTime();
      var left = Math.max(0, Math.ceil((ends - Date.now()) / 60000));
      var shown = clock.querySelector(".clock-left");
      if (shown) { shown.textContent = left > 0 ? left + " min" : "time is up"; }
      clock.classList.toggle("over", left === 0);
    });
  }
  function inView(message) {
    message.setAttribute("tabindex", "-1");
    message.scrollIntoView({ block: "center" });
    message.focus({ preventScroll: true });
  }
  // A refused director's form comes back with its reason (at the top, or under the field
  // at fault): it is brought to the finger and focused, wherever the page was scrolled.
  document.addEventListener("htmx:afterSettle", function () {
    var refused = document.querySelector("#director #refused, #director .errors");
    if (refused) { inView(refused); }
  });
  // A director's write that went through reloads the page (htmx follows HX-Redirect): the
  // page comes back at the section the finger was in, its heading focused, the change shown.
  document.addEventListener("htmx:beforeRequest", function (event) {
    var form = event.target.closest && event.target.closest("#director form");
    var section = form && form.closest("section[aria-labelledby]");
    if (section && window.sessionStorage) {
      sessionStorage.setItem("director-section", section.getAttribute("aria-labelledby"));
    }
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail && event.detail.xhr;
    if (window.sessionStorage && xhr && !xhr.getResponseHeader("HX-Redirect")) {
      sessionStorage.removeItem("director-section");  // refused: the page stays, nothing to come back to
    }
  });
  document.addEventListener("DOMContentLoaded", function () {
    var id = window.sessionStorage && sessionStorage.getItem("director-section");
    if (!id) { return; }
    sessionStorage.removeItem("director-section");
    var heading = document.getElementById(id);
    if (heading && !document.querySelector("#director #refused, #director .errors")) { inView(heading); }
  });
  // A question ("End table 2's game…", opened): its answer button is in view and focused.
  document.addEventListener("toggle", function (event) {
    var asked = event.target;
    if (!asked.matches || !asked.matches("#director details.confirm") || !asked.open) { return; }
    var answer = asked.querySelector("button[type=submit]");
    if (answer) { answer.scrollIntoView({ block: "nearest" }); answer.focus({ preventScroll: true }); }
  }, true);
  /* The projector (75rem wide and up): the standings and the round's tables each page
     through their rows by themselves, a page every few seconds ("Page 1 of 3"), so no
     row is cut off at any size or number of players; a phone scrolls them instead.
     The page shown is kept across the polls' swaps. */
  var shown = {};
  function pages(box) {
    var items = Array.prototype.slice.call(box.querySelectorAll(box.dataset.pager));
    items.forEach(function (item) { item.hidden = false; });
    if (!items.length) { return []; }
    var room = box.getBoundingClientRect().bottom - items[0].getBoundingClientRect().top;
    var found = [], page = [], top = null;
    items.forEach(function (item) {
      var at = item.getBoundingClientRect();
      if (top === null) { top = at.top; }
      if (page.length && at.bottom - top > room + 0.5) { found.push(page); page = []; top = at.top; }
      page.push(item);
    });
    if (page.length) { found.push(page); }
    return found;
  }
  function showPage(box) {
    var name = box.dataset.name;
    var all = box.pagesFound || [];
    var note = box.parentNode.querySelector(".page-of[data-for='" + name + "']");
    var index = all.length ? (shown[name] || 0) % all.length : 0;
    shown[name] = index;
    all.forEach(function (page, n) { page.forEach(function (item) { item.hidden = n !== index; }); });
    if (note) {
      note.hidden = all.length < 2;
      note.textContent = "Page " + (index + 1) + " of " + all.length;
    }
  }
  function layOut() {
    var projector = document.querySelector(".projector");
    if (!projector) { return; }
    var wide = window.matchMedia("(min-width: 75rem)").matches;
    projector.classList.toggle("paging", wide);
    projector.style.height = wide
      ? Math.floor(window.innerHeight - projector.getBoundingClientRect().top - window.scrollY - 8) + "px" : "";
    projector.querySelectorAll("[data-pager]").forEach(function (box) {
      box.pagesFound = wide ? pages(box) : [];
      if (!wide) { box.querySelectorAll(box.dataset.pager).forEach(function (item) { item.hidden = false; }); }
      showPage(box);
    });
  }
  var turning = null;
  function turnPages() {
    var projector = document.querySelector(".projector");
    if (!projector || turning) { return; }
    var seconds = parseInt(projector.getAttribute("data-page-seconds"), 10) || 8;
    turning = setInterval(function () {
      document.querySelectorAll(".projector [data-pager]").forEach(function (box) {
        if ((box.pagesFound || []).length > 1) { shown[box.dataset.name] = (shown[box.dataset.name] || 0) + 1; showPage(box); }
      });
    }, seconds * 1000);
  }
  document.addEventListener("DOMContentLoaded", function () { layOut(); turnPages(); });
  document.addEventListener("htmx:afterSettle", layOut);
  window.addEventListener("resize", layOut);
  document.addEventListener("DOMContentLoaded", tick);
  document.addEventListener("htmx:afterSettle", tick);
  setInterval(tick, 15000);
}());
