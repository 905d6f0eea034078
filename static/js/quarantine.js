// Quarantine queue: keyboard shortcuts and queue upkeep after htmx decisions.
// Loaded as a file (strict CSP: no inline script). Never touches memory content as HTML.
(function () {
  "use strict";

  function rows() {
    return Array.prototype.slice.call(document.querySelectorAll("[data-entry-row]"));
  }

  function panel() {
    return document.getElementById("entry-panel");
  }

  function currentIndex(list) {
    var current = panel();
    var id = current ? current.getAttribute("data-entry-id") : null;
    for (var i = 0; i < list.length; i++) {
      if (list[i].id === "entry-row-" + id) return i;
    }
    return -1;
  }

  function markActive() {
    var current = panel();
    var id = current ? current.getAttribute("data-entry-id") : null;
    rows().forEach(function (row) {
      row.classList.toggle("table-active", row.id === "entry-row-" + id);
    });
  }

  function move(step) {
    var list = rows();
    if (!list.length || !window.htmx) return;
    var index = currentIndex(list) + step;
    index = Math.max(0, Math.min(list.length - 1, index));
    var url = list[index].getAttribute("data-panel-url");
    window.htmx.ajax("GET", url, { target: "#entry-panel", swap: "outerHTML" });
  }

  function decide(key) {
    var form = document.querySelector('#entry-panel form[data-shortcut="' + key + '"]');
    if (!form) return;
    var reason = form.querySelector('input[name="reason"]');
    if (reason && !reason.value.trim()) {
      reason.focus();
      return;
    }
    if (form.requestSubmit) form.requestSubmit();
    else form.submit();
  }

  function typing(target) {
    var tag = target && target.tagName;
    return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || (target && target.isContentEditable);
  }

  function layout() {
    return document.getElementById("queue-layout");
  }

  function narrow() {
    return window.matchMedia("(max-width: 991.98px)").matches;
  }

  // Narrow screens show the list, then the panel of the chosen entry (with a back link).
  function showPanel(show) {
    var container = layout();
    if (!container) return;
    container.classList.toggle("show-panel", show);
    if (show && narrow()) window.scrollTo(0, container.offsetTop);
  }

  function selectedCount() {
    var counter = document.getElementById("selected-count");
    if (!counter) return;
    counter.textContent = String(
      document.querySelectorAll('#queue-table input[name="entry"]:checked').length
    );
  }

  function toggleCurrent() {
    var list = rows();
    var index = currentIndex(list);
    if (index < 0) return;
    var box = list[index].querySelector('input[name="entry"]');
    if (box) {
      box.checked = !box.checked;
      selectedCount();
    }
  }

  document.addEventListener("change", function (event) {
    var target = event.target;
    if (target.id === "select-all") {
      document.querySelectorAll('#queue-table input[name="entry"]').forEach(function (box) {
        box.checked = target.checked;
      });
    }
    if (target.id === "select-all" || target.name === "entry") selectedCount();
  });

  document.addEventListener("click", function (event) {
    var back = event.target.closest ? event.target.closest("[data-back-to-list]") : null;
    if (back && layout()) {
      event.preventDefault();
      showPanel(false);
      var current = panel();
      var row = current && document.getElementById("entry-row-" + current.getAttribute("data-entry-id"));
      if (row) row.scrollIntoView({ block: "center" });
    }
  });

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (typing(event.target)) {
      if (event.key === "Escape") event.target.blur();
      return;
    }
    if (event.key === " " && rows().length) toggleCurrent();
    else if (event.key === "j") move(1);
    else if (event.key === "k") move(-1);
    else if (event.key === "r" || event.key === "x" || event.key === "e") decide(event.key);
    else return;
    event.preventDefault();
  });

  document.body.addEventListener("htmx:afterSwap", function (event) {
    var trigger = event.detail && event.detail.requestConfig ? event.detail.requestConfig.elt : null;
    if (trigger && trigger.closest && trigger.closest("[data-entry-row]")) showPanel(true);
    var current = panel();
    var removed = current ? current.getAttribute("data-removed-entry") : null;
    if (removed) {
      var row = document.getElementById("entry-row-" + removed);
      if (row) row.remove();
    }
    markActive();
    selectedCount();
  });

  // htmx wires hx-post on swapped-in forms only once the swap settles; mark the panel
  // so a browser test (or a fast keyboard user) knows the decision forms are live.
  document.body.addEventListener("htmx:afterSettle", function () {
    var current = panel();
    if (current) current.setAttribute("data-settled", "true");
  });
})();
