// Bundles a package's compiled dist/ into one module per entry point (plus the shared and lazily imported
// chunks rolldown splits off), so a cold start reads a handful of files instead of one per source file.
// Run by a package's build after tsc, from the package folder:
//   node ../scripts/bundle-dist.mjs [--entry dist/worker.js]... [--inline <dependency>]... [--esm <inlined>]... [--carried <inlined>:<dependency>]... [--alone dist/<entry>.js]... [--extend-entries] [--helpers-chunk]
// Entries: every `import` target of the package's exports, plus each --entry (files loaded by path at run
// time, such as a worker). Other packages stay imports (one copy of each in an app) unless named by
// --inline, which copies that dependency in, with its license on top of each file holding it (MIT and
// ISC ask for it in copies); --esm names an inlined one whose `node` export is CommonJS, to take its ESM
// build (its `default` export) instead: rolldown tree-shakes ESM but wraps CommonJS whole and runs the
// wrapper at start-up (yaml: 232 KB wrapped, 190 KB shaken). --alone names an entry bundled by itself, with
// its own copy of what it inlines, and imported as a file by the rest: rolldown splits by module, so an entry
// sharing a dependency's modules with another gets them with all the other uses of them (typebox's lite entry,
// 130 KB alone, weighed the whole 420 KB runtime). The .d.ts files keep the source layout; tsc's maps are read as the input
// maps, so the bundles' maps point at src/ and carry its text. Compiled files no entry needs are removed.
// --extend-entries lets an entry also export what other chunks share with it, instead of rolldown splitting
// those modules into chunks of their own: a file fewer for the start to load each, and one level fewer
// of files read one after another before any code runs (~1-2 ms of `weft tools` on Node 20 each). The
// extra exports have one-letter names and no types, so this is for an entry that is no library's API
// (the CLI's main.js, whose lazy command chunks share its code) or one the package's other entries import
// whole: core's root entry re-exports project.js; the sdk's provider and testing entries import its root.
// --helpers-chunk puts the package's own modules that two or more entries use, and that import, at run
// time, nothing but each other (the CLI's flags, tables and terminal checks, four files of under 1 KB each
// for `weft tools`), into one chunk: such a chunk never brings another package or a built-in to an entry
// that did not load it.
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { parseArgs } from "node:util";
import { build } from "rolldown";

const { values } = parseArgs({
  options: {
    entry: { type: "string", multiple: true, default: [] },
    inline: { type: "string", multiple: true, default: [] },
    esm: { type: "string", multiple: true, default: [] },
    carried: { type: "string", multiple: true, default: [] },
    alone: { type: "string", multiple: true, default: [] },
    "extend-entries": { type: "boolean", default: false },
    "helpers-chunk": { type: "boolean", default: false },
  },
});
const dist = path.resolve("dist");
const manifest = JSON.parse(readFileSync("package.json", "utf8"));
const targets = Object.values(manifest.exports ?? {}).map((target) => (typeof target === "string" ? target : target.import));
const entries = [...targets, ...values.entry].map((file) => {
  const relative = path.relative(dist, path.resolve(file));
  return [relative.replace(/\.js$/, ""), path.join(dist, relative)];
});
if (entries.length === 0) throw new Error(`${manifest.name}: no entry (exports or --entry)`);
const alone = values.alone.map((file) => path.resolve(file));
for (const file of alone) if (!entries.some(([, entry]) => entry === file)) throw new Error(`${manifest.name}: --alone ${file}: not an entry`);

const require = createRequire(path.join(dist, "index.js"));
/** The folder of an installed package (found from its manifest, which not every package exports). */
function packageRoot(name) {
  let dir = path.dirname(require.resolve(name));
  while (!existsSync(path.join(dir, "package.json")) || JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")).name !== name) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`${manifest.name}: cannot find the folder of ${name}`);
    dir = parent;
  }
  return dir;
}
/** A package's license text, to put on top of the files that carry its code. */
function licenseOf(name) {
  const root = packageRoot(name);
  const { version } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
  const licenseFile = readdirSync(root).find((file) => /^licen[cs]e/i.test(file));
  if (!licenseFile) throw new Error(`${manifest.name}: ${name} has no license file to copy`);
  return { root: `${root}${path.sep}`, version, text: readFileSync(path.join(root, licenseFile), "utf8").trim() };
}
const inlined = values.inline.map((name) => {
  const { root, version, text } = licenseOf(name);
  return { name, root, version, banner: `/*! ${name} ${version}, bundled for ${manifest.name}\n${text}\n*/` };
});
// --carried host:dependency names code an inlined package's own dist already carries without its license
// (the MCP SDK's dist holds ajv and its helpers): that license goes on top of the files holding the host.
const carried = values.carried.map((pair) => {
  const [host, name] = pair.split(":");
  const hostEntry = inlined.find((entry) => entry.name === host);
  if (!hostEntry || !name) throw new Error(`${manifest.name}: --carried ${pair}: expected <inlined package>:<dependency>`);
  return { name, root: hostEntry.root, banner: `/*! ${name}, carried inside ${host}\n${licenseOf(name).text}\n*/` };
});
/** The file of a dependency's ESM build: the `default` target of its root export. */
function esmBuildOf(name) {
  if (!values.inline.includes(name)) throw new Error(`${manifest.name}: --esm ${name}: not one of --inline`);
  const root = packageRoot(name);
  const target = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).exports?.["."]?.default;
  if (typeof target !== "string") throw new Error(`${manifest.name}: --esm ${name}: its package.json exports no "default" build`);
  return path.join(root, target);
}
const esmBuilds = new Map(values.esm.map((name) => [name, esmBuildOf(name)]));
const isInlined = (specifier) => values.inline.some((name) => specifier === name || specifier.startsWith(`${name}/`));

/** Whether a compiled module imports, at run time and through its own imports, nothing but files of this package. */
const ownOnly = new Map();
function importsOnlyOwnFiles(id) {
  if (!id.startsWith(dist)) return false;
  if (ownOnly.has(id)) return ownOnly.get(id);
  ownOnly.set(id, false);
  const code = readFileSync(id, "utf8");
  const specifiers = [...code.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)["']([^"']+)["']/g)].map(([, specifier]) => specifier);
  const own = specifiers.every((specifier) => specifier.startsWith(".") && importsOnlyOwnFiles(path.resolve(path.dirname(id), specifier)));
  ownOnly.set(id, own);
  return own;
}

/** Bundles `input`; an --alone entry other than these stays an import of its file. */
async function bundle(input) {
  const own = new Set(Object.values(input));
  const result = await build({
    input,
    platform: "node",
    ...(values["extend-entries"] ? { preserveEntrySignatures: "allow-extension" } : {}),
    // What copied-in code is, for the code that depends on it (the sdk's YAML_VERSION).
    transform: { define: Object.fromEntries(inlined.map(({ name, version }) => [`__WEFT_INLINED_VERSION_${name.toUpperCase().replace(/[^A-Z0-9]/g, "_")}__`, JSON.stringify(version)])) },
    logLevel: "warn",
    external: (specifier, importer) => !specifier.startsWith(".") && !path.isAbsolute(specifier) && !(importer && isInlined(specifier)),
    plugins: [
      { name: "esm-builds", resolveId: (specifier) => esmBuilds.get(specifier) ?? null },
      {
        name: "alone-entries",
        resolveId(specifier, importer) {
          if (!importer || !specifier.startsWith(".")) return null;
          const file = path.resolve(path.dirname(importer), specifier);
          return alone.includes(file) && !own.has(file) ? { id: file, external: "relative" } : null;
        },
      },
      {
        name: "tsc-source-maps",
        load(id) {
          if (!id.startsWith(dist) || !existsSync(`${id}.map`)) return null;
          const code = readFileSync(id, "utf8").replace(/\n\/\/# sourceMappingURL=.*\s*$/, "\n");
          return { code, map: readFileSync(`${id}.map`, "utf8") };
        },
      },
    ],
    output: {
      dir: dist,
      format: "esm",
      // One non-ASCII character in a file (a `…` in a string, a `→` in a doc comment) makes V8 hold all of
      // its source as UTF-16: twice the bytes in the heap at every start (~250 KB for `weft tools`), for
      // its scavenges to copy. Strings get escapes; doc comments, which cannot, are left to the .d.ts files
      // (editors read those) and the maps (which carry the source). License banners stay.
      charset: "ascii",
      comments: { legal: true, annotation: true, jsdoc: false },
      sourcemap: true,
      entryFileNames: "[name].js",
      // Beside the entries: a module that finds files from its own URL (../package.json) finds them still.
      chunkFileNames: "[name]-[hash].js",
      ...(values["helpers-chunk"] ? { codeSplitting: { groups: [{ name: "helpers", minShareCount: 2, test: importsOnlyOwnFiles }] } } : {}),
      banner: (chunk) =>
        [...inlined, ...carried]
          .filter(({ root }) => chunk.moduleIds.some((id) => id.startsWith(root)))
          .map(({ banner }) => banner)
          .join("\n"),
    },
  });
  return result.output;
}

const shared = entries.filter(([, file]) => !alone.includes(file));
const outputs = [
  ...(shared.length > 0 ? await bundle(Object.fromEntries(shared)) : []),
  ...(await Promise.all(entries.filter(([, file]) => alone.includes(file)).map((entry) => bundle(Object.fromEntries([entry]))))).flat(),
];

const written = new Set(outputs.flatMap(({ fileName }) => [path.join(dist, fileName), path.join(dist, `${fileName}.map`)]));
for (const file of readdirSync(dist, { recursive: true, withFileTypes: false })) {
  const full = path.join(dist, file);
  if (/\.js(\.map)?$/.test(file) && !written.has(full)) rmSync(full);
}
