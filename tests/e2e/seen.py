"""What a person sees, for browser tests: an element is seen when its box lies inside the
viewport and a click at its centre would hit it (it, or a descendant, is what
`document.elementFromPoint` returns there): on screen and on top. Playwright's `is_visible`
ignores an ancestor's clipping and whatever covers the element, so it is not enough."""

from playwright.sync_api import expect

ON_SCREEN_AND_ON_TOP = """(element) => {
  const box = element.getBoundingClientRect();
  const inside = box.width > 0 && box.height > 0 && box.left >= 0 && box.top >= 0
    && box.right <= window.innerWidth && box.bottom <= window.innerHeight;
  if (!inside) return false;
  const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  return Boolean(hit && element.contains(hit));
}"""


def on_screen_and_on_top(locator, *, scroll: bool = False) -> bool:
    """Whether the locator's element is seen now; with `scroll`, after scrolling it into view
    as a person would to reach it."""
    expect(locator).to_be_attached()
    if scroll:
        locator.scroll_into_view_if_needed()
    return locator.evaluate(ON_SCREEN_AND_ON_TOP)
