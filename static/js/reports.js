// Health report charts: one bar chart per figure, this week beside the week before.
// Data comes from the json_script element #report-charts (no inline scripts: CSP).
(function () {
  "use strict";
  var source = document.getElementById("report-charts");
  if (!source || typeof Chart === "undefined") return;
  var charts = JSON.parse(source.textContent);
  charts.forEach(function (spec) {
    var canvas = document.getElementById("chart-" + spec.id);
    if (!canvas) return;
    var datasets = [{ label: "This week", data: spec.this, backgroundColor: "#0d6efd" }];
    if (spec.previous) {
      datasets.push({ label: "Week before", data: spec.previous, backgroundColor: "#adb5bd" });
    }
    canvas.chart = new Chart(canvas, {
      type: "bar",
      data: { labels: spec.labels, datasets: datasets },
      options: {
        animation: false,
        responsive: true,
        plugins: { legend: { position: "bottom" } },
        scales: { y: { beginAtZero: true } },
      },
    });
  });
  document.body.dataset.chartsReady = String(charts.length);
})();
