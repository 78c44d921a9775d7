// Filter the clusters by a piece of URL; nothing is fetched.
(function () {
  "use strict";
  var input = document.getElementById("filter");
  var count = document.getElementById("filter-count");
  var clusters = document.querySelectorAll("#clusters details.cluster");
  function update() {
    var q = input.value.toLowerCase();
    var shown = 0;
    clusters.forEach(function (d) {
      var hit = q === "" || d.textContent.toLowerCase().indexOf(q) >= 0;
      d.hidden = !hit;
      if (hit) { shown += 1; }
    });
    count.textContent = shown + " of " + clusters.length + " clusters listed";
  }
  input.addEventListener("input", update);
  update();
  document.body.setAttribute("data-ready", "1");
})();
