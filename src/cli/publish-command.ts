// `envelope publish DIR --github OWNER/NAME [--private] [--description TEXT] [--json]`:
// an already exported project directory becomes a new GitHub repository in one commit.
import { PublishError } from "../publish/errors.js";
import { readDirectory, type LeftOut } from "../publish/read-directory.js";
import { VERSION } from "../version.js";
import { githubJson, prepareGitHub, publishedLine, publishWithProgress, type GitHubFlags } from "./github-publish.js";
import { EXIT, type Io } from "./main.js";
import { printable } from "./style.js";

export async function runPublish(dir: string, opts: { github: GitHubFlags; json: boolean }, io: Io): Promise<number> {
  const request = await prepareGitHub(opts.github, io, { stdinTaken: false, needToken: true });
  let files, leftOut: LeftOut[];
  try {
    ({ files, leftOut } = await readDirectory(dir));
  } catch (e) {
    if (!(e instanceof PublishError)) throw e;
    io.stderr.write(`envelope: ${printable(e.message)}\n`);
    return EXIT.usage;
  }
  // Said before anything is sent, so the user sees it even if GitHub fails.
  if (!opts.json) io.stderr.write(leftOutText(leftOut));
  const outcome = await publishWithProgress(files, request, io, `Initial commit\n\nPublished by envelope-export ${VERSION}.\n`, !opts.json);
  if (opts.json) {
    const summary = {
      source: dir,
      files: files.entries().map(([path, f]) => ({ path, size: f.bytes.length, mode: `0${f.mode.toString(8)}` })),
      totalBytes: files.totalBytes(),
      leftOut,
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
