/* Scorekeeper's own script: progressive enhancement only, every page works without it.
   - card grids: a card tapped into one hand is disabled in the others, and each hand
     shows how many cards it has;
   - copy buttons on the share page. */
(function () {
  "use strict";
  document.documentElement.classList.add("js");

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

  function setUp(root) {
    root.querySelectorAll("form").forEach(function (form) {
      if (form.querySelector("fieldset.grid[data-hand]")) { syncGrids(form); }
    });
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
    if (event.target.matches && event.target.matches("fieldset.grid input[type=checkbox]")) {
      syncGrids(event.target);
    }
  });
  document.addEventListener("DOMContentLoaded", function () { setUp(document); });
  document.addEventListener("htmx:afterSettle", function () { setUp(document); });
}());
