// Module resolution hooks for the JS unit tests: the app imports its vendored npm files by their URL
// on the server (/vendor/idb.js, copied there by scripts/build_assets.py); under Node they come from
// node_modules.
const VENDORED = {
  "/vendor/idb.js": new URL("../../../node_modules/idb/build/index.js", import.meta.url).href,
};

export async function resolve(specifier, context, nextResolve) {
  if (Object.hasOwn(VENDORED, specifier)) return { url: VENDORED[specifier], shortCircuit: true };
  return nextResolve(specifier, context);
}
