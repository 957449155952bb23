// Last step of `npm run build`: dist/cli/run.js and everything it imports, as one CommonJS
// file (dist/envelope.cjs), and its V8 code cache (src/cli/bundle.ts says why). Each module's
// import.meta.url becomes the URL of its file in dist/, computed from the bundle's place at
// run time, so the paths modules find their files by (templates/, schema/, the compiled
// templates, the serve worker) stay what they are without the bundle.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const root = fileURLToPath(new URL("../", import.meta.url));
const dist = join(root, "dist");

if (process.argv[2] === "--warm") {
  // A child: runs an export through the bundle and keeps what V8 compiled.
  const { loadBundle } = await import("../dist/cli/bundle.js");
  const [, , , cacheOut, ...argv] = process.argv;
  const bundle = loadBundle();
  process.argv = [process.argv[0], join(root, "bin/envelope.js"), ...argv];
  process.on("exit", (code) => {
    if (code === 0) writeFileSync(cacheOut, bundle.script.createCachedData());
  });
  bundle.run();
} else {
  const result = await esbuild.build({
    entryPoints: [join(dist, "cli/run.js")],
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    write: false,
    logLevel: "warning",
    legalComments: "none",
    banner: {
      js: [
        'const __envelopeModuleUrl = (file) => require("node:url").pathToFileURL(require("node:path").join(__dirname, file)).href;',
        // A dependency's import.meta.url has no answer here (its place differs once installed):
        // a loud error when used, never a wrong path.
        'const __envelopeDependencyMeta = { get url() { throw new Error("a bundled dependency asked for its import.meta.url"); } };',
      ].join("\n"),
    },
    define: { "import.meta.url": "__envelopeDependencyMeta.url" },
    plugins: [
      {
        name: "module-urls",
        setup(build) {
          build.onLoad({ filter: /\.js$/ }, (args) => {
            if (!args.path.startsWith(dist + sep)) return undefined;
            const file = relative(dist, args.path).split(sep).join("/");
            return { contents: readFileSync(args.path, "utf8").replaceAll("import.meta.url", `__envelopeModuleUrl(${JSON.stringify(file)})`), loader: "js", resolveDir: dirname(args.path) };
          });
        },
      },
    ],
  });
  if (result.warnings.length) throw new Error("bundling the CLI warned; see above");
  const code = result.outputFiles[0].text;
  const id = createHash("sha256").update(code).digest("hex").slice(0, 16);
  const { bundleIdLine, cacheFile } = await import("../dist/cli/bundle.js");
  for (const name of readdirSync(dist)) if (/^envelope\..+\.cache$/.test(name)) unlinkSync(join(dist, name));
  writeFileSync(join(dist, "envelope.cjs"), bundleIdLine(id) + code);

  const scratch = mkdtempSync(join(tmpdir(), "envelope-warm-"));
  try {
    const example = join(root, "examples/support-tier.envelope.json");
    const argv = ["export", example, "--target", "crewai", "--out", join(scratch, "out")];
    const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), "--warm", cacheFile(id), ...argv], { stdio: ["ignore", "ignore", "inherit"] });
    if (child.status !== 0) throw new Error(`warming the code cache failed (exit ${child.status})`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
