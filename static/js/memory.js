// Memory browser: confirm destructive history actions (rollback, undo, reinstate).
// Loaded as a file because the Content-Security-Policy forbids inline scripts.
"use strict";
document.addEventListener("submit", (event) => {
  const button = event.submitter || event.target.querySelector("[data-confirm]");
  const question = button && button.dataset ? button.dataset.confirm : "";
  if (question && !window.confirm(question)) {
    event.preventDefault();
  }
});
