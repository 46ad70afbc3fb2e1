/* Club nights: a timed round's clock counts down on the phone (without JavaScript the
   page shows the minutes left when it was drawn and the time the round ends); on the
   director's page a refusal or a question appears where the finger is and takes focus. */
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
  // A question ("End table 2's game…", opened): its answer button is in view and focused.
  document.addEventListener("toggle", function (event) {
    var asked = event.target;
    if (!asked.matches || !asked.matches("#director details.confirm") || !asked.open) { return; }
    var answer = asked.querySelector("button[type=submit]");
    if (answer) { answer.scrollIntoView({ block: "nearest" }); answer.focus({ preventScroll: true }); }
  }, true);
  document.addEventListener("DOMContentLoaded", tick);
  document.addEventListener("htmx:afterSettle", tick);
  setInterval(tick, 15000);
}());
