// Conflicts review screen: select-all, merge editor toggle, keyboard shortcuts.
// Loaded as a file (strict CSP: no inline scripts). Works again after htmx swaps.
(function () {
  "use strict";

  function syncMergeEditor(root) {
    var form = (root || document).querySelector("#resolve-form");
    if (!form) return;
    var editor = form.querySelector("#merge-editor");
    var chosen = form.querySelector("input[name=resolution]:checked");
    if (editor) editor.classList.toggle("d-none", !chosen || chosen.value !== "merge");
  }

  document.addEventListener("change", function (event) {
    var target = event.target;
    if (target.id === "select-all") {
      document.querySelectorAll("#conflict-rows input[name=ids]").forEach(function (box) {
        box.checked = target.checked;
      });
    }
    if (target.name === "resolution") syncMergeEditor();
  });

  document.addEventListener("keydown", function (event) {
    var tag = (event.target.tagName || "").toLowerCase();
    if (tag === "textarea" || tag === "input" || event.ctrlKey || event.metaKey || event.altKey) return;
    var radio = document.querySelector('#resolve-form input[data-shortcut="' + event.key + '"]');
    if (radio) {
      radio.checked = true;
      syncMergeEditor();
      var reason = document.querySelector("#id_reason");
      if (reason) reason.focus();
      event.preventDefault();
    }
  });

  document.addEventListener("DOMContentLoaded", function () { syncMergeEditor(); });
  document.body.addEventListener("htmx:afterSwap", function () { syncMergeEditor(); });
})();
