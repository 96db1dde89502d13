/* The menu button of narrow screens: shows and hides the navigation. A file of its own rather
   than an inline script, which the site's Content-Security-Policy would refuse. */
(function () {
  var button = document.querySelector("[data-menu-button]");
  var menu = button && document.getElementById(button.getAttribute("aria-controls"));
  if (!menu) { return; }
  button.addEventListener("click", function () {
    var open = button.getAttribute("aria-expanded") !== "true";
    button.setAttribute("aria-expanded", String(open));
    menu.classList.toggle("is-open", open);
  });
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && button.getAttribute("aria-expanded") === "true") {
      button.setAttribute("aria-expanded", "false");
      menu.classList.remove("is-open");
      button.focus();
    }
  });
})();
