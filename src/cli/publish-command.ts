// `envelope publish DIR --github OWNER/NAME [--private] [--description TEXT] [--json]`:
// an already exported project directory becomes a new GitHub repository in one commit.
import { PublishError } from "../publish/errors.js";
import { readDirectory, type DirectoryContents, type LeftOut, type Unexpected } from "../publish/read-directory.js";
import { VERSION } from "../version.js";
import { exitCodeFor, githubJson, prepareGitHub, publishedLine, publishWithProgress, type GitHubFlags } from "./github-publish.js";
import type { Io } from "./main.js";
import { printable } from "./style.js";

export async function runPublish(dir: string, opts: { github: GitHubFlags; json: boolean }, io: Io): Promise<number> {
  // The directory first: a missing one, or a file GitHub cannot take, is said before a token is asked for.
  let contents: DirectoryContents;
  try {
    contents = await readDirectory(dir);
  } catch (e) {
    if (!(e instanceof PublishError)) throw e;
    io.stderr.write(`envelope: ${printable(e.message)}\n`);
    if (e.hint) io.stderr.write(`  hint: ${printable(e.hint)}\n`);
    return exitCodeFor(e);
  }
  const { files, leftOut, unexpected } = contents;
  const request = await prepareGitHub(opts.github, io, { stdinTaken: false, needToken: true });
  // Said before anything is sent, so the user sees it even if GitHub fails.
  if (!opts.json) io.stderr.write(leftOutText(leftOut) + unexpectedText(unexpected));
  const outcome = await publishWithProgress(files, request, io, `Initial commit\n\nPublished by envelope-export ${VERSION}.\n`, !opts.json);
  if (opts.json) {
    const summary = {
      source: dir,
      files: files.entries().map(([path, f]) => ({ path, size: f.bytes.length, mode: `0${f.mode.toString(8)}` })),
      totalBytes: files.totalBytes(),
      leftOut,
      unexpected,
      github: githubJson(outcome, request),
    };
    io.stdout.write(JSON.stringify(summary, null, 2) + "\n");
  } else if (outcome.ok) {
    io.stdout.write(publishedLine(outcome.result));
  }
  return outcome.code;
}

/** What publish left out, on stderr: one line per path (an ignored directory is one line). */
export function leftOutText(leftOut: readonly LeftOut[]): string {
  if (leftOut.length === 0) return "";
  const lines = leftOut.map((l) => `  ${printable(l.path)}  (${l.reason === "env-file" ? ".env files are never published" : printable(l.rule ?? ".gitignore")})\n`);
  return `left out ${leftOut.length} path${leftOut.length === 1 ? "" : "s"}:\n${lines.join("")}`;
}

/** What publish takes although a Python project does not usually hold it, on stderr: one line per folder. */
export function unexpectedText(unexpected: readonly Unexpected[]): string {
  if (unexpected.length === 0) return "";
  const lines = unexpected.map((u) => `  ${printable(u.path)}  (${u.files} file${u.files === 1 ? "" : "s"}, ${sizeText(u.bytes)})\n`);
  return `publishing ${unexpected.length === 1 ? "a folder" : "folders"} a Python project does not usually hold (add ${unexpected.length === 1 ? "it" : "them"} to .gitignore to leave ${unexpected.length === 1 ? "it" : "them"} out):\n${lines.join("")}`;
}

function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
