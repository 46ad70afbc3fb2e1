/* Club nights: a timed round's clock counts down on the phone (without JavaScript the
   page shows the minutes left when it was drawn and the time the round ends). */
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
  document.addEventListener("DOMContentLoaded", tick);
  document.addEventListener("htmx:afterSettle", tick);
  setInterval(tick, 15000);
}());
