// The script `dev` adds to every page: live reload over server-sent events, an overlay
// that shows build errors while the last good page stays on screen, and a panel for the
// warnings (broken links, missing translations) of a page that did build. Plain
// ES2017 in a string: it is served as is, not bundled.
export const DEV_EVENTS_PATH = '/__ir-site/events';
export const DEV_CLIENT_PATH = '/__ir-site/dev-client.js';

export const DEV_CLIENT_SCRIPT = `(function () {
  var overlay = null;
  function hide() { if (overlay) { overlay.remove(); overlay = null; } }
  function show(message) {
    hide();
    overlay = document.createElement('div');
    overlay.id = 'ir-site-error-overlay';
    overlay.setAttribute('role', 'alertdialog');
    overlay.setAttribute('aria-labelledby', 'ir-site-error-title');
    overlay.style.cssText = 'position:fixed;inset:0;z-index:2147483647;overflow:auto;background:rgba(20,20,28,.94);color:#fff;font:14px/1.5 ui-monospace,Menlo,Consolas,monospace;padding:2rem';
    var title = document.createElement('h2');
    title.id = 'ir-site-error-title';
    title.style.cssText = 'margin:0 0 1rem;color:#ff8a80;font-size:1.1rem';
    title.textContent = 'ir-site: the last change does not build. This page is the last good version.';
    var pre = document.createElement('pre');
    pre.style.cssText = 'white-space:pre-wrap;margin:0';
    pre.textContent = message;
    var close = document.createElement('button');
    close.type = 'button';
    close.textContent = 'Dismiss';
    close.style.cssText = 'margin-top:1.5rem;font:inherit;padding:.4rem 1rem';
    close.onclick = hide;
    overlay.append(title, pre, close);
    document.body.appendChild(overlay);
    close.focus();
  }
  // Warnings do not stop the build: a panel at the foot of the page, which takes no focus.
  var panel = null;
  function hideWarnings() { if (panel) { panel.remove(); panel = null; } }
  function showWarnings(data) {
    hideWarnings();
    panel = document.createElement('div');
    panel.id = 'ir-site-warnings';
    panel.setAttribute('role', 'status');
    panel.style.cssText = 'position:fixed;left:0;right:0;bottom:0;max-height:40vh;z-index:2147483646;overflow:auto;background:rgba(40,34,10,.95);color:#fff;font:13px/1.5 ui-monospace,Menlo,Consolas,monospace;padding:1rem 2rem';
    var title = document.createElement('strong');
    title.style.cssText = 'display:block;margin-bottom:.5rem;color:#ffd54f';
    title.textContent = 'ir-site: ' + data.count + ' warning' + (data.count === 1 ? '' : 's') + ' (the page is built; build --strict would fail)';
    var pre = document.createElement('pre');
    pre.style.cssText = 'white-space:pre-wrap;margin:0';
    pre.textContent = data.message;
    var close = document.createElement('button');
    close.type = 'button';
    close.textContent = 'Dismiss';
    close.style.cssText = 'margin-top:.75rem;font:inherit;padding:.2rem .8rem';
    close.onclick = hideWarnings;
    panel.append(title, pre, close);
    document.body.appendChild(panel);
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
