// The site's configuration file, in its folder: read by the config stage, named by the render
// stage's errors. A module of its own, so that the browser bundle (which imports paths.ts) does
// not depend on it.
export const CONFIG_FILE = 'site.config.ts';
