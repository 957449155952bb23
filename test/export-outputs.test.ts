// `--zip` and `--out` never replace what is not theirs to replace: a symbolic link is refused,
// a FIFO or character device is written through, `--zip -` is standard output, and `--out`
// is created under the user's umask. Run through the CLI as a user runs it.
// Never aimed at /dev/stdout or any device of the machine with --force: only /dev/null
// without --force (which cannot rename anything), and device nodes made in a temporary folder.
import { spawn, spawnSync } from "node:child_process";
import { lstatSync, mkdtempSync, readFileSync, readlinkSync, readdirSync, statSync, symlinkSync, writeFileSync, mkdirSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { createServer } from "node:net";
import { join } from "node:path";
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { main } from "../src/cli/main.js";
import { ROOT, runCli } from "./helpers/cli.js";

const EXAMPLE = ROOT + "examples/support-tier.envelope.json";
const EXPORT = ["export", EXAMPLE, "--target", "crewai"];
const tmp = () => mkdtempSync(join(tmpdir(), "envelope-outputs-"));

/** The CLI as a real process (the source through tsx), under a shell so a umask can be set. */
function runProcess(args: string[], umask = "022"): { code: number; stdout: Buffer; stderr: string } {
  const quoted = args.map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(" ");
  const r = spawnSync("sh", ["-c", `umask ${umask} && exec "${process.execPath}" --import tsx src/cli/run.ts ${quoted}`], { cwd: ROOT, env: { PATH: process.env.PATH, NO_COLOR: "1" }, maxBuffer: 64 * 1024 * 1024 });
  // A zip on standard output is over spawnSync's default 1 MiB buffer (a CrewAI export's is).
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr.toString() };
}

/** The archive `--zip FILE` writes: what every other destination must receive byte for byte. */
async function referenceZip(): Promise<Buffer> {
  const file = join(tmp(), "ref.zip");
  expect((await runCli([...EXPORT, "--zip", file])).code).toBe(0);
  return readFileSync(file);
}

describe("--zip onto what is not a regular file", () => {
  it("a symbolic link is refused, --force or not: the link and its target are untouched", async () => {
    const dir = tmp();
    writeFileSync(join(dir, "real.zip"), "mine");
    symlinkSync("real.zip", join(dir, "link.zip"));
    symlinkSync("nowhere.zip", join(dir, "dangling.zip"));
    for (const name of ["link.zip", "dangling.zip"]) {
      for (const force of [[], ["--force"]]) {
        const r = await runCli([...EXPORT, "--zip", join(dir, name), ...force]);
        expect(r.code).toBe(2);
        expect(r.stderr).toMatch(new RegExp(`^envelope: ${join(dir, name)} is a symbolic link \\(to \\S+\\); --zip never replaces or follows a link: give the path it points to, or remove the link\\n$`));
      }
    }
    expect(lstatSync(join(dir, "link.zip")).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(dir, "link.zip"))).toBe("real.zip");
    expect(readFileSync(join(dir, "real.zip"), "utf8")).toBe("mine");
    expect(lstatSync(join(dir, "dangling.zip")).isSymbolicLink()).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(["dangling.zip", "link.zip", "real.zip"]);
  });

  it("a FIFO: the archive arrives through it, and it is still a FIFO", async () => {
    const dir = tmp();
    const fifo = join(dir, "pipe");
    expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
    for (const force of [[], ["--force"]]) {
      // A reader on the other end, as `envelope export … --zip >(…)` would have.
      const reader = spawn("cat", [fifo]);
      const chunks: Buffer[] = [];
      reader.stdout.on("data", (c: Buffer) => chunks.push(c));
      const closed = new Promise((done) => reader.on("close", done));
      const r = await runCli([...EXPORT, "--zip", fifo, ...force]);
      // Had nothing been written through it, the reader would wait forever.
      const stop = setTimeout(() => reader.kill(), 3000);
      await closed;
      clearTimeout(stop);
      expect(r.code, r.stderr).toBe(0);
      expect(Buffer.concat(chunks).equals(await referenceZip())).toBe(true);
      expect(lstatSync(fifo).isFIFO()).toBe(true);
    }
    expect(readdirSync(dir)).toEqual(["pipe"]);
  });

  it("a symbolic link to a FIFO (as /dev/stdout or >(…) are) is written through; the link stays", async () => {
    const dir = tmp();
    const fifo = join(dir, "pipe");
    expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
    symlinkSync("pipe", join(dir, "out"));
    const reader = spawn("cat", [fifo]);
    const chunks: Buffer[] = [];
    reader.stdout.on("data", (c: Buffer) => chunks.push(c));
    const closed = new Promise((done) => reader.on("close", done));
    const r = await runCli([...EXPORT, "--zip", join(dir, "out"), "--force"]);
    const stop = setTimeout(() => reader.kill(), 3000);
    await closed;
    clearTimeout(stop);
    expect(r.code, r.stderr).toBe(0);
    expect(Buffer.concat(chunks).equals(await referenceZip())).toBe(true);
    expect(readlinkSync(join(dir, "out"))).toBe("pipe");
    expect(lstatSync(fifo).isFIFO()).toBe(true);
  });

  it("a socket is refused, --force or not, and left as it is", async () => {
    const path = join(tmp(), "sock");
    const server = createServer().listen(path);
    await new Promise((done) => server.once("listening", done));
    try {
      const r = await runCli([...EXPORT, "--zip", path, "--force"]);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`envelope: ${path} is a socket; --zip writes only a regular file, a FIFO or a character device\n`);
      expect(lstatSync(path).isSocket()).toBe(true);
    } finally {
      server.close();
    }
  });

  it("/dev/null: succeeds without --force and stays a character device", async () => {
    const r = await runCli([...EXPORT, "--zip", "/dev/null"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^wrote \d+ files \(\d+ bytes\) into \/dev\/null\n/);
    expect(lstatSync("/dev/null").isCharacterDevice()).toBe(true);
  });

  it("a character device with --force is written through, never renamed over (a device node of our own)", async (ctx) => {
    const dir = tmp();
    const node = join(dir, "null");
    // The same device as /dev/null, made here: if it were replaced, nothing of the machine's is.
    if (spawnSync("mknod", [node, "c", "1", "3"]).status !== 0) return ctx.skip();
    const r = await runCli([...EXPORT, "--zip", node, "--force"]);
    if (/permission denied|operation not permitted/.test(r.stderr)) return ctx.skip(); // a nodev temporary folder
    expect(r.code, r.stderr).toBe(0);
    expect(lstatSync(node).isCharacterDevice()).toBe(true);
    expect(readdirSync(dir)).toEqual(["null"]);
  });

  it("--zip - writes the archive to standard output, equal to --zip FILE; all text goes to stderr", async () => {
    const r = runProcess([...EXPORT, "--zip", "-"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.equals(await referenceZip())).toBe(true);
    expect(r.stderr).toMatch(/^wrote \d+ files \(\d+ bytes\) to standard output\nloss report: \d+ carried/);
    expect(existsSync(join(ROOT, "-"))).toBe(false);
    const unzip = spawnSync("python3", ["-c", "import sys, zipfile, io; z = zipfile.ZipFile(io.BytesIO(sys.stdin.buffer.read())); assert z.testzip() is None; print(len(z.namelist()))"], { input: r.stdout });
    expect(unzip.status, unzip.stderr.toString()).toBe(0);
  });

  it("a name for standard output itself (/proc/self/fd/1, as /dev/stdout is) is written through, text on stderr", async () => {
    // /proc cannot be renamed into, so even a regression could not replace anything here.
    const r = runProcess([...EXPORT, "--zip", "/proc/self/fd/1"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.equals(await referenceZip())).toBe(true);
    expect(r.stderr).toMatch(/^wrote \d+ files \(\d+ bytes\) into \/proc\/self\/fd\/1\nloss report: /);
  });

  it("--zip - refuses --json (stdout is the archive) and a terminal", async () => {
    const json = await runCli([...EXPORT, "--zip", "-", "--json"]);
    expect(json.code).toBe(2);
    expect(json.stderr).toContain("--zip - writes the archive to standard output, so --json cannot go there too");
    const tty = Object.assign(new Writable({ write: (_c, _e, cb) => cb() }), { isTTY: true });
    let err = "";
    const stderr = new Writable({ write: (c, _e, cb) => ((err += String(c)), cb()) });
    expect(await main([...EXPORT, "--zip", "-"], { stdout: tty, stderr, env: {} })).toBe(2);
    expect(err).toContain("--zip - would write the archive to the terminal");
  });
});

describe("--out", () => {
  it("a symbolic link is refused, --force or not: the link and the directory it names are untouched", async () => {
    const dir = tmp();
    mkdirSync(join(dir, "real"));
    writeFileSync(join(dir, "real", "notes.txt"), "mine");
    symlinkSync("real", join(dir, "link"));
    symlinkSync("nowhere", join(dir, "dangling"));
    for (const name of ["link", "dangling"]) {
      for (const force of [[], ["--force"]]) {
        const r = await runCli([...EXPORT, "--out", join(dir, name), ...force]);
        expect(r.code).toBe(2);
        expect(r.stderr).toBe(`envelope: ${join(dir, name)} is a symbolic link (to ${name === "link" ? "real" : "nowhere"}); --out never replaces or follows a link: give the directory itself as --out\n`);
      }
    }
    expect(readlinkSync(join(dir, "link"))).toBe("real");
    expect(readdirSync(join(dir, "real"))).toEqual(["notes.txt"]);
    expect(readdirSync(dir).sort()).toEqual(["dangling", "link", "real"]);
  });

  it.each([
    ["022", "0755", "0644", 0o755, 0o644],
    ["077", "0700", "0600", 0o700, 0o600],
  ])("under umask %s, folders are %s and files %s (not mkdtemp's 0700)", (umask, _d, _f, dirMode, fileMode) => {
    const out = join(tmp(), "made", "project");
    const r = runProcess([...EXPORT, "--out", out], umask);
    expect(r.code, r.stderr).toBe(0);
    const mode = (p: string) => statSync(p).mode & 0o777;
    expect(mode(join(out, ".."))).toBe(dirMode); // a parent --out created
    expect(mode(out)).toBe(dirMode);
    expect(mode(join(out, "src", "support_tier"))).toBe(dirMode);
    expect(mode(join(out, "pyproject.toml"))).toBe(fileMode);
    expect(mode(join(out, "src", "support_tier", "crew.py"))).toBe(fileMode);
    // --force replaces it whole, under the same rule.
    expect(runProcess([...EXPORT, "--out", out, "--force"], umask).code).toBe(0);
    expect(mode(out)).toBe(dirMode);
  });

  it("an executable file keeps its bit less the umask", () => {
    const dir = join(tmp(), "x");
    const script = `import { FileSet } from "./src/export/file-set.ts"; import { writeDirectory } from "./src/export/sinks/directory.ts";
      const f = new FileSet(); f.add("run.sh", "#!/bin/sh\\n", 0o755); f.add("a/b.txt", "b", 0o644); await writeDirectory(f, ${JSON.stringify(dir)});`;
    const r = spawnSync("sh", ["-c", `umask 027 && exec "${process.execPath}" --import tsx --input-type=module -e '${script}'`], { cwd: ROOT, encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
    expect(statSync(join(dir, "run.sh")).mode & 0o777).toBe(0o750);
    expect(statSync(join(dir, "a", "b.txt")).mode & 0o777).toBe(0o640);
    expect(statSync(join(dir, "a")).mode & 0o777).toBe(0o750);
  });
});
