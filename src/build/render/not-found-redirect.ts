// The not-found pages carry this inline script so that legacy links (`/cn/...`) and other
// redirect rules work on a plain static host that knows no rules, before any runtime
// exists: it applies the browser rules from /redirects.json, exact path first, then the
// lowercased path, keeping query and hash, replacing the history entry. It never
// redirects a path to itself (a case-only rule such as commentary-q2 -> commentary-Q2).
export const NOT_FOUND_REDIRECT_SCRIPT = `(function(){var l=location,p=l.pathname;if(!window.fetch)return;fetch("/redirects.json",{credentials:"same-origin"}).then(function(r){return r.ok?r.json():[]}).then(function(rules){var e={},c={};for(var i=0;i<rules.length;i++){var r=rules[i];if(!r.redirectInBrowser)continue;e[r.fromPath]=r;if(r.ignoreCase)c[r.fromPath.toLowerCase()]=r}var s=p.charAt(p.length-1)==="/"?p:p+"/",m=e[p]||e[s]||c[p.toLowerCase()]||c[s.toLowerCase()];if(m&&m.toPath!==p){var q=l.search;if(q&&m.toPath.indexOf("?")>=0)q="&"+q.slice(1);l.replace(m.toPath+q+l.hash)}})["catch"](function(){})})();`;
