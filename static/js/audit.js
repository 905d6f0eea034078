// Audit log viewer: [ and ] page newer/older (no inline scripts: CSP).
(function () {
  "use strict";
  document.addEventListener("keydown", function (event) {
    var target = event.target;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (target && (target.isContentEditable || /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName))) return;
    var link = null;
    if (event.key === "[") link = document.getElementById("previous-page");
    if (event.key === "]") link = document.getElementById("next-page");
    if (link) {
      event.preventDefault();
      window.location.assign(link.href);
    }
  });
})();
