// The script `dev` adds to every page: live reload over server-sent events, an overlay
// that shows build errors while the last good page stays on screen, and a panel for the
// warnings (broken links, missing translations) of a page that did build. Plain
// ES2017 in a string: it is served as is, not bundled.
export const DEV_EVENTS_PATH = '/__ir-site/events';
export const DEV_CLIENT_PATH = '/__ir-site/dev-client.js';

export const DEV_CLIENT_SCRIPT = `(function () {
  // One box of messages: a title, the text as the terminal prints it, a Dismiss button.
  function box(id, role, css, title, text, gap, dismiss) {
    var el = document.createElement('div');
    el.id = id;
    el.setAttribute('role', role);
    el.style.cssText = css + ';overflow:auto;color:#fff;font:13px/1.5 ui-monospace,Menlo,Consolas,monospace';
    var pre = document.createElement('pre');
    pre.style.cssText = 'white-space:pre-wrap;margin:0';
    pre.textContent = text;
    var close = document.createElement('button');
    close.type = 'button';
    close.textContent = 'Dismiss';
    close.style.cssText = 'margin-top:' + gap + ';font:inherit;padding:.2rem .8rem';
    close.onclick = dismiss;
    el.append(title, pre, close);
    document.body.appendChild(el);
    return { el: el, close: close };
  }
  var overlay = null;
  function hide() { if (overlay) { overlay.remove(); overlay = null; } }
  function show(message) {
    hide();
    var title = document.createElement('h2');
    title.id = 'ir-site-error-title';
    title.style.cssText = 'margin:0 0 1rem;color:#ff8a80;font-size:1.1rem';
    title.textContent = 'ir-site: the last change does not build. This page is the last good version.';
    var made = box('ir-site-error-overlay', 'alertdialog', 'position:fixed;inset:0;z-index:2147483647;background:rgba(20,20,28,.94);padding:2rem', title, message, '1.5rem', hide);
    overlay = made.el;
    overlay.setAttribute('aria-labelledby', 'ir-site-error-title');
    made.close.focus();
  }
  // Warnings do not stop the build: a panel at the foot of the page, which takes no focus.
  var panel = null;
  function hideWarnings() { if (panel) { panel.remove(); panel = null; } }
  function showWarnings(data) {
    hideWarnings();
    var title = document.createElement('strong');
    title.style.cssText = 'display:block;margin-bottom:.5rem;color:#ffd54f';
    title.textContent = 'ir-site: ' + data.count + ' warning' + (data.count === 1 ? '' : 's') + ' (the page is built; build --strict would fail)';
    panel = box('ir-site-warnings', 'status', 'position:fixed;left:0;right:0;bottom:0;max-height:40vh;z-index:2147483646;background:rgba(40,34,10,.95);padding:1rem 2rem', title, data.message, '.75rem', hideWarnings).el;
  }
  var events = new EventSource('${DEV_EVENTS_PATH}');
  events.addEventListener('build-error', function (e) { hideWarnings(); show(JSON.parse(e.data).message); });
  events.addEventListener('build-ok', function () { hide(); hideWarnings(); });
  events.addEventListener('build-warnings', function (e) { showWarnings(JSON.parse(e.data)); });
  events.addEventListener('reload', function (e) {
    var paths = JSON.parse(e.data).paths;
    if (paths === '*' || paths.indexOf(location.pathname) !== -1) location.reload();
  });
})();
`;

export function injectDevClient(html: string): string {
  const tag = `<script src="${DEV_CLIENT_PATH}" defer></script>`;
  return html.includes('</body>') ? html.replace('</body>', `${tag}\n</body>`) : html + tag;
}
