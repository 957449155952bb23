// An update is all or nothing: a failure at any swap, an interruption (SIGINT) and a process
// killed outright (SIGKILL, rolled back by the next update) all leave the project as it was.
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, sep } from "node:path";
import { describe, expect, it } from "vitest";
import { FileSet } from "../../src/export/file-set.js";
import { applyPlan, InterruptedError, recoverInterrupted, RollbackError } from "../../src/update/apply.js";
import { planUpdate, type Current } from "../../src/update/plan.js";
import { ROOT } from "../helpers/cli.js";

// Work-folder markers go to a state directory of this test run, not the user's.
process.env.ENVELOPE_STATE_DIR = mkdtempSync(join(tmpdir(), "envelope-state-"));

/** Replaces a file with a non-empty folder: nothing can be moved back there. */
function blockWithFolder(dir: string, path: string): void {
  rmSync(join(dir, path));
  mkdirSync(join(dir, path, "blocker"), { recursive: true });
}

/** Every file under dir with its bytes and mode, and every folder: the whole state to compare. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const full = join(d, e.name);
      const rel = relative(dir, full).split(sep).join("/");
      if (e.isDirectory()) {
        out[`${rel}/`] = "dir";
        walk(full);
      } else out[rel] = `${(statSync(full).mode & 0o777).toString(8)} ${readFileSync(full, "base64")}`;
    }
  };
  walk(dir);
  return out;
}

/** A project with files a..e and a folder that the update empties; the plan touches every kind of step. */
function project() {
  const dir = mkdtempSync(join(tmpdir(), "envelope-apply-"));
  const base = new FileSet();
  const next = new FileSet();
  for (const name of ["a", "b", "c"]) {
    base.add(`src/${name}.py`, `${name} = 1\n`);
    next.add(`src/${name}.py`, `${name} = 2\n`);
  }
  base.add("steps/old/step.py", "old\n");
  next.add("new/dir/created.py", "new\n");
  for (const [p, f] of base.entries()) {
    mkdirSync(join(dir, p, ".."), { recursive: true });
    writeFileSync(join(dir, p), f.bytes);
  }
  writeFileSync(join(dir, "mine.txt"), "the developer's\n");
  const current = (p: string): Current => (existsSync(join(dir, p)) ? { bytes: readFileSync(join(dir, p)), mode: 0o644 } : "missing");
  return { dir, plan: planUpdate({ base, next, current }) };
}

describe("applying an update", () => {
  it("applies every step and empties no folder it should keep", async () => {
    const { dir, plan } = project();
    await applyPlan(dir, plan);
    const after = tree(dir);
    expect(after["src/a.py"]).toContain(Buffer.from("a = 2\n").toString("base64"));
    expect(after["new/dir/created.py"]).toBeDefined();
    expect(after["steps/"]).toBeUndefined(); // emptied by the removal, so removed
    expect(after["mine.txt"]).toBeDefined();
    expect(Object.keys(after).some((p) => p.startsWith(".envelope-update-"))).toBe(false);
  });

  it.each([0, 1, 2, 3, 4])("a failure before swap %i leaves the project exactly as it was", async (at) => {
    const { dir, plan } = project();
    const before = tree(dir);
    await expect(
      applyPlan(dir, plan, {
        beforeSwap: (i) => {
          if (i === at) throw new Error("disk gone");
        },
      }),
    ).rejects.toThrow("disk gone");
    expect(tree(dir)).toEqual(before);
  });

  it("a real file-system failure mid-way (a file where a folder must be made) rolls back too", async () => {
    const { dir, plan } = project();
    const before = tree(dir);
    // Between planning and the swap of new/dir/created.py, a file appears where its folder goes.
    await expect(applyPlan(dir, plan, { beforeSwap: (_i, path) => void (path === "new/dir/created.py" && writeFileSync(join(dir, "new"), "in the way\n")) })).rejects.toThrow();
    const after = tree(dir);
    delete after.new;
    expect(after).toEqual(before);
  });

  it("when putting back fails too, the originals stay in the work folder and the error says where", async () => {
    const { dir, plan } = project();
    const original = readFileSync(join(dir, "src/a.py"));
    // After src/a.py is swapped, a folder takes its place: it cannot be put back, and the update fails next.
    const failing = applyPlan(dir, plan, {
      beforeSwap: (_i, path) => {
        if (path === "src/b.py") {
          blockWithFolder(dir, "src/a.py");
          throw new Error("disk gone");
        }
      },
    });
    await expect(failing).rejects.toThrow(RollbackError);
    await expect(failing).rejects.toThrow(/the originals are in \.envelope-update-[0-9a-f]+\/old\//);
    const work = readdirSync(dir).find((n) => n.startsWith(".envelope-update-"))!;
    expect(readFileSync(join(dir, work, "old/src/a.py"))).toEqual(original);
  });

  it("a folder on the way that is a symbolic link is not written through", async () => {
    const { dir, plan } = project();
    const elsewhere = mkdtempSync(join(tmpdir(), "envelope-elsewhere-"));
    writeFileSync(join(elsewhere, "victim.py"), "theirs\n");
    // After planning, new/ becomes a link to a folder outside the project.
    await expect(applyPlan(dir, plan, { beforeSwap: (i) => void (i === 0 && symlinkSync(elsewhere, join(dir, "new"))) })).rejects.toThrow(/symbolic link/);
    expect(readdirSync(elsewhere)).toEqual(["victim.py"]);
  });

  it("a work folder no update here made (planted in a clone) is left alone", async () => {
    const { dir } = project();
    const planted = join(dir, ".envelope-update-0123456789ab");
    mkdirSync(join(planted, "old/src"), { recursive: true });
    writeFileSync(join(planted, "journal.json"), JSON.stringify({ steps: [{ path: "src/a.py", write: true, replaces: true }] }));
    writeFileSync(join(planted, "old/src/a.py"), "planted\n");
    const before = tree(dir);
    expect(await recoverInterrupted(dir)).toEqual({ recovered: 0, left: [".envelope-update-0123456789ab"] });
    expect(tree(dir)).toEqual(before);
  });

  it("an existing file keeps its permission bits (a 0600 file stays private)", async () => {
    const { dir, plan } = project();
    chmodSync(join(dir, "src/a.py"), 0o600);
    await applyPlan(dir, plan);
    expect(statSync(join(dir, "src/a.py")).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(dir, "src/a.py"), "utf8")).toBe("a = 2\n");
  });

  it("SIGINT during the swaps: held, then rolled back; the project is as it was", async () => {
    const { dir, plan } = project();
    const before = tree(dir);
    await expect(applyPlan(dir, plan, { beforeSwap: (i) => void (i === 2 && process.emit("SIGINT", "SIGINT")) })).rejects.toThrow(InterruptedError);
    expect(tree(dir)).toEqual(before);
  });

  it("SIGINT after the last swap: the update stands and is reported as done", async () => {
    const { dir, plan } = project();
    const last = plan.filter((e) => e.write || e.action === "remove").length - 1;
    await applyPlan(dir, plan, { beforeSwap: (i) => void (i === last && setImmediate(() => process.emit("SIGINT", "SIGINT"))) });
    expect(readFileSync(join(dir, "src/c.py"), "utf8")).toBe("c = 2\n");
  });

  it("killed outright mid-way (SIGKILL): the next update rolls the half-done one back first", async () => {
    const { dir } = project();
    const before = tree(dir);
    // A child process applies the same plan and kills itself before its third swap.
    const script = `
      import { existsSync, readFileSync } from "node:fs";
      import { join } from "node:path";
      import { FileSet } from "${ROOT}src/export/file-set.ts";
      import { applyPlan } from "${ROOT}src/update/apply.ts";
      import { planUpdate } from "${ROOT}src/update/plan.ts";
      const dir = ${JSON.stringify(dir)};
      const base = new FileSet(), next = new FileSet();
      for (const n of ["a", "b", "c"]) { base.add("src/" + n + ".py", n + " = 1\\n"); next.add("src/" + n + ".py", n + " = 2\\n"); }
      base.add("steps/old/step.py", "old\\n");
      next.add("new/dir/created.py", "new\\n");
      const current = (p) => existsSync(join(dir, p)) ? { bytes: readFileSync(join(dir, p)), mode: 0o644 } : "missing";
      await applyPlan(dir, planUpdate({ base, next, current }), { beforeSwap: (i) => { if (i === 3) process.kill(process.pid, "SIGKILL"); } });
    `;
    const r = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { cwd: ROOT, encoding: "utf8" });
    expect(r.signal, r.stderr).toBe("SIGKILL");
    expect(tree(dir)).not.toEqual(before); // half done: some files swapped, the work folder left
    expect(await recoverInterrupted(dir)).toEqual({ recovered: 1, left: [] });
    expect(tree(dir)).toEqual(before);
  });
});
