/* Step navigation: the slider and the left/right arrow keys move between the step pages. */
(function () {
  "use strict";
  var body = document.body;
  var count = Number(body.getAttribute("data-steps"));
  var here = Number(body.getAttribute("data-step"));  /* -1: the summary page */
  function page(i) { return "step-" + String(i).padStart(3, "0") + ".html"; }
  function go(i) {
    if (i < 0 || i >= count || i === here) { return; }
    window.location.href = page(i);
  }
  var slider = document.getElementById("step-slider");
  if (slider) {
    slider.addEventListener("change", function () { go(Number(slider.value)); });
  }
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) { return; }
    var t = e.target;
    if (t && (t.tagName === "TEXTAREA" || (t.tagName === "INPUT" && t.type !== "range"))) { return; }
    if (e.key === "ArrowLeft") { e.preventDefault(); go(here < 0 ? 0 : here - 1); }
    if (e.key === "ArrowRight") { e.preventDefault(); go(here < 0 ? 0 : here + 1); }
  });
})();
