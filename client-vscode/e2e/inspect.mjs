// What the drive reads off a rendered page beyond its text: where lines wrap. Each function runs
// inside the page (or a webview's frame) through `evaluate`, so it takes and returns plain data.

/**
 * The places where an element matching `selector` wraps inside a word: a line break between two
 * characters of one text node where the first is not one of `breakAfter` (a regular expression's
 * character class: by default a space, a slash, a hyphen or a dot-separator, so that a path may
 * wrap after a `/`). Each as "text|rest".
 */
export function wordsBrokenMidway({ selector, breakAfter = "\\s/\\-·" }) {
  const allowed = new RegExp(`[${breakAfter}]`);
  const found = [];
  for (const element of document.querySelectorAll(selector)) {
    const walker = document.createTreeWalker(element, 4); // NodeFilter.SHOW_TEXT
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? "";
      let previousTop;
      for (let i = 0; i < text.length; i++) {
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const rect = range.getClientRects()[0];
        if (!rect || /\s/.test(text[i])) {
          continue;
        }
        if (previousTop !== undefined && rect.top > previousTop + 2 && !allowed.test(text[i - 1])) {
          found.push(`${text.slice(0, i)}|${text.slice(i)}`);
        }
        previousTop = rect.top;
      }
    }
  }
  return found;
}

/** Whether an element matching `selector` holds more than it shows sideways (a clipped table). */
export function clippedSideways(selector) {
  return [...document.querySelectorAll(selector)].some((element) => element.scrollWidth > element.clientWidth + 1);
}

/** Whether the page scrolls sideways (something wider than the view). */
export function scrollsSideways() {
  return document.documentElement.scrollWidth > document.documentElement.clientWidth;
}
